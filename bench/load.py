"""Human-paced load: many players at many tables over HTTP, with Locust.

Simulated people (``--players``) sit ``--per-table`` to a table (default 8) on PostgreSQL and
Redis, served the way deploy/ runs the service: Celery workers (``--workers`` processes)
dealing, beat (heartbeats, the table sweep) and gunicorn (``--web-workers`` gthread processes
of ``--web-threads`` threads) serving the API. Each person polls their table (``GET
/api/v1/tables/{id}/``, with the ETag of the answer it holds: a 304 while nothing changed)
every ``--poll`` seconds (give or take half) and, when their turn
comes, thinks a random 0.2-2 s and then acts (``POST .../act/`` with the ``seq`` they saw: a
check or call, a bring-in when forced, show at showdown). A separate Locust user polls
``/healthz`` once a second: the same server's floor, measured in the same run.

Sizes: the default is 120 people at 15 tables for 45 s (a minute or two in all, for ``make
bench``), ``--full`` 400 people at 50 tables for 240 s, ``--quick`` 48 people at 6 tables
for 20 s; ``--players`` and ``--seconds`` override either.

Reported: the p50/p95/p99 of each request kind, the ratio of act p95 to healthz p95 (goal: at
most 3), hands played, the people whose clock ran out (a person always acts within the
clock, so each one is a server too slow), every failure (any non-2xx answer but a poll's
304, or a connection error), the load average and the cores each part used (``bench.cpu``:
the web, the workers, this process, which is the load generator, and the machine). The exit
status is 1 when anything failed or a clock ran out; the processes' logs are then kept and
named.

Needs DATABASE_URL (postgres://...) and REDIS_URL, like ``bench.tables``: it creates and drops
its own database (``--database``) and purges the Celery queue of the Redis database given.
Every process it starts is stopped before it returns.

Run ``python -m bench.load [--quick | --full] [--json]``: a summary, or with ``--json`` one
JSON report (progress on stderr).
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import random
import shutil
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

# Locust patches the standard library with gevent when imported: before anything else uses it.
import gevent
from locust import FastHttpUser, constant, task
from locust.env import Environment

from bench import cpu
from bench.stack import (
    Process,
    machine,
    missing_services,
    purge_queue,
    running_stack,
    scratch_database,
)
from bench.tables import calling

LOAD_DATABASE = "stud_bench_load"
BUY_IN = 1_000
THINK_SECONDS = (0.2, 2.0)
ACTION_SECONDS = 30  # each person's clock: they always act well within it
# (players, seconds) of each size
SIZES = {"quick": (48, 20.0), "default": (120, 45.0), "full": (400, 240.0)}
GOAL_RATIO = 3.0


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench.load", description=__doc__)
    size = parser.add_mutually_exclusive_group()
    size.add_argument("--quick", action="store_true", help="48 people at 6 tables, 20 s")
    size.add_argument("--full", action="store_true", help="400 people at 50 tables, 240 s")
    parser.add_argument("--players", type=int, help="simulated people")
    parser.add_argument("--seconds", type=float, help="measured run time")
    parser.add_argument("--per-table", type=int, default=8, help="people per table (2..8)")
    parser.add_argument("--poll", type=float, default=2.0, help="seconds between a person's looks")
    parser.add_argument("--port", type=int, default=8766, help="API port on 127.0.0.1")
    parser.add_argument("--workers", type=int, default=2, help="Celery worker processes")
    parser.add_argument("--web-workers", type=int, default=2, help="gunicorn processes")
    parser.add_argument("--web-threads", type=int, default=8, help="threads per gunicorn process")
    parser.add_argument(
        "--database", default=LOAD_DATABASE, help="scratch database (dropped and created afresh)"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON report")
    args = parser.parse_args(argv)
    players, seconds = SIZES["quick" if args.quick else "full" if args.full else "default"]
    args.players = args.players or players
    args.seconds = args.seconds or seconds
    if not 2 <= args.per_table <= 8:
        parser.error("--per-table must be 2..8")
    return args


def set_up_people(args: argparse.Namespace) -> tuple[list[int], list[tuple[int, str]]]:
    """Paused tables full of people with tokens; returns table ids and (table, token) pairs."""
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    from games.models import Player
    from games.services.seating import seat_sit
    from games.services.tables import table_create
    from money.cashier import bankroll

    tables = -(-args.players // args.per_table)
    table_ids, people = [], []
    for t in range(tables):
        table = table_create(
            name=f"Load {t + 1}",
            variant="stud_hi",
            ante=1,
            bring_in=2,
            small_bet=5,
            big_bet=10,
            seat_count=args.per_table,
            buy_in_min=BUY_IN,
            buy_in_max=BUY_IN,
            pause_ms=1000,
            action_seconds=ACTION_SECONDS,
            status="paused",
        )
        for seat in range(1, args.per_table + 1):
            if len(people) == args.players:
                break
            # no password (tokens only): hashing one per person would dominate the set-up
            user = get_user_model().objects.create_user(username=f"person{t}-{seat}")
            person = Player.objects.create(user=user, display_name=f"Person {t}-{seat}")
            bankroll(player_id=person.id, amount=BUY_IN, memo="bench load: buy-in")
            seat_sit(table_id=table.id, player=person, seat_number=seat, buy_in=BUY_IN)
            people.append((table.id, Token.objects.create(user=user).key))
        table_ids.append(table.id)
    return table_ids, people


def locust_classes(people: list[tuple[int, str]], poll: float) -> list[type]:
    """The Locust users: one class per person at a table, and the healthz poller."""
    seats = iter(people)

    class Person(FastHttpUser):
        wait_time = constant(0)

        def on_start(self) -> None:
            self.table_id, token = next(seats)
            self.auth = {"Authorization": f"Token {token}"}
            self.etag = ""

        @task
        def look_and_act(self) -> None:
            url = f"/api/v1/tables/{self.table_id}/"
            headers = {**self.auth, "If-None-Match": self.etag}
            with self.client.get(
                url, name="GET table", headers=headers, catch_response=True
            ) as answer:
                if answer.status_code == 304:  # nothing new since the answer held
                    answer.success()
                    gevent.sleep(random.uniform(0.5, 1.5) * poll)
                    return
                if answer.status_code != 200:
                    answer.failure(refusal(answer))
                    gevent.sleep(poll)
                    return
                detail = answer.json()
                self.etag = answer.headers.get("ETag", "")
            hand = detail.get("hand")
            options = hand["view"].get("legal_actions") if hand else None
            if not options:
                gevent.sleep(random.uniform(0.5, 1.5) * poll)
                return
            gevent.sleep(random.uniform(*THINK_SECONDS))
            option = calling(options)
            body = {"action": option["action"], "seq": detail["seq"]}
            if option["action"] not in ("show", "muck"):
                body["amount"] = option["to"]
            with self.client.post(
                url + "act/", json=body, name="POST act", headers=self.auth, catch_response=True
            ) as answer:
                if answer.status_code != 200:
                    answer.failure(refusal(answer))

    class Health(FastHttpUser):
        wait_time = constant(1)
        fixed_count = 1

        @task
        def healthz(self) -> None:
            with self.client.get("/healthz", name="GET healthz", catch_response=True) as answer:
                if answer.status_code != 200:
                    answer.failure(refusal(answer))

    return [Person, Health]


def refusal(answer: Any) -> str:
    """A failed request in a few words, the same for alike ones (Locust counts failures by
    their words): its status and error code, or its body, or the connection's error."""
    if answer.status_code == 0:
        return f"no answer: {answer.error!r}"
    try:
        return f"{answer.status_code} {answer.json()['error']['code']}"
    except (ValueError, TypeError, KeyError):
        return f"{answer.status_code}: {(answer.text or '')[:200]}"


def run_locust(
    base: str, people: list[tuple[int, str]], args: argparse.Namespace, stack: list[Process]
) -> dict[str, Any]:
    """Spawn everyone, run for ``args.seconds`` after the last one started, report with the
    cores each part of the stack used meanwhile."""
    person, health = locust_classes(people, args.poll)
    environment = Environment(user_classes=[person, health], host=base)
    runner = environment.create_local_runner()
    users = len(people) + 1
    rate = max(20, users // 10)
    runner.start(users, spawn_rate=rate)
    ramp = users / rate + 1
    print(f"bench.load: {len(people)} people spawning over {ramp:.0f} s", file=sys.stderr)
    gevent.sleep(ramp)
    environment.stats.reset_all()  # measure the steady state only
    roles = {
        "web": [p.popen.pid for p in stack if p.name == "web"],
        "workers": [p.popen.pid for p in stack if p.name.startswith("worker")],
        "beat": [p.popen.pid for p in stack if p.name == "beat"],
    }
    before = cpu.read(roles, "load_generator")
    load_before = os.getloadavg()[0]
    while (elapsed := time.monotonic() - before.at) < args.seconds:
        gevent.sleep(min(10, args.seconds - elapsed))
        total = environment.stats.total
        print(
            f"bench.load: {time.monotonic() - before.at:.0f}/{args.seconds:.0f} s, "
            f"{total.num_requests} requests, {total.num_failures} failures, "
            f"load average {os.getloadavg()[0]:.1f}",
            file=sys.stderr,
        )
    after = cpu.read(roles, "load_generator")
    runner.quit()
    seconds = after.at - before.at
    cores = cpu.cores_used(before, after)
    served = environment.stats.total.num_requests
    return {
        "seconds": round(seconds, 1),
        "load_average_1m": {"start": round(load_before, 2), "end": round(os.getloadavg()[0], 2)},
        "cores_used": cores,
        "requests_per_second": round(served / seconds, 1),
        # what one request costs the web tier, whatever share of the machine it got
        "web_cpu_ms_per_request": round(cores["web"] * seconds * 1000 / served, 1)
        if served
        else None,
        **summarize(environment.stats),
    }


def summarize(stats: Any) -> dict[str, Any]:
    """Latency percentiles (ms) per request kind, and the failures."""

    def entry(name: str, method: str) -> dict[str, Any]:
        s = stats.get(name, method)
        return {
            "requests": s.num_requests,
            "failures": s.num_failures,
            "p50_ms": s.get_response_time_percentile(0.50),
            "p95_ms": s.get_response_time_percentile(0.95),
            "p99_ms": s.get_response_time_percentile(0.99),
        }

    kinds = {
        "act": entry("POST act", "POST"),
        "table_view": entry("GET table", "GET"),
        "healthz": entry("GET healthz", "GET"),
    }
    failures = [
        {"request": f.name, "error": str(f.error), "count": f.occurrences}
        for f in stats.errors.values()
    ]
    return {"requests": kinds, "failures": failures}


def count_play(since: datetime.datetime) -> dict[str, int]:
    """Hands finished since ``since``, people whose clock ran out, and hands left overdue."""
    from django.conf import settings
    from django.utils import timezone

    from games.models import Hand, HandStatus, TableEvent

    overdue = timezone.now() - datetime.timedelta(seconds=settings.HEALTH_HAND_OVERDUE_SECONDS)
    return {
        "hands": Hand.objects.filter(finished_at__gte=since).count(),
        "clocks_ran_out": TableEvent.objects.filter(kind="timeout", created_at__gte=since).count(),
        "hands_overdue": Hand.objects.filter(
            status=HandStatus.RUNNING, deadline__lt=overdue
        ).count(),
    }


def keep_alive_seconds(poll: float) -> float:
    """How long the web keeps an idle connection open: longer than a person ever leaves theirs
    idle (1.5 polls, or the longest think). With gunicorn's default of 2 s the server may
    close a connection just as its person sends on it: a browser retries, Locust fails."""
    return max(1.5 * poll, THINK_SECONDS[1]) + 5


def measure(args: argparse.Namespace, env: dict[str, str], logs: Path) -> dict[str, Any]:
    import django

    django.setup()
    from django.db import connections
    from django.utils import timezone

    from games.services.tables import table_set_status

    purge_queue()
    table_ids, people = set_up_people(args)
    base = f"http://127.0.0.1:{args.port}"
    with running_stack(
        env,
        logs,
        port=args.port,
        workers=args.workers,
        beat=True,
        web_workers=args.web_workers,
        web_threads=args.web_threads,
        keep_alive=keep_alive_seconds(args.poll),
    ) as stack:
        since = timezone.now()
        for table_id in table_ids:
            table_set_status(table_id=table_id, status="open")
        result = run_locust(base, people, args, stack)
        play = count_play(since)
    purge_queue()
    connections.close_all()
    requests = result["requests"]
    act, health = requests["act"]["p95_ms"], requests["healthz"]["p95_ms"]
    return {
        **result,
        "tables": len(table_ids),
        **play,
        "act_p95_to_healthz_p95": round(act / health, 2) if act and health else None,
    }


def trouble(report: dict[str, Any]) -> list[str]:
    """What went wrong in a run: failed requests, clocks that ran out, hands left stuck."""
    found = [f"{f['count']} x {f['request']}: {f['error']}" for f in report["failures"]]
    if report["clocks_ran_out"]:
        found.append(f"{report['clocks_ran_out']} clocks ran out (the server was too slow)")
    if report["hands_overdue"]:
        found.append(f"{report['hands_overdue']} hands overdue at the end")
    return found


def summary(report: dict[str, Any]) -> str:
    """The report for a person to read."""
    config = report["config"]
    lines = [
        f"{config['players']} people at {report['tables']} tables for {report['seconds']} s "
        f"({config['web']}; {config['workers']}): {report['hands']} hands",
        f"{'request':<12}{'count':>8}{'p50 ms':>9}{'p95 ms':>9}{'p99 ms':>9}",
    ]
    for kind, s in report["requests"].items():
        lines.append(
            f"{kind:<12}{s['requests']:>8}{s['p50_ms']:>9}{s['p95_ms']:>9}{s['p99_ms']:>9}"
        )
    ratio = report["act_p95_to_healthz_p95"]
    lines.append(f"act p95 / healthz p95 = {ratio} (goal <= {GOAL_RATIO:g})")
    lines.append(
        f"{report['requests_per_second']} requests/s, "
        f"{report['web_cpu_ms_per_request']} ms of web CPU each"
    )
    cores = ", ".join(f"{k} {v}" for k, v in report["cores_used"].items())
    load = report["load_average_1m"]
    lines.append(f"cores used ({report['machine']['cpus']} cpus): {cores}")
    lines.append(f"load average (1 min): {load['start']} at the start, {load['end']} at the end")
    lines += [f"PROBLEM: {problem}" for problem in trouble(report)] or ["no errors"]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the load test and print its report; 2 when PostgreSQL or Redis is missing, 1 when
    a request failed or a clock ran out."""
    args = parse_args(argv)
    problem = missing_services("bench.load")
    if problem:
        print(problem, file=sys.stderr)
        return 2
    with (
        scratch_database(os.environ["DATABASE_URL"], args.database) as env,
        tempfile.TemporaryDirectory(prefix="bench-load-") as logs,
    ):
        stack = measure(args, env, Path(logs))
        report = {
            "benchmark": "load",
            "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
            "machine": machine(),
            "config": {
                "players": args.players,
                "per_table": args.per_table,
                "poll_seconds": args.poll,
                "think_seconds": list(THINK_SECONDS),
                "workers": f"{args.workers} x celery worker --concurrency 1, beat",
                "web": f"gunicorn, {args.web_workers} gthread workers x {args.web_threads} "
                f"threads, keep-alive {keep_alive_seconds(args.poll):g} s",
                "load_generator": "Locust (FastHttpUser, gevent), in this process",
            },
            **stack,
        }
        problems = trouble(report)
        if problems:  # keep the processes' logs to look into
            kept = shutil.copytree(
                logs, tempfile.mkdtemp(prefix="bench-load-logs-"), dirs_exist_ok=True
            )
            print(f"bench.load: problems; the processes' logs are in {kept}", file=sys.stderr)
    print(json.dumps(report, indent=2) if args.json else summary(report))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
