"""Balancing and breaking: ask the planner, apply its moves as one batch, close tables.

The planner is stateless: the tables' ``breaking`` flags are persisted here, and it is asked
again after every hand. Its moves only involve tables between hands; they are applied as one
batch (every moving player lifted, then seated), and stored as ``Move`` instructions:
applied online, pending for staff to acknowledge live (the seating chart changes at once).
"""

from __future__ import annotations

import secrets
from collections import defaultdict
from itertools import groupby
from operator import itemgetter
from typing import Any

from games import rows
from games.engine.fairness import SeededShuffler
from games.models import Seat
from tourney.models import Entry, EntryStatus, Mode, Move, MoveStatus, Tournament
from tourney.planning.balancing import BalanceConfig, Plan, plan_moves
from tourney.selectors import locked_players
from tourney.services.steps.locks import LockedTable
from tourney.services.steps.log import event_append
from tourney.services.steps.seating import (
    SeatsByTable,
    Sit,
    seats_lift,
    seats_take,
    table_close,
    table_states,
)


def balance_config(tournament: Tournament) -> BalanceConfig:
    """The planner's configuration from the tournament's settings."""
    return BalanceConfig(break_order=tournament.break_order, threshold=tournament.balance_threshold)


def _plan(
    tournament: Tournament,
    tables: list[LockedTable],
    seats: SeatsByTable,
    seed: bytes,
) -> Plan:
    return plan_moves(
        table_states(tables, seats, locked_players(tournament)),
        SeededShuffler(seed),
        balance_config(tournament),
    )


def tables_balancing_waits_for(
    tournament: Tournament, tables: list[LockedTable], seats: SeatsByTable
) -> tuple[list[LockedTable], list[LockedTable]]:
    """The ``busy`` tables the plan would act on now if they were between hands: tables to
    break, to move players from or to, or to stop before their next hand; and of those, the
    tables that must deal no more hands: to break, or all before the final table's redraw."""
    plan = _plan(tournament, tables, seats, secrets.token_bytes(16))
    numbers = set(plan.breaking) | set(plan.waiting) | set(plan.unbalanced)
    for deferred in plan.deferred:
        numbers |= {deferred.from_table, *deferred.blocked_by}
        if deferred.to_table is not None:
            numbers.add(deferred.to_table)
    wanted = [locked for locked in tables if locked.busy and locked.tt.number in numbers]
    final = plan.final_table is not None
    return wanted, [t for t in wanted if final or t.tt.number in plan.breaking]


def tables_balance(
    tournament: Tournament, tables: list[LockedTable], seats: SeatsByTable
) -> tuple[Plan, set[int]]:
    """Plan and apply breaks, moves and closings; returns the plan and the ids of the tables
    whose seating changed."""
    seed = secrets.token_bytes(16)
    plan = _plan(tournament, tables, seats, seed)
    by_number = {locked.tt.number: locked for locked in tables}
    for number in plan.breaking:
        locked = by_number[number]
        if not locked.tt.breaking:
            locked.tt.breaking = True
            locked.tt.save(update_fields=["breaking"])
    changed: set[int] = set()
    if plan.moves:
        _moves_apply(tournament, plan, by_number, seed)
        changed = {by_number[m.to_table].table.id for m in plan.moves}
    for number in plan.closed:
        table_close(by_number[number])
    if plan.final_table is not None and plan.moves:
        event_append(tournament, "final_table", {"table": plan.final_table})
    if plan.deferred or plan.unbalanced:
        event_append(tournament, "balance_pending", _pending_logged(tables, seats, plan))
    return plan, changed - {by_number[n].table.id for n in plan.closed}


def _pending_logged(tables: list[LockedTable], seats: SeatsByTable, plan: Plan) -> dict[str, Any]:
    """Why the pass leaves the tables outside the threshold, a break or the final table's
    redraw to do: the players per table once its moves are made, the tables that must wait,
    and the hands in progress the rest waits for (their tables are seen again when those
    end), or the locked seats no move may take a player from."""
    counts = {locked.tt.number: len(seats[locked.table.id]) for locked in tables}
    for move in plan.moves:
        counts[move.from_table] -= 1
        counts[move.to_table] += 1
    in_hand = sorted({number for deferred in plan.deferred for number in deferred.blocked_by})
    return {
        "tables": {str(number): n for number, n in sorted(counts.items()) if n},
        "waiting": list(plan.waiting),
        "unbalanced": list(plan.unbalanced),
        "in_hand": in_hand,
        "why": "tables in a hand" if plan.deferred else "locked seats",
    }


def _lift_movers(plan: Plan, by_number: dict[int, LockedTable]) -> dict[int, int]:
    """Lift every moving player from their seat, in the plan's order, a table at a time
    (their seats read afresh: a table locked late in the pass may have ended a hand since
    its seats were first read); returns each player's chips."""
    leaving: dict[int, list[tuple[int, str]]] = defaultdict(list)  # table -> (seat, reason)
    for move in plan.moves:
        leaving[move.from_table].append((move.from_seat, move.reason))
    chips: dict[int, int] = {}
    for number, lifts in leaving.items():
        locked = by_number[number]
        numbers = [seat for seat, _ in lifts]
        seats = {s.number: s for s in Seat.objects.filter(table=locked.table, number__in=numbers)}
        for why, run in groupby(lifts, key=itemgetter(1)):
            chips.update(seats_lift(locked, [seats[n] for n, _ in run], why=why))
    return chips


def _moves_apply(
    tournament: Tournament, plan: Plan, by_number: dict[int, LockedTable], seed: bytes
) -> None:
    chips = _lift_movers(plan, by_number)
    arriving: dict[int, list[Sit]] = defaultdict(list)  # table -> its sits, in the plan's order
    for move in plan.moves:
        arriving[move.to_table].append(
            Sit(move.to_seat, move.player, chips[move.player], move.reason)
        )
    with rows.pipelined():  # every table's arrivals in one round trip
        for number, sits in arriving.items():
            seats_take(by_number[number], sits)
    entries = dict(
        Entry.objects.filter(
            tournament=tournament, status=EntryStatus.PLAYING, player_id__in=list(chips)
        ).values_list("player_id", "id")
    )
    live = tournament.mode == Mode.LIVE
    Move.objects.bulk_create(
        Move(
            tournament=tournament,
            entry_id=entries[move.player],
            from_table=move.from_table,
            from_seat=move.from_seat,
            to_table=move.to_table,
            to_seat=move.to_seat,
            reason=move.reason,
            status=MoveStatus.PENDING if live else MoveStatus.APPLIED,
        )
        for move in plan.moves
    )
    event_append(
        tournament,
        "moves",
        {
            "seed": seed.hex(),
            "moves": [
                {"entry": entries[m.player], "player": m.player, "move": str(m), "reason": m.reason}
                for m in plan.moves
            ],
        },
    )
