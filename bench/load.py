"""Human-paced load: many players at many tables over HTTP, with Locust.

``--players`` simulated people (default 400) sit ``--per-table`` to a table (default 8, so 50
tables) on PostgreSQL and Redis, with two Celery worker processes dealing and gunicorn serving
the API. Each person polls their table (``GET /api/v1/tables/{id}/``) every ``--poll``
seconds and, when their turn comes, thinks a random 0.2-2 s and then acts (``POST .../act/``
with the ``seq`` they saw: a check or call, a bring-in when forced, show at showdown). A
separate Locust user polls ``/healthz`` once a second: the same server's floor, measured in
the same run. Reported: the p50/p95/p99 of each, the ratio of act p95 to healthz p95 (goal:
at most 3), hands played, and every failure (any non-2xx answer is one).

Needs DATABASE_URL (postgres://...) and REDIS_URL, like ``bench.tables``: it creates and drops
its own database and purges the Celery queue of the Redis database given. Every process it
starts is stopped before it returns.

Run ``python -m bench.load [--quick]``; it prints one JSON report (progress on stderr).
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import random
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

# Locust patches the standard library with gevent when imported: before anything else uses it.
import gevent
from locust import HttpUser, constant, task
from locust.env import Environment

from bench.stack import machine, missing_services, purge_queue, scratch_database
from bench.tables import Process, calling, processes, start_worker

LOAD_DATABASE = "stud_bench_load"
BUY_IN = 1_000
THINK_SECONDS = (0.2, 2.0)


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench.load", description=__doc__)
    parser.add_argument("--players", type=int, default=400, help="simulated people")
    parser.add_argument("--per-table", type=int, default=8, help="people per table (2..8)")
    parser.add_argument("--seconds", type=float, default=60, help="measured run time")
    parser.add_argument("--poll", type=float, default=2.0, help="seconds between a person's looks")
    parser.add_argument("--port", type=int, default=8766, help="API port on 127.0.0.1")
    parser.add_argument("--web-workers", type=int, default=2, help="gunicorn processes")
    parser.add_argument("--quick", action="store_true", help="48 people at 6 tables, 20 s")
    args = parser.parse_args(argv)
    if args.quick:
        args.players, args.seconds = 48, 20
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
            action_seconds=30,
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

    class Person(HttpUser):
        wait_time = constant(0)

        def on_start(self) -> None:
            self.table_id, token = next(seats)
            self.client.headers["Authorization"] = f"Token {token}"

        @task
        def look_and_act(self) -> None:
            url = f"/api/v1/tables/{self.table_id}/"
            with self.client.get(url, name="GET table", catch_response=True) as answer:
                if answer.status_code != 200:
                    answer.failure(f"{answer.status_code}: {answer.text[:200]}")
                    time.sleep(poll)
                    return
                detail = answer.json()
            hand = detail.get("hand")
            options = hand["view"].get("legal_actions") if hand else None
            if not options:
                time.sleep(random.uniform(0.5, 1.5) * poll)
                return
            time.sleep(random.uniform(*THINK_SECONDS))
            option = calling(options)
            body = {"action": option["action"], "seq": detail["seq"]}
            if option["action"] not in ("show", "muck"):
                body["amount"] = option["to"]
            with self.client.post(
                url + "act/", json=body, name="POST act", catch_response=True
            ) as answer:
                if answer.status_code != 200:
                    answer.failure(f"{answer.status_code}: {answer.text[:200]}")

    class Health(HttpUser):
        wait_time = constant(1)
        fixed_count = 1

        @task
        def healthz(self) -> None:
            with self.client.get("/healthz", name="GET healthz", catch_response=True) as answer:
                if answer.status_code != 200:
                    answer.failure(f"{answer.status_code}: {answer.text[:200]}")

    return [Person, Health]


def run_locust(
    base: str, people: list[tuple[int, str]], args: argparse.Namespace
) -> dict[str, Any]:
    """Spawn everyone, run for ``args.seconds`` after the last one started, report."""
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
    started = time.monotonic()
    while time.monotonic() - started < args.seconds:
        gevent.sleep(min(10, args.seconds - (time.monotonic() - started)))
        total = environment.stats.total
        print(
            f"bench.load: {time.monotonic() - started:.0f}/{args.seconds:.0f} s, "
            f"{total.num_requests} requests, {total.num_failures} failures",
            file=sys.stderr,
        )
    elapsed = time.monotonic() - started
    runner.quit()
    return {"seconds": round(elapsed, 1), **summarize(environment.stats)}


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


def count_hands(since: datetime.datetime) -> int:
    from games.models import Hand

    return Hand.objects.filter(finished_at__gte=since).count()


def measure(args: argparse.Namespace, env: dict[str, str], logs: Path) -> dict[str, Any]:
    import django

    django.setup()
    from django.db import connections
    from django.utils import timezone

    from games.services.tables import table_set_status

    purge_queue()
    table_ids, people = set_up_people(args)
    base = f"http://127.0.0.1:{args.port}"
    with processes() as started:
        for n in (1, 2):
            started.append(start_worker(n, env, logs))
        web = [sys.executable, "-m", "gunicorn", "config.wsgi:application"]
        web += ["--bind", f"127.0.0.1:{args.port}", "--workers", str(args.web_workers)]
        web += ["--worker-class", "gthread", "--threads", "8", "--log-level", "warning"]
        started.append(Process("web", web, env, logs))
        for process in started[:2]:
            process.wait_for(lambda p=process: " ready." in p.output(), "become ready")
        started[2].wait_for(lambda: _answers(f"{base}/healthz"), "answer on /healthz")
        since = timezone.now()
        for table_id in table_ids:
            table_set_status(table_id=table_id, status="open")
        result = run_locust(base, people, args)
        hands = count_hands(since)
    purge_queue()
    connections.close_all()
    requests = result["requests"]
    act, health = requests["act"]["p95_ms"], requests["healthz"]["p95_ms"]
    return {
        **result,
        "tables": len(table_ids),
        "hands": hands,
        "act_p95_to_healthz_p95": round(act / health, 2) if act and health else None,
    }


def _answers(url: str) -> bool:
    import urllib.error
    import urllib.request

    try:
        with urllib.request.urlopen(url, timeout=2):
            return True
    except urllib.error.HTTPError:
        return True
    except OSError:
        return False


def main(argv: Sequence[str] | None = None) -> int:
    """Run the load test and print its JSON report; 2 when PostgreSQL or Redis is missing."""
    args = parse_args(argv)
    problem = missing_services("bench.load")
    if problem:
        print(problem, file=sys.stderr)
        return 2
    with (
        scratch_database(os.environ["DATABASE_URL"], LOAD_DATABASE) as env,
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
            "workers": "2 x celery worker --concurrency 1",
            "web": f"gunicorn, {args.web_workers} gthread workers x 8 threads",
        },
        **stack,
    }
    print(json.dumps(report, indent=2))
    return 0 if not stack["failures"] else 1


if __name__ == "__main__":
    sys.exit(main())
