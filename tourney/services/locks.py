"""Row locks of the tournament side, always in one order: tournament > tables by id.

On SQLite ``select_for_update`` is a no-op, but writers are serialized anyway (immediate
transactions, see settings).
"""

from __future__ import annotations

from dataclasses import dataclass

from games.errors import NotFound
from games.locks import table_for_update
from games.models import Table, TableStatus
from games.services.hands import running_hand
from tourney.models import Tournament, TournamentTable


@dataclass
class LockedTable:
    """A tournament table under its row lock, with whether a hand is in progress."""

    tt: TournamentTable
    table: Table
    in_hand: bool


def tournament_for_update(tournament_id: int) -> Tournament:
    """Lock and return the tournament row (inside ``transaction.atomic``); 404 if none."""
    tournament = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
    if tournament is None:
        raise NotFound(f"no tournament {tournament_id}", code="no_tournament")
    return tournament


def open_tables_for_update(tournament: Tournament) -> list[LockedTable]:
    """Lock the tournament's open tables in table id order (after the tournament row)."""
    rows = (
        TournamentTable.objects.filter(tournament=tournament)
        .exclude(table__status=TableStatus.CLOSED)
        .order_by("table_id")
    )
    locked = []
    for tt in rows:
        table = table_for_update(tt.table_id)
        tt.table = table
        locked.append(LockedTable(tt, table, running_hand(table) is not None))
    return locked
