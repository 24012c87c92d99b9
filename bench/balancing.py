"""The cost of one table-balancing decision at 10,000 players, and a 1,000-player bust-out.

Run ``python -m bench.balancing`` for a JSON report. Times are medians of several runs of the
pure planner alone (no database): building the table states is timed apart, as the service
pays it too.
"""

from __future__ import annotations

import json
import random
import statistics
import time
from collections.abc import Callable, Hashable
from typing import Any

from tourney.planning.balancing import BalanceConfig, TableState, plan_moves

RUNS = 7
REPEATS = 20
SEED = 20240607
SEATS = 8


def run() -> dict[str, Any]:
    """Milliseconds per decision at 10,000 players (1,250 tables) in three situations, and
    decisions per second over a simulated 1,000-player tournament."""
    rng = random.Random(SEED)
    seatings = {
        # One player out at a full field: nothing to do (the common case).
        "no_move": _field(10_000, rng, busted=1),
        # Four out at one table: 4 against 8, one balancing move.
        "balance": _field(10_000, rng, busted=0, short_table_players=4),
        # Eight out across the room: the players fit at 1,249 tables, one table breaks.
        "break": _field(10_000, rng, busted=8),
    }
    states = {name: _states(seats) for name, seats in seatings.items()}
    decision_ms = {name: _median_ms(_planning(tables)) for name, tables in states.items()}
    moves = {
        name: len(plan_moves(tables, random.Random(1)).moves) for name, tables in states.items()
    }
    building_ms = _median_ms(lambda: _states(seatings["no_move"]))
    decisions, seconds, bust_out_moves = _bust_out(1_000)
    return {
        "players": 10_000,
        "tables": 1_250,
        "runs": RUNS,
        "decision_ms_median": {name: round(ms, 3) for name, ms in decision_ms.items()},
        "moves_per_decision": moves,
        "building_table_states_ms_median": round(building_ms, 3),
        "bust_out_1000_players": {
            "decisions": decisions,
            "moves": bust_out_moves,
            "seconds": round(seconds, 3),
            "decisions_per_second": round(decisions / seconds),
        },
    }


def _field(
    players: int, rng: random.Random, busted: int, short_table_players: int | None = None
) -> dict[int, dict[int, int]]:
    """Full 8-seat tables, then ``busted`` random players out (at most one per table)."""
    tables = {
        number: {seat: (number - 1) * SEATS + seat - 1 for seat in range(1, SEATS + 1)}
        for number in range(1, players // SEATS + 1)
    }
    for number in rng.sample(sorted(tables), busted):
        del tables[number][rng.randint(1, SEATS)]
    if short_table_players is not None:
        short = tables[rng.randint(1, len(tables))]
        for seat in range(short_table_players + 1, SEATS + 1):
            del short[seat]
    return tables


def _states(tables: dict[int, dict[int, int]]) -> list[TableState]:
    return [TableState(number, SEATS, seats) for number, seats in tables.items()]


def _planning(tables: list[TableState]) -> Callable[[], object]:
    return lambda: plan_moves(tables, random.Random(1))


def _median_ms(action: Callable[[], object]) -> float:
    timings = []
    for _ in range(RUNS):
        start = time.perf_counter()
        for _ in range(REPEATS):
            action()
        timings.append((time.perf_counter() - start) / REPEATS * 1000)
    return statistics.median(timings)


def _bust_out(players: int) -> tuple[int, float, int]:
    """Random eliminations one hand at a time to a winner, a planner decision after each hand
    (the planner's time only). Returns (decisions, planner seconds, moves)."""
    rng = random.Random(SEED)
    planner_rng = random.Random(SEED + 1)
    tables: dict[int, dict[int, Hashable]] = {
        number: {seat: (number - 1) * SEATS + seat - 1 for seat in range(1, SEATS + 1)}
        for number in range(1, players // SEATS + 1)
    }
    breaking: set[int] = set()
    left = players
    decisions = moves = 0
    seconds = 0.0
    config = BalanceConfig()
    while left > 1:
        number = rng.choice(sorted(tables))
        seats = tables[number]
        if len(seats) > 1 and rng.random() < 0.3:
            del seats[rng.choice(sorted(seats))]
            left -= 1
        states = [TableState(n, SEATS, s, False, n in breaking) for n, s in tables.items()]
        start = time.perf_counter()
        plan = plan_moves(states, planner_rng, config)
        seconds += time.perf_counter() - start
        decisions += 1
        moves += len(plan.moves)
        for move in plan.moves:
            del tables[move.from_table][move.from_seat]
        for move in plan.moves:
            tables[move.to_table][move.to_seat] = move.player
        for closed in plan.closed:
            del tables[closed]
        breaking = set(plan.breaking) - set(plan.closed)
    return decisions, seconds, moves


if __name__ == "__main__":
    print(json.dumps(run(), indent=2))
