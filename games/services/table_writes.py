"""What one transaction at a table writes, collected and written in a few statements.

Playing a hand changes the table row, the running hand's row, the seats and the log many
times within one transaction under the table lock; nothing of it is visible to anyone else
before commit, so writing each change when it is made costs round trips and buys nothing.
``TableWrites`` keeps the changes and ``flush()`` writes them: a hand started in the
transaction in one INSERT as it stands by then (its key reserved, ``rows.table_read``), every
new event in one INSERT
(seq order), the table's changed fields in one UPDATE (its ``seq`` with them), the hand's
changed fields in one UPDATE and the seats whose stack changed in one UPDATE (the two
UPDATEs of rows with SQL built once, ``games.rows``).

The events (and the stacks) go to the database as one JSON array that the database unpacks
into rows (``jsonb_array_elements`` on PostgreSQL, ``json_each`` on SQLite): a hand writes a
hundred events or more, and building a model instance and quoting five values for each cost
the worker more than the rest of the hand (``bulk_update``'s CASE per seat was the next most
costly statement).

Whoever reads the table's rows or log in the same transaction (a ``hand_finished`` receiver)
must come after ``flush()``.
"""

from __future__ import annotations

import json
from typing import Any

from django.db import connection
from django.utils import timezone

from games import rows
from games.engine.state import HandState
from games.models import Hand, Seat, Table, TableEvent

_UNPACK = {
    "postgresql": (
        "SELECT %s, %s + e.n, (e.v->>0)::bigint, e.v->>1, e.v->2, %s "
        "FROM jsonb_array_elements(%s::jsonb) WITH ORDINALITY AS e(v, n)"
    ),
    "sqlite": (
        "SELECT %s, %s + e.key + 1, json_extract(e.value, '$[0]'), "
        "json_extract(e.value, '$[1]'), json_extract(e.value, '$[2]'), %s FROM json_each(%s) AS e"
    ),
}
"""Rows (table, seq, hand, kind, data, created_at) from a JSON array of [hand, kind, data]."""

_SET_STACKS = {
    "postgresql": (
        "UPDATE {seat} AS s SET {stack} = (e.v->>1)::bigint "
        "FROM jsonb_array_elements(%s::jsonb) AS e(v) WHERE s.{id} = (e.v->>0)::bigint"
    ),
    "sqlite": (
        "UPDATE {seat} SET {stack} = json_extract(e.value, '$[1]') FROM json_each(%s) AS e "
        "WHERE {seat}.{id} = json_extract(e.value, '$[0]')"
    ),
}
"""Seats' stacks from a JSON array of [seat id, stack]."""


def _insert_events(table_id: int, after: int, events: list[list[Any]]) -> None:
    """Insert ``events`` ([hand id or None, kind, data] each) with seqs from ``after + 1``."""
    meta = TableEvent._meta
    columns = ", ".join(
        meta.get_field(name).column
        for name in ("table", "seq", "hand", "kind", "data", "created_at")
    )
    created_at = connection.ops.adapt_datetimefield_value(timezone.now())
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {meta.db_table} ({columns}) {_UNPACK[connection.vendor]}",
            [table_id, after, created_at, json.dumps(events)],
        )


def _set_stacks(stacks: list[list[int]]) -> None:
    """Set each seat's stack (``[seat id, stack]`` each) in one statement."""
    meta = Seat._meta
    sql = _SET_STACKS[connection.vendor].format(
        seat=meta.db_table, stack=meta.get_field("stack").column, id=meta.pk.column
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [json.dumps(stacks)])


class TableWrites:
    """The pending writes of one transaction at ``table`` (whose row lock it holds)."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self._events: list[list[Any]] = []  # [hand id or None, kind, data]
        self._table_fields: set[str] = set()
        self._hand: Hand | None = None
        self._hand_new = False
        self._hand_fields: set[str] = set()
        self._seats: dict[int, Seat] = {}

    def event(self, kind: str, data: dict[str, Any], hand: Hand | None = None) -> int:
        """Append one event to the table's log; returns its seq."""
        self.table.seq += 1
        self._events.append([hand.pk if hand is not None else None, kind, data])
        return self.table.seq

    def engine_events(self, hand: Hand, state: HandState, start: int) -> None:
        """Append the engine's events ``state.log[start:]``."""
        for entry in state.log[start:]:
            self.event(entry.type, entry.to_dict(), hand)

    def table_changed(self, *fields: str) -> None:
        self._table_fields.update(fields)

    def hand_changed(self, hand: Hand, *fields: str) -> None:
        """``hand`` (the table's running hand: one a transaction) has new ``fields``."""
        assert self._hand is None or self._hand.pk == hand.pk, "one hand a transaction"
        self._hand = hand
        self._hand_fields.update(fields)

    def hand_started(self, hand: Hand) -> None:
        """``hand`` is new, its key reserved (``rows.TableRead.hand_key``): the next flush
        inserts it as it stands then, its later changes included."""
        self.hand_changed(hand)
        self._hand_new = True

    def stack_changed(self, seat: Seat) -> None:
        self._seats[seat.pk] = seat

    def flush(self) -> None:
        """Write everything pending, its statements sent together (``rows.pipelined``: one
        round trip); idempotent: a second call writes only what is new."""
        with rows.pipelined():
            if self._hand is not None and self._hand_new:
                rows.insert(self._hand)
                self._hand_new, self._hand_fields = False, set()
            if self._events:
                _insert_events(self.table.pk, self.table.seq - len(self._events), self._events)
                self._events = []
                self._table_fields.add("seq")
            if self._table_fields:
                rows.update(self.table, self._table_fields)
                self._table_fields = set()
            if self._hand is not None and self._hand_fields:
                rows.update(self._hand, self._hand_fields)
                self._hand_fields = set()
            if self._seats:
                _set_stacks([[seat.pk, seat.stack] for seat in self._seats.values()])
                self._seats = {}
