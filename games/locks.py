"""Row locks, always taken in one order: tournament > game > table > hand > seat.

A table's hands, seats and events change only under its table lock, so locking the table row
is what serializes all play at that table, whichever worker or web process does it. On SQLite
``select_for_update`` is a no-op, but SQLite serializes writers anyway (immediate
transactions, see settings).
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from games import rows
from games.errors import NotFound
from games.models import Game, Table


def table_for_update(table_id: int) -> Table:
    """Lock and return the table row (inside ``transaction.atomic``; SQL built once)."""
    table = rows.table(table_id, lock=True)
    if table is None:
        raise no_table(table_id)
    return table


def table_read_for_update(
    table_id: int, *, with_seats: bool = True, with_hand_key: bool = False
) -> rows.TableRead:
    """Lock the table row and read it with its running hand and (``with_seats``) its seats,
    in one round trip (``games.rows.table_read``, which tells of ``with_hand_key`` too)."""
    read = rows.table_read(table_id, lock=True, with_seats=with_seats, with_hand_key=with_hand_key)
    if read is None:
        raise no_table(table_id)
    return read


def no_table(table_id: int) -> NotFound:
    """The error of a table id that finds no table."""
    return NotFound(
        _("no table %(table_id)s: list the tables at /api/v1/tables/") % {"table_id": table_id}
    )


def game_for_update(game_id: int) -> Game:
    """Lock and return a ring game's row: every floor change to the game's list, offers and
    tables is made under it, before its tables' locks (game > table)."""
    game = Game.objects.select_for_update().filter(pk=game_id).first()
    if game is None:
        raise NotFound(
            _("no game %(game_id)s: list the games at /api/v1/games/") % {"game_id": game_id}
        )
    return game
