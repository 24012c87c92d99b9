"""Row locks, always taken in one order: tournament > table > hand > seat.

A table's hands, seats and events change only under its table lock, so locking the table row
is what serializes all play at that table, whichever worker or web process does it. On SQLite
``select_for_update`` is a no-op, but SQLite serializes writers anyway (immediate
transactions, see settings).
"""

from __future__ import annotations

from games.errors import NotFound
from games.models import Table


def table_for_update(table_id: int) -> Table:
    """Lock and return the table row (inside ``transaction.atomic``)."""
    table = Table.objects.select_for_update().filter(pk=table_id).first()
    if table is None:
        raise NotFound(f"no table {table_id}: list the tables at /api/v1/tables/")
    return table
