"""What every director's control needs: the running tournament under its lock, an entry's
seat, a table by its number, and the chip unit in play. Each refusal says what to do."""

from __future__ import annotations

from games.errors import Conflict, Invalid, NotFound
from games.models import Seat, TableStatus
from tourney.codes import Code
from tourney.models import Entry, EntryStatus, Mode, Status, Tournament
from tourney.services.steps.locks import LockedTable, tournament_for_update


def running_for_update(tournament_id: int) -> Tournament:
    """The tournament, locked; 409 unless it is running or paused."""
    tournament = tournament_for_update(tournament_id)
    if tournament.status not in (Status.RUNNING, Status.PAUSED):
        hint = "start it first" if tournament.status == Status.REGISTERING else "it is over"
        raise Conflict(
            f"the tournament is {tournament.status}: this is for a tournament in play ({hint})",
            code=Code.NOT_RUNNING,
        )
    return tournament


def entry_of(tournament: Tournament, entry_id: int) -> Entry:
    """The tournament's entry, or a 404."""
    entry = tournament.entries.filter(pk=entry_id).first()
    if entry is None:
        raise NotFound(
            f"no entry {entry_id} in this tournament: see its leaderboard or results",
            code=Code.NO_ENTRY,
        )
    return entry


def playing_entry(tournament: Tournament, entry_id: int) -> Entry:
    """The tournament's entry still playing; 404 if none, 409 if it is not playing."""
    entry = entry_of(tournament, entry_id)
    if entry.status != EntryStatus.PLAYING:
        raise Conflict(f"entry {entry_id} is {entry.status}, not playing", code=Code.NOT_PLAYING)
    return entry


def seat_of(tables: list[LockedTable], entry: Entry) -> tuple[LockedTable, Seat]:
    """The open table and seat of a playing entry."""
    for locked in tables:
        seat = Seat.objects.filter(table=locked.table, player_id=entry.player_id).first()
        if seat is not None:
            return locked, seat
    raise Conflict(f"entry {entry.id} has no seat", code=Code.NOT_SEATED)


def table_numbered(tournament: Tournament, tables: list[LockedTable], number: int) -> LockedTable:
    """An open table, not being broken, by its number in the tournament."""
    locked = next((t for t in tables if t.tt.number == number), None)
    if locked is None:
        if tournament.tables.filter(number=number).exists():
            raise Conflict(
                f"table {number} was broken: choose an open table (see tables/)",
                code=Code.TABLE_BROKEN,
            )
        raise NotFound(
            f"no table {number} in this tournament: see tables/ for the open ones",
            code=Code.NO_TABLE,
        )
    if locked.tt.breaking or locked.table.status == TableStatus.CLOSED:
        raise Conflict(
            f"table {number} is being broken: choose another table", code=Code.TABLE_BREAKING
        )
    return locked


def seat_number_check(locked: LockedTable, seat: int) -> None:
    """400 unless ``seat`` is one of the table's seats."""
    if not 1 <= seat <= locked.table.seat_count:
        raise Invalid(
            f"table {locked.tt.number} has seats 1 to {locked.table.seat_count}, not {seat}",
            code=Code.NO_SEAT,
        )


def between_hands(tournament: Tournament, *tables: LockedTable) -> None:
    """409 while one of ``tables`` deals a hand (online): chips and seats change only
    between hands."""
    if tournament.mode != Mode.ONLINE:
        return
    busy = sorted({locked.tt.number for locked in tables if locked.in_hand})
    if busy:
        raise Conflict(
            f"a hand is in progress at table {', '.join(map(str, busy))}: try again when it "
            "ends (pause the tournament to hold every table after its hand)",
            code=Code.IN_HAND,
        )
