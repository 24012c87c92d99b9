"""Interleavings a busy server can produce between the statements of one read of a table."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import pytest

from games import rows


def between_the_table_and_its_hand(
    monkeypatch: pytest.MonkeyPatch, meanwhile: Callable[[int], None]
) -> None:
    """Make every read of a table (``rows.table_rows``, under ``rows.table_read`` and a
    poll's version) read the table's row, call ``meanwhile(table_id)``, then read the running
    hand and the seats: the three statements travel together, but another transaction may
    commit between any two of them."""

    whole = rows.table_rows

    def read(
        table_id: int, *, lock: bool = False, with_seats: bool = True, with_hand_key: bool = False
    ) -> rows.TableRows | None:
        """(No key reserved: a hand started is inserted at its start.)"""
        first = whole(table_id, lock=lock, with_seats=False)
        if first is None:
            return None
        meanwhile(table_id)
        later = whole(table_id, with_seats=with_seats)
        assert later is not None
        return replace(later, table=first.table, in_game=first.in_game)

    monkeypatch.setattr(rows, "table_rows", read)
