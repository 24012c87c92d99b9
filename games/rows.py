"""A table's rows read and written with SQL built once: the statements every hand and every
poll of a table make.

The ORM compiles a query each time it runs one. On a hand's hot path (the table locked, its
running hand, the seats with their players, the table's and the hand's changed fields) and a
table poll's, compiling cost more CPU than the database spent answering: about 0.4 ms a
statement, a third of a bot hand's (``python -m bench.hand_profile``). Here the SQL is built
once per process from the models' metadata, and each row is turned into model instances with
the fields' own converters, as the ORM's compiler does; a write prepares each value with its
field, as ``Model.save`` does. No receiver listens to these models' saves (the tests check).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from functools import cache
from typing import Any, TypeVar

from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.db.models import Field, Model
from rest_framework.authtoken.models import Token

from games.models import GameTable, Hand, HandStatus, Player, Seat, Table

M = TypeVar("M", bound=Model)
Converter = Callable[[Any, Any, Any], Any]


class Columns:
    """A model's columns as ``alias.column, ...`` and the instance made from their values."""

    def __init__(self, model: type[Model], alias: str) -> None:
        self.model = model
        fields: list[Field[Any, Any]] = list(model._meta.concrete_fields)
        self.sql = ", ".join(f"{alias}.{_quote(field.column)}" for field in fields)
        self.count = len(fields)
        self._attnames = [field.attname for field in fields]
        self._converters = [_converters(field, alias) for field in fields]

    def build(self, values: Sequence[Any]) -> Model:
        """The instance of ``values`` (this model's columns, in order, as the driver gave)."""
        converted = list(values)
        for i, (converters, column) in enumerate(self._converters):
            for convert in converters:
                converted[i] = convert(converted[i], column, connection)
        return self.model.from_db(connection.alias, self._attnames, converted)

    def index(self, attname: str) -> int:
        """Where the field ``attname`` is among the columns."""
        return self._attnames.index(attname)


def _converters(field: Field[Any, Any], alias: str) -> tuple[list[Converter], Any]:
    """What the compiler applies to ``field``'s value: the backend's, then the field's."""
    column = field.get_col(alias)
    converters = connection.ops.get_db_converters(column) + column.get_db_converters(connection)
    return converters, column


@cache
def columns(model: type[Model], alias: str, vendor: str) -> Columns:
    """``Columns`` of ``model`` under ``alias``, made once per database vendor."""
    return Columns(model, alias)


@contextmanager
def pipelined() -> Iterator[None]:
    """Send the statements made inside without waiting for each one's answer: on PostgreSQL
    (psycopg's pipeline mode) they travel together, one round trip however many, and are
    answered when a row is fetched or the block ends. The server still runs them one after
    the other in the order made, each as if sent alone (with its own snapshot, and only once
    the one before it, a row lock's wait included, is done); an error is raised as Django's
    at the fetch or the end that reads it, and leaves the transaction failed, as it would
    have. A block inside another sends with it. Elsewhere (SQLite) each statement runs when
    made. Nothing inside may read a write's row count, which a pipeline gives only at its
    end: the ORM's ``update()`` and ``save()`` do (its inserts read their RETURNING rows)."""
    if connection.vendor != "postgresql":
        yield
        return
    connection.ensure_connection()
    if connection.connection.pgconn.pipeline_status:  # inside another: that one answers
        yield
        return
    with connection.wrap_database_errors, connection.connection.pipeline():
        yield


def select(sql: str, params: Sequence[Any]) -> list[tuple[Any, ...]]:
    """Rows of ``sql`` on the default connection."""
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


@cache
def _update_sql(
    model: type[Model], fields: tuple[str, ...], keys: tuple[str, ...], vendor: str
) -> str:
    assignments = ", ".join(f"{_column(model, name)} = %s" for name in fields)
    where = " AND ".join(f"{_column(model, name)} = %s" for name in keys)
    return f"UPDATE {_quote(model._meta.db_table)} SET {assignments} WHERE {where}"


def insert(instance: Model) -> None:
    """Insert ``instance`` as a new row (``save()`` of a new instance without the signals,
    which nobody listens to on these models): with its key if it has one (reserved,
    ``TableRead.hand_key``), else with the key the database gives, set on it."""
    model = type(instance)
    keyed = instance.pk is not None
    fields = _inserted(model, keyed)
    values = [f.get_db_prep_save(f.pre_save(instance, True), connection) for f in fields]
    returning = not keyed and connection.features.can_return_columns_from_insert
    with connection.cursor() as cursor:
        cursor.execute(_insert_sql(model, connection.vendor, keyed, returning), values)
        if not keyed:
            instance.pk = cursor.fetchone()[0] if returning else cursor.lastrowid
    instance._state.adding = False
    instance._state.db = connection.alias


def _inserted(model: type[Model], keyed: bool) -> list[Field[Any, Any]]:
    """The fields an INSERT writes: all, or all but the key when the database gives it."""
    return [f for f in model._meta.concrete_fields if keyed or f is not model._meta.pk]


@cache
def _insert_sql(model: type[Model], vendor: str, keyed: bool, returning: bool) -> str:
    fields = _inserted(model, keyed)
    names = ", ".join(_quote(f.column) for f in fields)
    placeholders = ", ".join(["%s"] * len(fields))
    sql = f"INSERT INTO {_quote(model._meta.db_table)} ({names}) VALUES ({placeholders})"
    return sql + (f" RETURNING {_quote(model._meta.pk.column)}" if returning else "")


def update(instance: Model, fields: Iterable[str]) -> None:
    """Write ``instance``'s ``fields`` to its row in one statement (``save(update_fields=)``
    without the signals, which nobody listens to on these models)."""
    update_each([instance], fields)


def update_each(
    instances: Sequence[Model], fields: Iterable[str], *, by: tuple[str, ...] = ("pk",)
) -> None:
    """Write each instance's ``fields`` to its row (instances of one model), the row found
    by the fields ``by`` (its key unless told), the statement built once and sent for all of
    them together (``executemany``: one round trip on PostgreSQL). What ``bulk_update`` does,
    without compiling a ``CASE`` per row and field, which costs more CPU than the database
    spends on the rows."""
    if not instances:
        return
    model = type(instances[0])
    names = tuple(sorted(fields))
    keys = tuple(model._meta.pk.name if key == "pk" else key for key in by)
    written = [model._meta.get_field(name) for name in names + keys]
    values = [
        [f.get_db_prep_save(f.pre_save(instance, False), connection) for f in written]  # type: ignore[union-attr]
        for instance in instances
    ]
    with connection.cursor() as cursor:
        cursor.executemany(_update_sql(model, names, keys, connection.vendor), values)


# ----------------------------------------------------------------------------- a table's rows


def table(table_id: int, *, lock: bool = False) -> Table | None:
    """The table's row; ``lock``: locked for this transaction (``games.locks``)."""
    _lock_allowed(lock)
    if not _a_key(Table, table_id):
        return None
    found = select(_table_sql(connection.vendor, lock), [table_id])
    return columns(Table, "t", connection.vendor).build(found[0]) if found else None  # type: ignore[return-value]


def table_seq(table_id: int) -> int | None:
    """The table's ``seq`` alone (a snapshot's check that nothing changed while it read)."""
    if not _a_key(Table, table_id):
        return None
    found = select(_table_seq_sql(connection.vendor), [table_id])
    return found[0][0] if found else None


def running_hand(of: Table) -> Hand | None:
    """The table's hand in progress, if any (``hand.table`` is ``of``).

    Under the table's lock, read it after the lock is granted, by a statement of its own: a
    statement that waited for the lock sees the table's row as the last holder left it, but
    any other row as it was when the statement began (a join would miss the hand that holder
    started)."""
    return _hand(select(_running_hand_sql(connection.vendor), [of.pk, HandStatus.RUNNING]), of)


@dataclass(frozen=True)
class TableRead:
    """A table's row, its running hand's and its seats' with their players: what a hand is
    played from and a table's answer is made of; ``hand_key``: a key reserved for a hand
    this transaction may start (``table_read``'s ``with_hand_key``); ``in_game``: the table
    is one of a ring game's (a ``GameTable``'s), whose floor looks after each of its hands.
    A table is made one of a game's as it is created, and stays one."""

    table: Table
    hand: Hand | None
    seats: dict[int, Seat]
    hand_key: int | None = None
    in_game: bool = False


def table_read(
    table_id: int, *, lock: bool = False, with_seats: bool = True, with_hand_key: bool = False
) -> TableRead | None:
    """The table, its running hand and (``with_seats``) its seats, their statements sent
    together (``pipelined``): one round trip. ``lock``: the table's row locked for this
    transaction, as ``table``; the hand's and the seats' statements then start once the lock
    is granted, so they see what its last holder committed (``running_hand``).

    ``with_hand_key`` (PostgreSQL): the hands' key sequence gives a key in the same trip, so
    a hand started now is inserted once, with the rest of the transaction's writes and as it
    stands by then (``TableWrites``), not at its start to learn its key and updated at the
    end. Only a table without a running hand is given one; a key not used (the table waits
    for players, for its pause or for its tournament) is a gap in the hands' ids, as a
    rolled-back insert leaves."""
    found = table_rows(table_id, lock=lock, with_seats=with_seats, with_hand_key=with_hand_key)
    return found.read() if found is not None else None


@dataclass(frozen=True)
class TableRows:
    """``table_read``'s rows as the driver gave them, before any model instance is made of
    them (``read``): what a poll that finds nothing new needs (its version, see
    ``games.selectors.rows_version``), without building the table, the hand (parsing its
    snapshot) and every seat and player."""

    vendor: str
    table: tuple[Any, ...]
    hand: tuple[Any, ...] | None
    seats: list[tuple[Any, ...]]
    hand_key: int | None = None
    in_game: bool = False

    def read(self) -> TableRead:
        """The model instances of these rows."""
        table: Table = columns(Table, "t", self.vendor).build(self.table)  # type: ignore[assignment]
        hand = _hand([self.hand] if self.hand is not None else [], table)
        return TableRead(table, hand, _seats(self.seats, table), self.hand_key, self.in_game)

    def shown(self, hand_fields: Sequence[str]) -> list[Any]:
        """The values of these rows a table's answer is made of: the table's row, each
        seat's with its player's name and bot (none for an empty seat), and the running
        hand's ``hand_fields`` (None without a running hand)."""
        seat_count = columns(Seat, "s", self.vendor).count
        player = columns(Player, "p", self.vendor)
        shown_of_player = [seat_count + player.index(name) for name in ("display_name", "bot")]
        seats = [
            list(row[:seat_count])
            + ([row[i] for i in shown_of_player] if row[seat_count] is not None else [])
            for row in self.seats
        ]
        hand = columns(Hand, "h", self.vendor)
        running = [self.hand[hand.index(name)] for name in hand_fields] if self.hand else None
        return [list(self.table), seats, running]


def table_rows(
    table_id: int, *, lock: bool = False, with_seats: bool = True, with_hand_key: bool = False
) -> TableRows | None:
    """``table_read``'s rows, read as it says, not yet made into model instances."""
    _lock_allowed(lock)
    if not _a_key(Table, table_id):
        return None
    vendor = connection.vendor
    reserve = with_hand_key and vendor == "postgresql"
    running = [table_id, HandStatus.RUNNING]
    with pipelined(), ExitStack() as stack:
        t, h, s, k = (stack.enter_context(connection.cursor()) for _ in range(4))
        t.execute(_table_sql(vendor, lock, in_game=True), [table_id])
        h.execute(_running_hand_sql(vendor), running)
        if with_seats:
            s.execute(_seats_sql(vendor), [table_id])
        if reserve:
            k.execute(_hand_key_sql(vendor), running)
        found, hand_rows = t.fetchall(), h.fetchall()
        seat_rows = s.fetchall() if with_seats else []
        keys = k.fetchall() if reserve else []
    if not found:
        return None
    *row, in_game = found[0]
    hand = tuple(hand_rows[0]) if hand_rows else None
    key = keys[0][0] if keys else None
    return TableRows(vendor, tuple(row), hand, list(seat_rows), key, bool(in_game))


def _hand(found: list[tuple[Any, ...]], of: Table) -> Hand | None:
    if not found:
        return None
    hand: Hand = columns(Hand, "h", connection.vendor).build(found[0])  # type: ignore[assignment]
    hand.table = of
    return hand


def _seats(found: list[tuple[Any, ...]], of: Table) -> dict[int, Seat]:
    """The seats with their players (``seat.table`` is ``of``), by number in order."""
    seat_columns = columns(Seat, "s", connection.vendor)
    player_columns = columns(Player, "p", connection.vendor)
    by_number: dict[int, Seat] = {}
    for row in found:
        seat: Seat = seat_columns.build(row[: seat_columns.count])  # type: ignore[assignment]
        seat.table = of
        taken = row[seat_columns.count] is not None
        seat.player = player_columns.build(row[seat_columns.count :]) if taken else None  # type: ignore[assignment]
        by_number[seat.number] = seat
    return by_number


# ----------------------------------------------------------------------------- the caller


def token(key: str) -> Token | None:
    """The API token ``key`` with its user and the user's player profile (``user.player``,
    read in the same statement: a user without one raises ``Player.DoesNotExist`` without a
    query, as after the ORM's ``select_related``)."""
    vendor = connection.vendor
    found = select(_token_sql(vendor), [key])
    if not found:
        return None
    row = found[0]
    token_columns, user_columns = (
        columns(Token, "k", vendor),
        columns(get_user_model(), "u", vendor),
    )
    split = token_columns.count + user_columns.count
    found_token: Token = token_columns.build(row[: token_columns.count])  # type: ignore[assignment]
    user = user_columns.build(row[token_columns.count : split])
    found_token.user = user
    if row[split] is None:
        Player.user.field.remote_field.set_cached_value(user, None)  # type: ignore[attr-defined]
    else:
        user.player = columns(Player, "p", vendor).build(row[split:])  # type: ignore[attr-defined]
    return found_token


@cache
def _token_sql(vendor: str) -> str:
    user = get_user_model()
    user_id = _column(user, "id")
    return (
        f"SELECT {columns(Token, 'k', vendor).sql}, {columns(user, 'u', vendor).sql}, "
        f"{columns(Player, 'p', vendor).sql} FROM {_quote(Token._meta.db_table)} k "
        f"JOIN {_quote(user._meta.db_table)} u ON u.{user_id} = k.{_column(Token, 'user')} "
        f"LEFT JOIN {_quote(Player._meta.db_table)} p ON p.{_column(Player, 'user')} = u.{user_id} "
        f"WHERE k.{_column(Token, 'key')} = %s"
    )


def _lock_allowed(lock: bool) -> None:
    """A row lock outside a transaction would end with its statement: refused, as the ORM's
    ``select_for_update`` refuses it."""
    if lock and connection.get_autocommit():
        raise transaction.TransactionManagementError("lock the table inside transaction.atomic")


def _a_key(model: type[Model], value: int) -> bool:
    """Whether ``value`` fits ``model``'s key column (no row has a key beyond it; the ORM
    finds none either, where the driver would refuse to send it)."""
    low, high = connection.ops.integer_field_range(model._meta.pk.get_internal_type())
    return (low is None or low <= value) and (high is None or value <= high)


def _quote(name: str) -> str:
    return connection.ops.quote_name(name)


def _column(model: type[Model], field: str) -> str:
    return _quote(model._meta.get_field(field).column)  # type: ignore[union-attr]


@cache
def _table_sql(vendor: str, lock: bool, in_game: bool = False) -> str:
    """The table's row; ``in_game``: and last, whether the table is one of a game's."""
    # SQLite has no row locks: its writers are serialized by the immediate transaction
    locking = " FOR UPDATE" if lock and connection.features.has_select_for_update else ""
    key = f"t.{_column(Table, 'id')}"
    linked = f"{_quote(GameTable._meta.db_table)} g WHERE g.{_column(GameTable, 'table')} = {key}"
    game = f", EXISTS (SELECT 1 FROM {linked})" if in_game else ""
    return (
        f"SELECT {columns(Table, 't', vendor).sql}{game} "
        f"FROM {_quote(Table._meta.db_table)} t WHERE {key} = %s{locking}"
    )


@cache
def _table_seq_sql(vendor: str) -> str:
    return (
        f"SELECT {_column(Table, 'seq')} FROM {_quote(Table._meta.db_table)} "
        f"WHERE {_column(Table, 'id')} = %s"
    )


@cache
def _running_hand_sql(vendor: str) -> str:
    return (
        f"SELECT {columns(Hand, 'h', vendor).sql} FROM {_quote(Hand._meta.db_table)} h "
        f"WHERE h.{_column(Hand, 'table')} = %s AND h.{_column(Hand, 'status')} = %s"
    )


@cache
def _hand_key_sql(vendor: str) -> str:
    """The next hand key, if the table has no hand running (as its statement finds it)."""
    hands, key = _quote(Hand._meta.db_table), Hand._meta.pk.column
    return (
        f"SELECT nextval(pg_get_serial_sequence('{hands}', '{key}')) WHERE NOT EXISTS "
        f"(SELECT 1 FROM {hands} h WHERE h.{_column(Hand, 'table')} = %s "
        f"AND h.{_column(Hand, 'status')} = %s)"
    )


@cache
def _seats_sql(vendor: str) -> str:
    return (
        f"SELECT {columns(Seat, 's', vendor).sql}, {columns(Player, 'p', vendor).sql} "
        f"FROM {_quote(Seat._meta.db_table)} s LEFT JOIN {_quote(Player._meta.db_table)} p "
        f"ON p.{_column(Player, 'id')} = s.{_column(Seat, 'player')} "
        f"WHERE s.{_column(Seat, 'table')} = %s ORDER BY s.{_column(Seat, 'number')}"
    )
