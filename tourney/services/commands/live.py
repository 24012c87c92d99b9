"""Live tournaments: staff report bust-outs and chip counts; moves come back as
instructions to acknowledge (``tourney.services.commands.moves.move_acknowledge``)."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext

from games.errors import Conflict, Invalid, NotFound
from games.models import Seat
from tourney.codes import Code
from tourney.models import Entry, EntryStatus, Mode, Status, Tournament
from tourney.services.steps.chips import chips_check
from tourney.services.steps.eliminations import eliminate
from tourney.services.steps.locks import LockedTable, open_tables_for_update, tournament_for_update
from tourney.services.steps.log import event_append
from tourney.services.update import tournament_refresh


def _live(tournament_id: int) -> Tournament:
    return _live_check(tournament_for_update(tournament_id))


def _live_check(tournament: Tournament) -> Tournament:
    if tournament.mode != Mode.LIVE:
        raise Conflict(
            gettext("online tournaments are dealt by our tables: nothing to report"),
            code=Code.ONLINE,
        )
    if tournament.status not in (Status.RUNNING, Status.PAUSED):
        raise Conflict(
            gettext("the tournament is %(status)s") % {"status": tournament.get_status_display()},
            code=Code.NOT_RUNNING,
        )
    return tournament


def _seat_of(tables: list[LockedTable], entry: Entry) -> tuple[LockedTable, Seat]:
    for locked in tables:
        seat = Seat.objects.filter(table=locked.table, player_id=entry.player_id).first()
        if seat is not None:
            return locked, seat
    raise Conflict(gettext("entry %(id)s has no seat") % {"id": entry.id}, code=Code.NOT_SEATED)


def _playing(tournament: Tournament, entry_ids: list[int]) -> list[Entry]:
    entries = list(tournament.entries.filter(pk__in=entry_ids))
    missing = set(entry_ids) - {entry.id for entry in entries}
    if missing:
        raise NotFound(
            gettext("no entries %(sorted)s in this tournament") % {"sorted": sorted(missing)},
            code=Code.NO_ENTRY,
        )
    gone = [entry.id for entry in entries if entry.status != EntryStatus.PLAYING]
    if gone:
        raise Conflict(
            gettext("entries %(gone)s are not playing") % {"gone": gone}, code=Code.NOT_PLAYING
        )
    return entries


def live_report_busts(*, tournament_id: int, busts: dict[int, int]) -> Tournament:
    """Players out on one hand: entry id -> chips at the start of that hand. They are placed
    by those chips (equal stacks share); then the tables are balanced."""
    with transaction.atomic():
        tournament = _live(tournament_id)
        if any(type(c) is not int or c < 0 for c in busts.values()):
            raise Invalid(gettext("chip counts are non-negative integers"), code=Code.NEGATIVE)
        entries = _playing(tournament, list(busts))
        if len(entries) >= tournament.entries.filter(status=EntryStatus.PLAYING).count():
            raise Invalid(gettext("at least one player must be left"), code=Code.EVERYONE_OUT)
        tables = open_tables_for_update(tournament)
        found = [(*_seat_of(tables, entry), busts[entry.id], None) for entry in entries]
        eliminate(tournament, found)
        tournament_refresh(tournament)
        return tournament


def live_report_chips(*, tournament_id: int, counts: dict[int, int]) -> Tournament:
    """Chip counts staff took at the tables: entry id -> chips (a positive integer), logged
    (``chip_count``). Once every player left has been counted since the last bust, the count
    is checked against the chips in play (``chips_check``). After the last bust the winner's
    closing count is taken, alone, and checked against every chip in play."""
    with transaction.atomic():
        tournament = tournament_for_update(tournament_id)
        closing = tournament.mode == Mode.LIVE and tournament.status == Status.FINISHED
        if not closing:
            _live_check(tournament)
        if any(type(c) is not int or c <= 0 for c in counts.values()):
            raise Invalid(
                gettext("chip counts are positive integers (report a bust-out for 0)"),
                code=Code.NEGATIVE,
            )
        if closing:
            _winner_count(tournament, counts)
        else:
            entries = _playing(tournament, list(counts))
            tables = open_tables_for_update(tournament)
            for entry in entries:
                _, seat = _seat_of(tables, entry)
                Seat.objects.filter(pk=seat.pk).update(stack=counts[entry.id])
        _count_log(tournament, counts)
        if not closing:
            tournament_refresh(tournament)
        return tournament


def _winner_count(tournament: Tournament, counts: dict[int, int]) -> None:
    """The winner's closing count, written to their seat (its table closed at the end)."""
    winner = tournament.entries.get(status=EntryStatus.WINNER)
    if set(counts) != {winner.id}:
        raise Conflict(
            f"the tournament is finished: report only the winner's closing count (entry "
            f"{winner.id})",
            code=Code.NOT_RUNNING,
        )
    seats = Seat.objects.filter(
        table__tournament_table__tournament=tournament, player_id=winner.player_id
    )
    seats.update(stack=counts[winner.id])


def _count_log(tournament: Tournament, counts: dict[int, int]) -> None:
    lines = [{"entry": entry, "chips": chips} for entry, chips in sorted(counts.items())]
    event_append(tournament, "chip_count", {"counts": lines})
    chips_check(tournament)
