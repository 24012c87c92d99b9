"""The director's floor: move a player to a named table and seat, swap two players, lock a
seat, and seat a late entrant where the director says.

Seats change only between hands (online; live, the seating chart changes at once and a move
stays pending until staff acknowledge it, like a balancing move). After every change the
update pass runs, so balancing takes the new seating into account: a manual move that
unbalances the tables is followed by the moves that balance them (lock the seat to keep a
player where the director put them). Everything is logged in the tournament's event log.
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext

from games.errors import Conflict, Invalid
from games.models import Seat
from tourney.codes import Code
from tourney.models import Entry, Mode, Move, MoveStatus, Tournament
from tourney.services.commands.director_lookup import (
    between_hands,
    playing_entry,
    running_for_update,
    seat_number_check,
    seat_of,
    table_numbered,
)
from tourney.services.commands.registration import entry_register
from tourney.services.steps.locks import LockedTable, open_tables_for_update
from tourney.services.steps.log import event_append
from tourney.services.steps.seating import seat_lift, seat_take
from tourney.services.update import tournament_refresh


def _move_record(
    tournament: Tournament,
    entry: Entry,
    source: tuple[int, int],
    target: tuple[int, int],
    reason: str,
) -> Move:
    live = tournament.mode == Mode.LIVE
    return Move.objects.create(
        tournament=tournament,
        entry=entry,
        from_table=source[0],
        from_seat=source[1],
        to_table=target[0],
        to_seat=target[1],
        reason=reason,
        status=MoveStatus.PENDING if live else MoveStatus.APPLIED,
    )


def _free_seat(locked: LockedTable, seat: int) -> None:
    seat_number_check(locked, seat)
    taken = Seat.objects.filter(table=locked.table, number=seat, player__isnull=False).first()
    if taken is not None:
        raise Conflict(
            gettext("table %(number)s seat %(seat)s is taken: swap the two players instead")
            % {"number": locked.tt.number, "seat": seat},
            code=Code.SEAT_TAKEN,
        )


def _relocate(
    tournament: Tournament,
    entry: Entry,
    source: tuple[LockedTable, Seat],
    target: tuple[LockedTable, int],
    reason: str,
) -> Move:
    chips = seat_lift(source[0], number=source[1].number, why=reason)
    seat_take(target[0], number=target[1], player_id=entry.player_id, stack=chips, why=reason)
    return _move_record(
        tournament,
        entry,
        (source[0].tt.number, source[1].number),
        (target[0].tt.number, target[1]),
        reason,
    )


def floor_move(*, tournament_id: int, entry_id: int, table: int, seat: int) -> Move:
    """Move a playing entry to an empty seat of an open table, between hands."""
    with transaction.atomic():
        tournament = running_for_update(tournament_id)
        entry = playing_entry(tournament, entry_id)
        tables = open_tables_for_update(tournament)
        source = seat_of(tables, entry)
        target = table_numbered(tournament, tables, table)
        if (source[0].tt.number, source[1].number) == (table, seat):
            raise Invalid(
                gettext("entry %(entry_id)s already sits at table %(table)s seat %(seat)s")
                % {"entry_id": entry_id, "table": table, "seat": seat}
            )
        _free_seat(target, seat)
        between_hands(tournament, source[0], target)
        move = _relocate(tournament, entry, source, (target, seat), "director")
        event_append(
            tournament,
            "director_move",
            {"entry": entry.id, "player": entry.player_id, "move": str(move), "id": move.id},
        )
        tournament_refresh(tournament)
        return move


def floor_swap(*, tournament_id: int, entry_ids: tuple[int, int]) -> list[Move]:
    """Swap the seats of two playing entries (their chips go with them), between hands."""
    if entry_ids[0] == entry_ids[1]:
        raise Invalid(gettext("name two different entries to swap"), code=Code.SAME_ENTRY)
    with transaction.atomic():
        tournament = running_for_update(tournament_id)
        entries = [playing_entry(tournament, entry_id) for entry_id in entry_ids]
        tables = open_tables_for_update(tournament)
        places = [seat_of(tables, entry) for entry in entries]
        between_hands(tournament, *(locked for locked, _ in places))
        chips = [seat_lift(locked, number=seat.number, why="swap") for locked, seat in places]
        moves = []
        for entry, (locked, seat), stack, source in zip(
            entries, reversed(places), chips, places, strict=True
        ):
            seat_take(
                locked, number=seat.number, player_id=entry.player_id, stack=stack, why="swap"
            )
            moves.append(
                _move_record(
                    tournament,
                    entry,
                    (source[0].tt.number, source[1].number),
                    (locked.tt.number, seat.number),
                    "swap",
                )
            )
        event_append(
            tournament,
            "director_swap",
            {"entries": [e.id for e in entries], "moves": [str(m) for m in moves]},
        )
        tournament_refresh(tournament)
        return moves


def floor_lock(*, tournament_id: int, entry_id: int, locked: bool) -> Entry:
    """Lock (or unlock) a playing entry's seat: balancing never moves a locked player; only
    breaking their table does."""
    with transaction.atomic():
        tournament = running_for_update(tournament_id)
        entry = playing_entry(tournament, entry_id)
        if entry.seat_locked == locked:
            state = "locked" if locked else "not locked"
            raise Conflict(
                gettext("entry %(entry_id)s's seat is already %(state)s")
                % {"entry_id": entry_id, "state": state},
                code=Code.UNCHANGED,
            )
        entry.seat_locked = locked
        entry.save(update_fields=["seat_locked"])
        event_append(tournament, "seat_lock", {"entry": entry.id, "locked": locked})
        tournament_refresh(tournament)
        return entry


def floor_late_entry(*, tournament_id: int, player_id: int, table: int, seat: int) -> Entry:
    """Register a late entrant (while late registration is open) and seat them at ``table``
    ``seat`` (an empty seat of an open table, between hands)."""
    with transaction.atomic():
        tournament = running_for_update(tournament_id)
        tables = open_tables_for_update(tournament)
        target = table_numbered(tournament, tables, table)
        _free_seat(target, seat)
        between_hands(tournament, target)
        entry = entry_register(tournament_id=tournament_id, player_id=player_id)
        tournament.refresh_from_db()  # registration changed the pool and the log
        tables = open_tables_for_update(tournament)
        source = seat_of(tables, entry)
        target = table_numbered(tournament, tables, table)
        if (source[0].tt.number, source[1].number) != (table, seat):
            # registration seated them by the draw; the director's seat replaces it (no
            # move instruction: the player was never at the drawn seat)
            _free_seat(target, seat)  # balancing may just have filled it
            chips = seat_lift(source[0], number=source[1].number, why="director's seat")
            seat_take(target, number=seat, player_id=player_id, stack=chips, why="late entry")
        event_append(
            tournament,
            "late_entry",
            {"entry": entry.id, "player": player_id, "table": table, "seat": seat},
        )
        tournament_refresh(tournament)
        return entry
