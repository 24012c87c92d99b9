"""Where a bot hand's time goes in the worker: ``python -m bench.hand_profile [--hands N]``.

Plays ``--hands`` hands at one table of six bots in this process, calling the worker's
service (``games.services.hands.table_advance``) as its task would, on a scratch database
of DATABASE_URL's server (PostgreSQL; ``--database``, created and dropped) with the tasks
it sends going to REDIS_URL's broker (purged at the end). Reported per hand: wall and CPU
milliseconds, SQL statements and their round-trip time, transactions, tasks sent and the
time spent sending them, and, from a second run under cProfile, the share of the time in
the engine, in rebuilding the engine state from the snapshot (``from_dict``), in writing
the snapshot (``to_dict``), in the database driver, in the broker client and in the bots.
Prints one JSON report.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from bench.stack import machine, missing_services, purge_queue, scratch_database

BENCH_DATABASE = "stud_bench_profile"
BUY_IN = 10_000


@dataclass
class Counts:
    """What the hands did, summed."""

    statements: int = 0
    statement_seconds: float = 0.0
    commits: int = 0
    tasks: int = 0
    task_seconds: float = 0.0


@contextmanager
def counting(counts: Counts) -> Iterator[None]:
    """Count SQL statements (and their time) on the default connection and tasks sent."""
    from celery import current_app
    from django.db import connection

    def execute(run: Callable[..., Any], sql: str, *args: Any) -> Any:
        started = time.perf_counter()
        try:
            return run(sql, *args)
        finally:
            counts.statements += 1
            counts.statement_seconds += time.perf_counter() - started

    send = current_app.send_task

    def timed_send(*args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        try:
            return send(*args, **kwargs)
        finally:
            counts.tasks += 1
            counts.task_seconds += time.perf_counter() - started

    commit = connection.commit

    def counted_commit() -> None:
        counts.commits += 1
        commit()

    current_app.send_task = timed_send
    connection.commit = counted_commit
    try:
        with connection.execute_wrapper(execute):
            yield
    finally:
        current_app.send_task = send
        del connection.commit


def bot_table() -> int:
    """An open table of six bots with deep stacks and no pause between hands."""
    from django.contrib.auth import get_user_model

    from games.models import Player
    from games.services.seating import seat_sit
    from games.services.tables import table_create
    from money.cashier import bankroll

    table = table_create(
        name="Profile",
        variant="stud_hi",
        ante=1,
        bring_in=2,
        small_bet=5,
        big_bet=10,
        seat_count=6,
        buy_in_min=BUY_IN,
        buy_in_max=BUY_IN,
        allow_bots=True,
        pause_ms=0,
        status="paused",
    )
    for seat in range(1, 7):
        user = get_user_model().objects.create_user(username=f"bot{seat}")
        player = Player.objects.create(
            user=user, display_name=user.username, bot=("station", "rules", "random")[seat % 3]
        )
        bankroll(player_id=player.id, amount=BUY_IN, memo="profile: buy-in")
        seat_sit(table_id=table.id, player=player, seat_number=seat, buy_in=BUY_IN, by_staff=True)
    from games.models import Table

    Table.objects.filter(pk=table.id).update(status="open")
    return table.id


def play(table_id: int, hands: int) -> int:
    """Advance the table until ``hands`` more hands finished; returns the advances run."""
    from games.models import Hand
    from games.services.hands import table_advance

    target = Hand.objects.filter(table_id=table_id, status="finished").count() + hands
    runs = 0
    while Hand.objects.filter(table_id=table_id, status="finished").count() < target:
        table_advance(table_id)
        runs += 1
    return runs


SHARES = {
    "engine (games.engine)": ("games/engine/",),
    "bots (games.services.bots)": ("games/services/bots.py",),
    "database driver (psycopg)": ("psycopg/", "psycopg_binary/"),
    "broker client (kombu, redis)": ("kombu/", "redis/"),
    "django ORM (django.db)": ("django/db/",),
}
FUNCTIONS = {
    "state from snapshot (replay.from_dict)": ("games/engine/replay.py", "from_dict"),
    "snapshot to dict (replay.to_dict)": ("games/engine/replay.py", "to_dict"),
    "dealing (fairness.deck_for_hand)": ("games/engine/fairness.py", "deck_for_hand"),
}


def shares(profile: cProfile.Profile) -> dict[str, float]:
    """Fractions of the profiled time: self time per package, cumulative per function."""
    stats = pstats.Stats(profile).stats  # type: ignore[attr-defined]
    total = sum(entry[2] for entry in stats.values())  # self times add up to the whole
    out: dict[str, float] = {}
    for name, paths in SHARES.items():
        own = sum(e[2] for (file, _, _), e in stats.items() if any(p in file for p in paths))
        out[name] = round(own / total, 3)
    for name, (path, function) in FUNCTIONS.items():
        cumulative = sum(
            e[3] for (file, _, func), e in stats.items() if file.endswith(path) and func == function
        )
        out[name] = round(cumulative / total, 3)
    return out


def run(hands: int) -> dict[str, Any]:
    import django

    django.setup()
    from django.db import connection

    purge_queue()
    table_id = bot_table()
    play(table_id, 3)  # warm up: imports, caches, the connection
    counts = Counts()
    cpu, wall = time.process_time(), time.perf_counter()
    with counting(counts):
        advances = play(table_id, hands)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    profile = cProfile.Profile(time.process_time)  # CPU: waiting on the network is not work
    profile.enable()
    play(table_id, hands)
    profile.disable()
    purge_queue()
    connection.close()

    def each(value: float, scale: int = 1) -> float:
        return round(value * scale / hands, 2)

    return {
        "benchmark": "hand_profile",
        "machine": machine(),
        "hands": hands,
        "per_hand": {
            "wall_ms": each(wall, 1000),
            "cpu_ms": each(cpu, 1000),
            "advances": each(advances),
            "sql_statements": each(counts.statements),
            "sql_ms": each(counts.statement_seconds, 1000),
            "commits": each(counts.commits),
            "tasks_sent": each(counts.tasks),
            "task_send_ms": each(counts.task_seconds, 1000),
        },
        "profile_shares": shares(profile),
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.hand_profile", description=__doc__)
    parser.add_argument("--hands", type=int, default=200)
    parser.add_argument("--database", default=BENCH_DATABASE, help="scratch database name")
    args = parser.parse_args(argv)
    problem = missing_services("bench.hand_profile")
    if problem:
        print(problem, file=sys.stderr)
        return 2
    with scratch_database(os.environ["DATABASE_URL"], args.database):
        report = run(args.hands)
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
