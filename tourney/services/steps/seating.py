"""Tournament tables and seats: opening tables, seating and lifting players, the planner's
view of the tables.

Chips live on ``games.Seat.stack``; every change here is made under the table's lock
(taken by ``open_tables_for_update``) and logged in the table's own event log.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import NamedTuple

from django.db.models import Max

from games import rows
from games.locks import table_for_update
from games.models import HoldReason, Seat, TableStatus
from games.services.table_writes import TableWrites
from games.services.tables import table_create, table_set_status
from tourney.models import Mode, Tournament, TournamentTable
from tourney.planning.balancing import TableState
from tourney.planning.levels import playing_level
from tourney.selectors import schedule_entries
from tourney.services.steps.locks import LockedTable


def table_open(tournament: Tournament) -> LockedTable:
    """Open the tournament's next table (numbered after the highest so far), locked."""
    number = (tournament.tables.aggregate(n=Max("number"))["n"] or 0) + 1
    level = playing_level(schedule_entries(tournament.schedule_id), tournament.level_index)
    table = table_create(
        name=f"{tournament.name} - table {number}",
        variant=level.game,
        ante=level.ante,
        bring_in=level.bring_in,
        small_bet=level.small_bet,
        big_bet=level.big_bet,
        chip_unit=tournament.unit_in_play,
        seat_count=tournament.table_size,
        kind="tournament",
        club_id=tournament.club_id,
        pause_ms=tournament.pause_ms,
        action_seconds=tournament.action_seconds,
        hold_reason=HoldReason.LIVE if tournament.mode == Mode.LIVE else HoldReason.NONE,
    )
    tt = TournamentTable.objects.create(tournament=tournament, table=table, number=number)
    table = table_for_update(table.id)
    tt.table = table
    return LockedTable(tt, table, in_hand=False)


def table_close(locked: LockedTable) -> None:
    """Close an empty table (no hand in progress)."""
    table_set_status(table_id=locked.table.id, status=TableStatus.CLOSED)
    locked.table.status = TableStatus.CLOSED


class SeatRow(NamedTuple):
    """An occupied seat as the update pass reads it: its values, not a model instance (the
    pass reads every seat of the tournament; at 1,000 players as instances in 7.3-8.3 ms,
    as these in 2.7-3.0)."""

    pk: int
    table_id: int
    number: int
    player_id: int
    stack: int


SeatsByTable = dict[int, dict[int, SeatRow]]
"""Occupied seats by table id, then seat number."""

OccupiedSeat = Seat | SeatRow
"""A seat with a player: as the update pass reads it, or as a director's command does."""


def seats_by_table(tables: list[LockedTable]) -> SeatsByTable:
    """Occupied seats of each table, by table id then seat number."""
    seats: SeatsByTable = {locked.table.id: {} for locked in tables}
    occupied = Seat.objects.filter(table_id__in=list(seats), player__isnull=False)
    for values in occupied.values_list(*SeatRow._fields):
        seat = SeatRow._make(values)
        seats[seat.table_id][seat.number] = seat
    return seats


def table_states(
    tables: list[LockedTable],
    seats: SeatsByTable,
    locked_players: Collection[int] = (),
) -> list[TableState]:
    """The tables as the balancing planner sees them (players by player id); the seats of
    ``locked_players`` are locked (balancing does not move them)."""
    return [
        TableState(
            number=locked.tt.number,
            capacity=locked.table.seat_count,
            seats={number: seat.player_id for number, seat in seats[locked.table.id].items()},
            in_hand=locked.in_hand,
            breaking=locked.tt.breaking,
            locked=frozenset(
                number
                for number, seat in seats[locked.table.id].items()
                if seat.player_id in locked_players
            ),
        )
        for locked in tables
    ]


def seat_take(locked: LockedTable, *, number: int, player_id: int, stack: int, why: str) -> None:
    """Put a player with ``stack`` chips in an empty seat of a locked table."""
    seats_take(locked, [Sit(number, player_id, stack, why)])


class Sit(NamedTuple):
    """A player sitting down in an empty seat with their chips, and why."""

    seat: int
    player: int
    stack: int
    why: str


def seats_take(locked: LockedTable, sits: list[Sit]) -> None:
    """Seat players in empty seats of a locked table, in order, in one statement, their sits
    logged in one write; nothing is read back (see ``seats_lift``)."""
    taken = [
        Seat(table_id=locked.table.id, number=sit.seat, player_id=sit.player, stack=sit.stack)
        for sit in sits
    ]
    rows.update_each(taken, SEAT_TAKEN, by=("table", "number"))
    writes = TableWrites(locked.table)
    for sit in sits:
        writes.event("sit", sit._asdict())
    writes.flush()


SEAT_TAKEN = ("player", "stack", "sitting_out", "leaving")
"""What a player sitting down sets (their id and chips, present and staying), and a player
leaving clears."""


def seat_lift(locked: LockedTable, *, number: int, why: str) -> int:
    """Empty a seat of a locked table; returns the chips the player had."""
    seat = Seat.objects.get(table=locked.table, number=number)
    return seats_lift(locked, [seat], why=why)[seat.player_id]


def seats_lift(locked: LockedTable, seats: Sequence[OccupiedSeat], *, why: str) -> dict[int, int]:
    """Empty ``seats`` (read under the lock) of a locked table, logging each player's leave,
    in three statements however many, which read nothing back (they may be sent with
    others', ``games.rows.pipelined``); returns the chips each player (by id) had."""
    writes = TableWrites(locked.table)
    for seat in seats:
        lifted = {"seat": seat.number, "player": seat.player_id, "stack": seat.stack, "why": why}
        writes.event("leave", lifted)
    writes.flush()
    rows.update_each([Seat(pk=seat.pk) for seat in seats], SEAT_TAKEN)  # empty, as new
    return {seat.player_id: seat.stack for seat in seats if seat.player_id is not None}
