"""Row locks of the tournament side, always in one order: tournament > tables by id.

On SQLite ``select_for_update`` is a no-op, but writers are serialized anyway (immediate
transactions, see settings).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Q
from django.utils.translation import gettext as _

from games.errors import NotFound
from games.models import Hand, HandStatus, HoldReason, Seat, Table, TableStatus
from tourney.codes import Code
from tourney.models import Tournament, TournamentTable


@dataclass
class LockedTable:
    """A tournament table under its row lock, with whether a hand is in progress.

    A ``busy`` table is one whose lock another transaction holds (its hand being played):
    read without the lock, counted as in a hand, never written; ``look`` is set when the
    update pass left something to do at it, to see it again after that hand."""

    tt: TournamentTable
    table: Table
    in_hand: bool
    busy: bool = False
    look: bool = False


def tournament_for_update(tournament_id: int) -> Tournament:
    """Lock and return the tournament row (inside ``transaction.atomic``); 404 if none."""
    tournament = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
    if tournament is None:
        raise NotFound(
            _("no tournament %(tournament_id)s") % {"tournament_id": tournament_id},
            code=Code.NO_TOURNAMENT,
        )
    return tournament


def tournament_for_update_unless_busy(tournament_id: int) -> Tournament | None:
    """Lock and return the tournament row, or None at once if another transaction holds it
    (never waiting for it); 404 if none."""
    tournament = (
        Tournament.objects.select_for_update(skip_locked=True).filter(pk=tournament_id).first()
    )
    if tournament is None and not Tournament.objects.filter(pk=tournament_id).exists():
        raise NotFound(
            _("no tournament %(tournament_id)s") % {"tournament_id": tournament_id},
            code=Code.NO_TOURNAMENT,
        )
    return tournament


def open_tables_for_update(
    tournament: Tournament, *, skip_busy: bool = False, held_only: bool = False
) -> list[LockedTable]:
    """Lock the tournament's open tables in table id order (after the tournament row).

    Three queries whatever the number of tables: one locks the table rows (in id order, the
    order every other path locks them in), one finds the hands in progress, one reads the
    ``busy`` tables: with ``skip_busy``, the tables locked by another transaction (a hand
    being played) are not waited for but read as they were last committed. ``held_only``
    (with ``skip_busy``): only the tables waiting for the tournament are locked (held, or
    with a player without chips to eliminate); the others are dealing, or between two hands
    of their own, and are read as ``busy`` too.
    """
    rows = list(
        TournamentTable.objects.filter(tournament=tournament)
        .exclude(table__status=TableStatus.CLOSED)
        .order_by("table_id")
    )
    ids = [tt.table_id for tt in rows]
    lock = Table.objects.select_for_update(skip_locked=skip_busy).filter(pk__in=ids)
    if held_only:
        without_chips = Seat.objects.filter(table_id__in=ids, player__isnull=False, stack=0)
        lock = lock.filter(
            ~Q(hold_reason=HoldReason.NONE) | Q(pk__in=without_chips.values("table_id"))
        )
    tables = {t.id: t for t in lock.order_by("pk")}
    busy = set(ids) - set(tables)
    if busy:
        tables.update({t.id: t for t in Table.objects.filter(pk__in=busy)})
    playing = set(
        Hand.objects.filter(table_id__in=ids, status=HandStatus.RUNNING).values_list(
            "table_id", flat=True
        )
    )
    locked = []
    for tt in rows:
        tt.table = tables[tt.table_id]
        in_hand = tt.table_id in playing or tt.table_id in busy
        locked.append(LockedTable(tt, tt.table, in_hand, busy=tt.table_id in busy))
    return locked


def busy_tables_for_update(tables: list[LockedTable], *, wait: bool) -> bool:
    """Lock these ``busy`` tables and read them afresh: they become ordinary locked tables,
    in a hand or not. Returns whether any did.

    ``wait``: wait for the transaction playing a table's hand (a few milliseconds; that
    transaction never waits for the tournament), else skip the tables another holds.

    Not a table with a player without chips: its hand ended after this pass looked for busts,
    and its seats are not as the pass read them (that player is eliminated by the next pass,
    which that table is now held for, and must not be moved before); read after the lock,
    when that hand's end is committed."""
    if not tables:
        return False
    ids = [locked.table.id for locked in tables]
    lock = Table.objects.select_for_update(skip_locked=not wait).filter(pk__in=ids).order_by("pk")
    got = {table.id: table for table in lock}
    without_chips = Seat.objects.filter(table_id__in=list(got), player__isnull=False, stack=0)
    for table_id in set(without_chips.values_list("table_id", flat=True)):
        del got[table_id]
    playing = set(
        Hand.objects.filter(table_id__in=list(got), status=HandStatus.RUNNING).values_list(
            "table_id", flat=True
        )
    )
    for locked in tables:
        table = got.get(locked.table.id)
        if table is not None:
            locked.tt.table = locked.table = table
            locked.busy = False
            locked.in_hand = table.id in playing
    return bool(got)


def busy_tables_wait_for_update(tables: list[LockedTable]) -> list[LockedTable]:
    """Wait for the locks of the ``busy`` ones of these tables (the transactions holding
    them commit) and read them afresh (``busy_tables_for_update``); returns those that are
    now ordinary locked tables. A table with a player without chips stays busy: the next
    pass eliminates that player (the table held itself after its hand)."""
    busy = [locked for locked in tables if locked.busy]
    busy_tables_for_update(busy, wait=True)
    return [locked for locked in busy if not locked.busy]
