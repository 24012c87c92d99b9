"""What an elimination costs the tournament's update pass:
``python -m bench.eliminations [--players N] [--rounds N] [--quick]``.

A tournament of ``--players`` bots (320: 40 tables of 8) on a scratch database of
DATABASE_URL's server (PostgreSQL; ``--database``, created and dropped). Each round, two
players at every table are left with one chip unit (the rest goes to a third player, so
chips are conserved), one hand is played at every table in this process (the worker's
service, ``games.services.hands.table_advance``), then the update pass that eliminates the
busts is timed, as its task runs it (``tourney.services.update.tournament_update``), with its
SQL statements counted. The tasks these would send are not sent (no worker runs). Reported:
busts, milliseconds and statements a bust, by round and in all; prints one JSON report.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Sequence
from typing import Any
from unittest import mock

from bench.stack import machine, missing_services, scratch_database

BENCH_DATABASE = "stud_bench_eliminations"
SHORT = 2  # players at each table left with one chip unit before each round's hand


def short_stacks(table_id: int, chips: int) -> None:
    """Leave ``SHORT`` players at the table with ``chips``; the next one takes the rest."""
    from games.models import Seat

    seats = list(Seat.objects.filter(table_id=table_id, player__isnull=False).order_by("number"))
    if len(seats) <= SHORT:
        return
    moved = sum(seat.stack - chips for seat in seats[:SHORT] if seat.stack > chips)
    for seat in seats[:SHORT]:
        Seat.objects.filter(pk=seat.pk).update(stack=min(seat.stack, chips))
    Seat.objects.filter(pk=seats[SHORT].pk).update(stack=seats[SHORT].stack + moved)


def round_played(tournament: Any) -> dict[str, Any]:
    """One round: short stacks, a hand at every table, the update pass timed."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from games.services.hands import table_advance
    from tourney.models import EntryStatus, TournamentTable
    from tourney.services.update import tournament_update

    tables = list(
        TournamentTable.objects.filter(tournament=tournament)
        .exclude(table__status="closed")
        .values_list("table_id", flat=True)
    )
    for table_id in tables:
        short_stacks(table_id, tournament.chip_unit)
        while table_advance(table_id) not in ("hand finished", "waiting for players"):
            pass
    out = tournament.entries.filter(status=EntryStatus.ELIMINATED)
    before = out.count()
    with CaptureQueriesContext(connection) as queries:
        started = time.perf_counter()
        tournament_update(tournament_id=tournament.id)
        seconds = time.perf_counter() - started
    return {
        "tables": len(tables),
        "busts": out.count() - before,
        "ms": round(seconds * 1000, 1),
        "statements": len(queries.captured_queries),
    }


def run(players: int, rounds: int) -> dict[str, Any]:
    import django

    django.setup()
    from tourney.services.commands.bots import bot_tournament_create
    from tourney.services.commands.draw import tournament_start
    from tourney.services.update import tournament_update

    with (
        mock.patch("games.services.schedule._send"),
        mock.patch("tourney.tasks.tournament_update_soon"),
    ):
        tournament = bot_tournament_create(
            players=players, variant="stud_hi", table_size=8, level_seconds=3600, seed=7
        )
        tournament_start(tournament_id=tournament.id)
        tournament_update(tournament_id=tournament.id)
        by_round = [round_played(tournament) for _ in range(rounds)]
    busts = sum(r["busts"] for r in by_round)
    return {
        "benchmark": "eliminations",
        "machine": machine(),
        "players": players,
        "rounds": by_round,
        "busts": busts,
        "ms_per_bust": round(sum(r["ms"] for r in by_round) / max(busts, 1), 2),
        "statements_per_bust": round(sum(r["statements"] for r in by_round) / max(busts, 1), 1),
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.eliminations", description=__doc__)
    parser.add_argument("--players", type=int, default=320)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--database", default=BENCH_DATABASE, help="scratch database name")
    parser.add_argument("--quick", action="store_true", help="96 players, 2 rounds")
    args = parser.parse_args(argv)
    if args.quick:
        args.players, args.rounds = 96, 2
    problem = missing_services("bench.eliminations")
    if problem:
        print(problem, file=sys.stderr)
        return 2
    with scratch_database(os.environ["DATABASE_URL"], args.database):
        report = run(args.players, args.rounds)
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
