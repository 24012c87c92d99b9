"""A bot tournament of 1,000 players to the end through the real stack, and the cost of one
balancing decision at 10,000 players.

The tournament is ``manage.py run_tournament`` (called in this process): it creates the bots
and the tournament, starts ``--workers`` Celery worker processes, plays beat (the clock tick
every two seconds), shows its progress bar on stderr and stops its workers. Reported: wall
time (from the draw to the last hand, and of the whole run with the set-up), hands played
and hands/s, player actions, seat moves (``Move`` rows, and the batches they were applied
in), tables at the start, the level reached, whether chips were conserved at every level,
the tournament's independent audit (``tourney.audit``: its log against its seats and
entries) and ``bench.balancing``'s figures (measured first, on a quiet machine).

Needs DATABASE_URL (postgres://...) and REDIS_URL; it creates and drops its own database
(``stud_bench_tourney``) on that server and purges the Celery queue of the Redis database
given, so point REDIS_URL at a scratch database (e.g. redis://.../14).

Run ``python -m bench.tournament [--players N] [--workers N] [--quick]``; it prints one JSON
report.
"""

from __future__ import annotations

import argparse
import datetime
import io
import json
import os
import sys
import time
from collections.abc import Sequence
from typing import Any

from bench import balancing
from bench.stack import machine, missing_services, purge_queue, scratch_database

BENCH_DATABASE = "stud_bench_tourney"
QUICK_PLAYERS = 200
TABLE_SIZE = 8
VARIANT = "stud_hi"


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench.tournament", description=__doc__)
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=2, help="Celery worker processes")
    parser.add_argument("--level-seconds", type=int, default=10, help="length of a level")
    parser.add_argument("--timeout", type=int, default=3600, help="give up after (s)")
    parser.add_argument("--quick", action="store_true", help=f"{QUICK_PLAYERS} players")
    args = parser.parse_args(argv)
    if args.quick:
        args.players = QUICK_PLAYERS
    if args.players < 2 or args.workers < 1:
        parser.error("need --players >= 2 and --workers >= 1")
    return args


def progress(message: str) -> None:
    print(f"bench.tournament: {message}", file=sys.stderr, flush=True)


def play(args: argparse.Namespace) -> tuple[dict[str, Any] | None, str | None]:
    """Run the tournament with ``run_tournament``; returns its JSON report (None if it did
    not finish) and the command's complaint, if any (it still reports when chips were not
    conserved)."""
    from django.core.management import CommandError, call_command

    output = io.StringIO()
    try:
        call_command(
            "run_tournament",
            players=args.players,
            variant=VARIANT,
            table_size=TABLE_SIZE,
            workers=args.workers,
            level_seconds=args.level_seconds,
            timeout=args.timeout,
            json=True,
            stdout=output,
        )
    except CommandError as error:
        return (json.loads(output.getvalue()) if output.getvalue() else None), str(error)
    return json.loads(output.getvalue()), None


def first_half(tournament: Any) -> dict[str, Any]:
    """Hands and hands/s from the draw until half the field was out: the stack under many
    tables (the whole run's rate leans on the fast hands of the final table)."""
    from django.db.models import Max

    from games.models import Hand

    players = tournament.entries.count()
    halved = tournament.entries.filter(place__gt=players // 2).aggregate(
        at=Max("bust_hand__finished_at")
    )["at"]
    hands = Hand.objects.filter(
        table__tournament_table__tournament=tournament, finished_at__lte=halved
    ).count()
    seconds = (halved - tournament.started_at).total_seconds()
    return {
        "seconds": round(seconds, 1),
        "hands": hands,
        "hands_per_second": round(hands / seconds, 2),
    }


def tournament_figures(tournament_id: int) -> dict[str, Any]:
    """What the database says about the finished tournament."""
    from games.models import TableEvent
    from tourney.models import Move, Tournament, TournamentEvent
    from tourney.planning.levels import level_number
    from tourney.selectors import schedule_entries

    tournament = Tournament.objects.get(pk=tournament_id)
    draw = TournamentEvent.objects.get(tournament=tournament, kind="draw").data
    entries = schedule_entries(tournament.schedule_id)
    assert tournament.started_at is not None and tournament.finished_at is not None
    return {
        "status": tournament.status,
        "seconds": (tournament.finished_at - tournament.started_at).total_seconds(),
        "tables_at_start": len({table for _, table, _ in draw["seats"]}),
        "levels_reached": level_number(entries, tournament.level_index),
        "levels_in_schedule": level_number(entries, len(entries) - 1),
        "moves": Move.objects.filter(tournament=tournament).count(),
        "move_batches": TournamentEvent.objects.filter(tournament=tournament, kind="moves").count(),
        "actions": TableEvent.objects.filter(
            table__tournament_table__tournament=tournament, kind="action"
        ).count(),
        "until_half_the_field_was_out": first_half(tournament),
        "audit": audit(tournament),
    }


def audit(tournament: Any) -> dict[str, Any]:
    """The tournament's independent audit (``tourney.audit``): its figures, or its problem."""
    from tourney.audit import AuditFailed, tournament_audit

    try:
        return {"passed": True, **tournament_audit(tournament)}
    except AuditFailed as problem:
        return {"passed": False, "problem": str(problem)}


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark and print its JSON report; 2 when PostgreSQL or Redis is missing,
    1 when the tournament did not finish, chips were not conserved or the audit failed."""
    args = parse_args(argv)
    problem = missing_services("bench.tournament")
    if problem:
        print(problem, file=sys.stderr)
        return 2
    progress("timing one balancing decision at 10,000 players (bench.balancing)")
    planner = balancing.run()  # before the stack: a quiet machine
    started = time.monotonic()
    with scratch_database(os.environ["DATABASE_URL"], BENCH_DATABASE):
        import django

        django.setup()
        purge_queue()
        progress(f"creating {args.players} bots and the tournament, then playing it out")
        try:
            result, complaint = play(args)
            figures = tournament_figures(result["tournament"]) if result else {}
        finally:
            purge_queue()  # the timers and advances still queued when the workers stopped
    wall = time.monotonic() - started
    if complaint:
        progress(complaint)
    if result is None:
        return 1
    seconds = figures.pop("seconds")
    report = {
        "benchmark": "tournament",
        "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "machine": machine(),
        "config": {
            "players": args.players,
            "workers": f"{args.workers} x celery worker --pool=solo (run_tournament)",
            "table_size": TABLE_SIZE,
            "level_seconds": args.level_seconds,
            "schedule": f"run_tournament's generated {VARIANT} schedule",
        },
        "tournament": {
            "players": args.players,
            "wall_seconds": round(seconds, 1),
            "wall_seconds_with_set_up": round(wall, 1),
            "hands_played": result["hands_played"],
            "hands_per_second": round(result["hands_played"] / seconds, 2),
            **figures,
            "chips_conserved": result["chips_conserved"],
            "prize_pool": result["prize_pool"],
            "paid_places": sum(1 for place in result["places"] if place["prize"]),
        },
        "balancing_at_10000_players": {
            "decision_ms_median": planner["decision_ms_median"],
            "building_table_states_ms_median": planner["building_table_states_ms_median"],
            "bench.balancing": planner,
        },
    }
    print(json.dumps(report, indent=2))
    finished = (
        figures["status"] == "finished" and result["chips_conserved"] and figures["audit"]["passed"]
    )
    return 0 if finished and not complaint else 1


if __name__ == "__main__":
    sys.exit(main())
