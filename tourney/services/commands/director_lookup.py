"""What every director's control needs: the running tournament under its lock, an entry's
seat, a table by its number, and the chip unit in play. Each refusal says what to do."""

from __future__ import annotations

from django.utils.translation import gettext as _

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
            _("the tournament is %(status)s: this is for a tournament in play (%(hint)s)")
            % {"status": tournament.get_status_display(), "hint": hint},
            code=Code.NOT_RUNNING,
        )
    return tournament


def entry_of(tournament: Tournament, entry_id: int) -> Entry:
    """The tournament's entry, or a 404."""
    entry = tournament.entries.filter(pk=entry_id).first()
    if entry is None:
        raise NotFound(
            _("no entry %(entry_id)s in this tournament: see its leaderboard or results")
            % {"entry_id": entry_id},
            code=Code.NO_ENTRY,
        )
    return entry


def playing_entry(tournament: Tournament, entry_id: int) -> Entry:
    """The tournament's entry still playing; 404 if none, 409 if it is not playing."""
    entry = entry_of(tournament, entry_id)
    if entry.status != EntryStatus.PLAYING:
        raise Conflict(
            _("entry %(entry_id)s is %(status)s, not playing")
            % {"entry_id": entry_id, "status": entry.status},
            code=Code.NOT_PLAYING,
        )
    return entry


def seat_of(tables: list[LockedTable], entry: Entry) -> tuple[LockedTable, Seat]:
    """The open table and seat of a playing entry."""
    for locked in tables:
        seat = Seat.objects.filter(table=locked.table, player_id=entry.player_id).first()
        if seat is not None:
            return locked, seat
    raise Conflict(_("entry %(id)s has no seat") % {"id": entry.id}, code=Code.NOT_SEATED)


def table_numbered(tournament: Tournament, tables: list[LockedTable], number: int) -> LockedTable:
    """An open table, not being broken, by its number in the tournament."""
    locked = next((t for t in tables if t.tt.number == number), None)
    if locked is None:
        if tournament.tables.filter(number=number).exists():
            raise Conflict(
                _("table %(number)s was broken: choose an open table (see tables/)")
                % {"number": number},
                code=Code.TABLE_BROKEN,
            )
        raise NotFound(
            _("no table %(number)s in this tournament: see tables/ for the open ones")
            % {"number": number},
            code=Code.NO_TABLE,
        )
    if locked.tt.breaking or locked.table.status == TableStatus.CLOSED:
        raise Conflict(
            _("table %(number)s is being broken: choose another table") % {"number": number},
            code=Code.TABLE_BREAKING,
        )
    return locked


def seat_number_check(locked: LockedTable, seat: int) -> None:
    """400 unless ``seat`` is one of the table's seats."""
    if not 1 <= seat <= locked.table.seat_count:
        raise Invalid(
            _("table %(number)s has seats 1 to %(seat_count)s, not %(seat)s")
            % {"number": locked.tt.number, "seat_count": locked.table.seat_count, "seat": seat},
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
            _(
                "a hand is in progress at table %(names)s: try again when it ends "
                "(pause the tournament to hold every table after its hand)"
            )
            % {"names": ", ".join(map(str, busy))},
            code=Code.IN_HAND,
        )
