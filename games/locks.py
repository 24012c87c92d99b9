"""Row locks, always taken in one order: tournament > game > table > hand > seat.

A table's hands, seats and events change only under its table lock, so locking the table row
is what serializes all play at that table, whichever worker or web process does it. On SQLite
``select_for_update`` is a no-op, but SQLite serializes writers anyway (immediate
transactions, see settings).
"""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

from django.db import connection, transaction

from games import rows
from games.errors import NotFound
from games.models import Game, Hand, HandStatus, Table


def table_for_update(table_id: int) -> Table:
    """Lock and return the table row (inside ``transaction.atomic``)."""
    table = Table.objects.select_for_update().filter(pk=table_id).first()
    if table is None:
        raise NotFound(f"no table {table_id}: list the tables at /api/v1/tables/")
    return table


def table_and_hand_for_update(table_id: int) -> tuple[Table, Hand | None]:
    """Lock the table row, then read its running hand (or None), inside ``transaction.atomic``:
    what every advance and decision starts with, in two statements built once (``rows``).

    The hand is read by a statement of its own, after the lock is granted: a statement that
    waited for the lock sees the table's row as the last holder left it, but any other row as
    it was when the statement began, so a join would miss the hand that holder started."""
    if connection.get_autocommit():  # as the ORM's select_for_update refuses
        raise transaction.TransactionManagementError("lock the table inside transaction.atomic")
    table_columns = rows.columns(Table, "t", connection.vendor)
    found = rows.select(_sql(connection.vendor).table, [table_id])
    if not found:
        raise NotFound(f"no table {table_id}: list the tables at /api/v1/tables/")
    table = table_columns.build(found[0])
    running = rows.select(_sql(connection.vendor).hand, [table_id, HandStatus.RUNNING])
    if not running:
        return table, None
    hand = rows.columns(Hand, "h", connection.vendor).build(running[0])
    hand.table = table
    return table, hand


class _Statements(NamedTuple):
    table: str
    hand: str


@cache
def _sql(vendor: str) -> _Statements:
    quote = connection.ops.quote_name
    # SQLite has no row locks: its writers are serialized by the immediate transaction
    lock = " FOR UPDATE" if connection.features.has_select_for_update else ""
    hand = Hand._meta
    return _Statements(
        table=(
            f"SELECT {rows.columns(Table, 't', vendor).sql} FROM {quote(Table._meta.db_table)} t "
            f"WHERE t.{quote(Table._meta.pk.column)} = %s{lock}"
        ),
        hand=(
            f"SELECT {rows.columns(Hand, 'h', vendor).sql} FROM {quote(hand.db_table)} h "
            f"WHERE h.{quote(hand.get_field('table').column)} = %s "
            f"AND h.{quote(hand.get_field('status').column)} = %s"
        ),
    )


def game_for_update(game_id: int) -> Game:
    """Lock and return a ring game's row: every floor change to the game's list, offers and
    tables is made under it, before its tables' locks (game > table)."""
    game = Game.objects.select_for_update().filter(pk=game_id).first()
    if game is None:
        raise NotFound(f"no game {game_id}: list the games at /api/v1/games/")
    return game
