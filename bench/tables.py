"""Bot tables through the real stack, next to what the database can do on this machine.

K bot tables (``--tables``, ``--bots`` each) play for a fixed time (``--seconds``) on
PostgreSQL and Redis: ``--workers`` Celery worker processes (2; ``celery -A config worker
--pool solo``, each consuming one table queue, ``TABLE_QUEUES`` = the number of workers, or
all the default queue with ``--shared-queue``) deal and advance, gunicorn serves the API, and
a driver in this process plays one human seat at ``--driven`` of the tables through HTTP
(urllib against 127.0.0.1; it polls with the ETag of its last answer, as
docs/walkthroughs/ring-game.md advises clients to), timing each
``POST /api/v1/tables/{id}/act/``. Reported: hands/s (also at the top, ``hands_per_second``)
and actions/s (``action`` events written in the window), the act latency p50/p95, the
database transactions/s of the stack
(``pg_stat_database``) and, per finished hand, where the time went: CPU milliseconds of the
workers, the web server and the database's server processes, transactions, and the tasks the
workers ran (by result) with their total milliseconds.

Before the stack starts, ``pgbench`` measures the same PostgreSQL: ``pgbench -i -s 1`` on a
scratch database, then its default TPC-B-like script (five statements and a commit per
transaction, three of them updates: write-and-commit bound, like a table advancing) with
``-c 2 -j 2`` (two clients, the two workers' worth) for ``--pgbench-seconds``. The ratio of
the stack's transactions/s to pgbench's reads as the fraction of this database's write
capacity the service uses. ``ratios`` also gives the cap the pause between hands alone puts
on the figure (``--pause-ms``, 100 by default: bot tables x 1000 / pause) and the share of it
reached: near the cap the pause binds, not the stack, and ``--pause-ms 0`` measures the stack.

Needs DATABASE_URL (postgres://...) and REDIS_URL; it creates and drops its own databases
(``--database``, default ``stud_bench``, and ``stud_bench_pgbench``) on that server and purges
the Celery queues of the Redis database given, so point REDIS_URL at a scratch database (e.g.
redis://.../14).
Every process it starts is stopped before it returns.

Run ``python -m bench.tables [--quick] [--workers N] [--json]``; it prints one JSON report
(on one line with ``--json``).
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from bench.cpu import cpu_seconds
from bench.stack import (
    machine,
    missing_services,
    purge_queue,
    recreate_database,
    running_stack,
    scratch_database,
)

BENCH_DATABASE = "stud_bench"
POLL_SECONDS = 0.1  # how often a driven seat looks at its table
BUY_IN = 10_000  # deep stacks: bots rarely bust during a run
PGBENCH_CLIENTS = 2


# ----------------------------------------------------------------------------- settings


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench.tables", description=__doc__)
    parser.add_argument("--tables", type=int, default=20, help="bot tables (K)")
    parser.add_argument("--bots", type=int, default=6, help="seats per table (2..8)")
    parser.add_argument("--driven", type=int, default=3, help="tables with a human seat")
    parser.add_argument("--seconds", type=float, default=30, help="measured run time")
    parser.add_argument("--pgbench-seconds", type=int, default=10)
    parser.add_argument("--pause-ms", type=int, default=100, help="pause between hands")
    parser.add_argument("--port", type=int, default=8765, help="API port on 127.0.0.1")
    parser.add_argument("--workers", type=int, default=2, help="worker processes")
    parser.add_argument(
        "--shared-queue",
        action="store_true",
        help="all workers on the default queue (no TABLE_QUEUES routing)",
    )
    parser.add_argument(
        "--database",
        default=BENCH_DATABASE,
        help="scratch database to create and drop (and NAME_pgbench for pgbench)",
    )
    parser.add_argument("--json", action="store_true", help="print the report on one line")
    parser.add_argument("--quick", action="store_true", help="4 tables, 8 s, pgbench 3 s")
    args = parser.parse_args(argv)
    if args.quick:
        args.tables, args.driven, args.seconds, args.pgbench_seconds = 4, 2, 8, 3
    if not 2 <= args.bots <= 8 or not 0 <= args.driven <= args.tables:
        parser.error("need 2 <= --bots <= 8 and 0 <= --driven <= --tables")
    if args.workers < 1:
        parser.error("need --workers >= 1")
    return args


def pause_bound(args: argparse.Namespace, hands_per_second: float) -> dict[str, float]:
    """What the pause between hands alone allows: each bot table deals at most one hand per
    ``--pause-ms`` (the hand itself and the timer's delay come on top), so near this cap the
    figure says more about the pause than about the stack (``--pause-ms 0`` measures the
    stack alone). Empty without a pause."""
    if not args.pause_ms:
        return {}
    cap = (args.tables - args.driven) * 1000 / args.pause_ms
    return {
        "pause_cap_hands_per_second": round(cap, 1),
        "hands_per_second_to_pause_cap": round(hands_per_second / cap, 3),
    }


# ----------------------------------------------------------------------------- PostgreSQL


def pgbench_binary() -> str:
    found = shutil.which("pgbench")
    if found:
        return found
    candidates = sorted(Path("/usr/lib/postgresql").glob("*/bin/pgbench"))
    if not candidates:
        raise SystemExit("pgbench not found: install postgresql-contrib or put it on PATH")
    return str(candidates[-1])


def run_pgbench(url: str, name: str, seconds: int) -> dict[str, Any]:
    """Transactions per second of pgbench's default TPC-B-like script on scratch database
    ``name``."""
    recreate_database(url, name)
    parts = urlsplit(url)
    connect = ["-h", parts.hostname or "127.0.0.1", "-p", str(parts.port or 5432)]
    if parts.username:
        connect += ["-U", parts.username]
    env = {**os.environ, **({"PGPASSWORD": parts.password} if parts.password else {})}
    binary = pgbench_binary()
    try:
        subprocess.run(
            [binary, *connect, "-i", "-q", "-s", "1", name],
            env=env,
            check=True,
            capture_output=True,
        )
        clients = ["-c", str(PGBENCH_CLIENTS), "-j", str(PGBENCH_CLIENTS)]
        done = subprocess.run(
            [binary, *connect, *clients, "-T", str(seconds), "-n", name],
            env=env,
            check=True,
            capture_output=True,
            text=True,
        )
    finally:
        recreate_database(url, name, drop_only=True)
    match = re.search(r"tps = ([0-9.]+) \(without initial connection time\)", done.stdout)
    if match is None:
        raise SystemExit(f"could not read pgbench's tps:\n{done.stdout}")
    return {
        "script": "tpcb-like (default)",
        "scale": 1,
        "clients": PGBENCH_CLIENTS,
        "jobs": PGBENCH_CLIENTS,
        "seconds": seconds,
        "tps": round(float(match.group(1)), 1),
    }


def transactions_so_far() -> int:
    """Committed and rolled-back transactions of this database so far (pg_stat_database)."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_force_next_flush()")
        cursor.execute(
            "SELECT xact_commit + xact_rollback FROM pg_stat_database "
            "WHERE datname = current_database()"
        )
        row = cursor.fetchone()
    return int(row[0])


# ----------------------------------------------------------------------------- HTTP driver


def http(
    method: str,
    url: str,
    token: str,
    body: dict[str, Any] | None = None,
    headers: dict[str, str] | None = None,
) -> Any:
    """One JSON request; returns (status, body, the answer's headers)."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method, headers=headers or {})
    request.add_header("Authorization", f"Token {token}")
    request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read()), response.headers
    except urllib.error.HTTPError as error:  # a 304 too
        return error.code, json.loads(error.read() or b"{}"), error.headers


def calling(options: list[dict[str, Any]]) -> dict[str, Any]:
    """The driven seat checks or calls (brings in when forced, shows at showdown)."""
    for action in ("bring_in", "check", "call", "show"):
        for option in options:
            if option["action"] == action:
                return option
    return options[0]


@dataclass
class Driver:
    """Plays one human seat at each of some tables through HTTP, timing every act."""

    base: str
    seats: list[tuple[int, str]]  # (table id, token)
    latencies: list[float] = field(default_factory=list)
    refused: dict[int, int] = field(default_factory=dict)
    stop: threading.Event = field(default_factory=threading.Event)

    def play(self, table_id: int, token: str) -> None:
        """Poll as a well-behaved client does, with the last answer's ETag (a 304: nothing
        new, so nothing to do), and act when it is the seat's turn."""
        url = f"{self.base}/api/v1/tables/{table_id}/"
        etag = ""
        while not self.stop.is_set():
            status, detail, headers = http("GET", url, token, headers={"If-None-Match": etag})
            etag = headers.get("ETag", "") if status in (200, 304) else ""
            hand = detail.get("hand") if status == 200 else None
            options = hand["view"]["legal_actions"] if hand else []
            if not options:
                time.sleep(POLL_SECONDS)
                continue
            option = calling(options)
            body = {"action": option["action"], "seq": detail["seq"]}
            if option["action"] not in ("show", "muck"):
                body["amount"] = option["to"]
            started = time.perf_counter()
            status, _, _ = http("POST", url + "act/", token, body)
            elapsed = time.perf_counter() - started
            if status == 200:
                self.latencies.append(elapsed)
            else:
                self.refused[status] = self.refused.get(status, 0) + 1

    def run(self) -> list[threading.Thread]:
        threads = [
            threading.Thread(target=self.play, args=seat, daemon=True) for seat in self.seats
        ]
        for thread in threads:
            thread.start()
        return threads


def percentile_ms(values: list[float], q: int) -> float | None:
    if len(values) < 2:
        return None
    return round(statistics.quantiles(values, n=100)[q - 1] * 1000, 2)


# ----------------------------------------------------------------------------- the run


def set_up_tables(args: argparse.Namespace) -> tuple[list[int], list[tuple[int, str]]]:
    """Paused tables full of bots; at the driven ones the last seat is a human with a token.
    Returns all table ids and the driven (table id, token) pairs."""
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    from games.models import Player
    from games.services.seating import seat_sit
    from games.services.tables import table_create
    from money.cashier import bankroll

    def player(username: str, bot: str = "") -> Player:
        # no password (tokens only): hashing one per player would dominate the set-up
        user = get_user_model().objects.create_user(username=username)
        created = Player.objects.create(user=user, display_name=username, bot=bot)
        bankroll(player_id=created.id, amount=BUY_IN, memo="bench: buy-in")
        return created

    kinds = ("station", "rules", "random")
    table_ids, driven = [], []
    for t in range(args.tables):
        table = table_create(
            name=f"Bench {t + 1}",
            variant="stud_hi",
            ante=1,
            bring_in=2,
            small_bet=5,
            big_bet=10,
            seat_count=args.bots,
            buy_in_min=BUY_IN,
            buy_in_max=BUY_IN,
            allow_bots=True,
            pause_ms=args.pause_ms,
            action_seconds=30,
            status="paused",
        )
        for seat in range(1, args.bots + 1):
            if t < args.driven and seat == args.bots:
                human = player(f"driver{t}")
                seated = human
                driven.append((table.id, Token.objects.create(user=human.user).key))
            else:
                seated = player(f"bot{t}-{seat}", kinds[seat % len(kinds)])
            seat_sit(
                table_id=table.id, player=seated, seat_number=seat, buy_in=BUY_IN, by_staff=True
            )
        table_ids.append(table.id)
    return table_ids, driven


def database_backends() -> list[int]:
    """The pids of this database's server processes serving the stack (not this one)."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pid FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        return [row[0] for row in cursor.fetchall()]


def cpu_sample(roles: dict[str, list[int]]) -> dict[str, dict[int, float]]:
    """CPU seconds so far of each role's processes (with their children), by pid."""
    return {role: {pid: cpu_seconds(pid) for pid in pids} for role, pids in roles.items()}


def cpu_spent(
    before: dict[str, dict[int, float]], after: dict[str, dict[int, float]]
) -> dict[str, float]:
    """CPU seconds of each role between two samples (a process new since ``before`` counts
    from zero)."""
    return {
        role: sum(t - before.get(role, {}).get(pid, 0.0) for pid, t in pids.items())
        for role, pids in after.items()
    }


TASK_DONE = re.compile(r"Task ([\w.]+)\[[\w-]+\] succeeded in ([0-9.e-]+)s: (.*)$", re.M)


def tasks_run(logs: list[str]) -> dict[str, Any]:
    """The tasks the workers ran in the given log text: how many of each name and result,
    and the seconds they took in all."""
    counts: dict[str, int] = {}
    seconds = 0.0
    for text in logs:
        for name, runtime, result in TASK_DONE.findall(text):
            key = f"{name.rsplit('.', 1)[-1]}: {result.strip()[:40]}"
            counts[key] = counts.get(key, 0) + 1
            seconds += float(runtime)
    return {"count": sum(counts.values()), "seconds": seconds, "by_result": counts}


def per_hand(
    hands: int, transactions: int, cpu: dict[str, float], tasks: dict[str, Any]
) -> dict[str, Any]:
    """Where a hand's time went: CPU of each kind of process, database transactions and
    worker tasks (by result) per finished hand."""
    n = max(hands, 1)
    return {
        "cpu_ms": {name: round(seconds * 1000 / n, 2) for name, seconds in cpu.items()},
        "db_transactions": round(transactions / n, 2),
        "tasks": round(tasks["count"] / n, 2),
        "task_ms": round(tasks["seconds"] * 1000 / n, 2),
        "tasks_by_result": {k: round(v / n, 2) for k, v in sorted(tasks["by_result"].items())},
    }


def count_work(since: datetime.datetime, until: datetime.datetime) -> tuple[int, int]:
    """Hands finished and action events written in the window."""
    from games.models import Hand, TableEvent

    hands = Hand.objects.filter(finished_at__gte=since, finished_at__lt=until).count()
    actions = TableEvent.objects.filter(
        kind="action", created_at__gte=since, created_at__lt=until
    ).count()
    return hands, actions


def measure_stack(args: argparse.Namespace, env: dict[str, str], logs: Path) -> dict[str, Any]:
    """Start workers and web, open the tables, drive and count for ``args.seconds``."""
    import django
    from django.db import connections
    from django.utils import timezone

    django.setup()
    from games.services.schedule import table_queue
    from games.services.tables import table_set_status

    purge_queue()
    table_ids, driven = set_up_tables(args)
    base = f"http://127.0.0.1:{args.port}"
    queues = [None if args.shared_queue else table_queue(n) for n in range(args.workers)]
    with running_stack(env, logs, port=args.port, workers=args.workers, queues=queues) as started:
        workers, web = started[:-1], started[-1]

        def roles() -> dict[str, list[int]]:
            return {
                "workers": [w.popen.pid for w in workers],
                "web": [web.popen.pid],
                "database": database_backends(),
            }

        driver = Driver(base, driven)
        transactions_before = transactions_so_far()
        logged_before = [len(w.output()) for w in workers]
        cpu_before = cpu_sample(roles())
        since = timezone.now()
        for table_id in table_ids:
            table_set_status(table_id=table_id, status="open")  # the workers start dealing
        threads = driver.run()
        time.sleep(args.seconds)
        until = timezone.now()
        cpu = cpu_spent(cpu_before, cpu_sample(roles()))
        transactions = transactions_so_far() - transactions_before
        tasks = tasks_run([w.output()[n:] for w, n in zip(workers, logged_before, strict=True)])
        driver.stop.set()
        for thread in threads:
            thread.join(timeout=35)
        elapsed = (until - since).total_seconds()
        hands, actions = count_work(since, until)
    purge_queue()  # the timers and advances still queued when the workers stopped
    connections.close_all()
    return {
        "seconds": round(elapsed, 2),
        "hands": hands,
        "actions": actions,
        "hands_per_second": round(hands / elapsed, 2),
        "actions_per_second": round(actions / elapsed, 2),
        "db_transactions_per_second": round(transactions / elapsed, 1),
        "per_hand": per_hand(hands, transactions, cpu, tasks),
        "act_latency_ms": {
            "count": len(driver.latencies),
            "p50": percentile_ms(driver.latencies, 50),
            "p95": percentile_ms(driver.latencies, 95),
            "refused": {str(k): v for k, v in sorted(driver.refused.items())},
        },
    }


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark and print its JSON report; 2 when PostgreSQL or Redis is missing."""
    args = parse_args(argv)
    problem = missing_services("bench.tables")
    if problem:
        print(problem, file=sys.stderr)
        return 2
    server_url = os.environ["DATABASE_URL"]
    # before the stack: an idle machine
    pgbench = run_pgbench(server_url, f"{args.database}_pgbench", args.pgbench_seconds)
    # one table queue per worker (this process sends table tasks too: it opens the tables)
    os.environ["TABLE_QUEUES"] = "0" if args.shared_queue else str(args.workers)
    with (
        scratch_database(server_url, args.database) as env,
        tempfile.TemporaryDirectory(prefix="bench-tables-") as logs,
    ):
        stack = measure_stack(args, env, Path(logs))
    report = {
        "benchmark": "tables",
        "hands_per_second": stack["hands_per_second"],
        "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "machine": machine(),
        "config": {
            "tables": args.tables,
            "seats_per_table": args.bots,
            "driven_tables": args.driven,
            "pause_ms": args.pause_ms,
            "workers": f"{args.workers} x celery worker --pool solo"
            + (", one default queue" if args.shared_queue else ", one table queue each"),
            "web": "gunicorn, 2 sync workers",
            "stakes": "stud_hi 1/2/5/10",
        },
        "pgbench": pgbench,
        "stack": stack,
        "ratios": {
            "db_transactions_to_pgbench_tps": round(
                stack["db_transactions_per_second"] / pgbench["tps"], 3
            ),
            "actions_per_second_to_pgbench_tps": round(
                stack["actions_per_second"] / pgbench["tps"], 3
            ),
            **pause_bound(args, stack["hands_per_second"]),
        },
    }
    print(json.dumps(report, indent=None if args.json else 2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
