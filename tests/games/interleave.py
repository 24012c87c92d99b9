"""Interleavings a busy server can produce between the statements of one read of a table."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from games import rows


def between_the_table_and_its_hand(
    monkeypatch: pytest.MonkeyPatch, meanwhile: Callable[[int], None]
) -> None:
    """Make every read of a table (``rows.table_read``) read the table's row, call
    ``meanwhile(table_id)``, then read the running hand and the seats: the three statements
    travel together, but another transaction may commit between any two of them."""

    whole = rows.table_read

    def read(
        table_id: int, *, lock: bool = False, with_seats: bool = True, with_hand_key: bool = False
    ) -> rows.TableRead | None:
        """(No key reserved: a hand started is inserted at its start.)"""
        table = rows.table(table_id, lock=lock)
        if table is None:
            return None
        meanwhile(table_id)
        later = whole(table_id, with_seats=with_seats)
        assert later is not None
        for row in [later.hand, *later.seats.values()]:
            if row is not None:
                row.table = table
        return rows.TableRead(table, later.hand, later.seats, in_game=later.in_game)

    monkeypatch.setattr(rows, "table_read", read)
