"""Rows read and written with SQL built once, for the few statements every hand makes.

The ORM compiles a query each time it runs one. On a hand's hot path (the table locked with
its running hand, the seats with their players, the table's and the hand's changed fields)
compiling cost the worker more CPU than the database spent answering: about 0.4 ms a
statement, a third of a bot hand's (``python -m bench.hand_profile``). Here the SQL is built
once per process from the models' metadata, and each row is turned into model instances with
the fields' own converters, as the ORM's compiler does; a write prepares each value with its
field, as ``Model.save`` does. No receiver listens to these models' saves (the tests check).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from functools import cache
from typing import Any, TypeVar

from django.db import connection
from django.db.models import Field, Model

M = TypeVar("M", bound=Model)
Converter = Callable[[Any, Any, Any], Any]


class Columns:
    """A model's columns as ``alias.column, ...`` and the instance made from their values."""

    def __init__(self, model: type[Model], alias: str) -> None:
        self.model = model
        fields: list[Field[Any, Any]] = list(model._meta.concrete_fields)
        quote = connection.ops.quote_name
        self.sql = ", ".join(f"{alias}.{quote(field.column)}" for field in fields)
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


def _converters(field: Field[Any, Any], alias: str) -> tuple[list[Converter], Any]:
    """What the compiler applies to ``field``'s value: the backend's, then the field's."""
    column = field.get_col(alias)
    converters = connection.ops.get_db_converters(column) + column.get_db_converters(connection)
    return converters, column


@cache
def columns(model: type[Model], alias: str, vendor: str) -> Columns:
    """``Columns`` of ``model`` under ``alias``, made once per database vendor."""
    return Columns(model, alias)


def select(sql: str, params: Sequence[Any]) -> list[tuple[Any, ...]]:
    """Rows of ``sql`` on the default connection."""
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def exists(model: type[Model], field: str, value: Any) -> bool:
    """Whether a row of ``model`` has ``value`` in ``field`` (its column)."""
    return bool(select(_exists_sql(model, field, connection.vendor), [value]))


@cache
def _exists_sql(model: type[Model], field: str, vendor: str) -> str:
    quote = connection.ops.quote_name
    column = quote(model._meta.get_field(field).column)
    return f"SELECT 1 FROM {quote(model._meta.db_table)} WHERE {column} = %s LIMIT 1"


@cache
def _update_sql(model: type[Model], fields: tuple[str, ...], vendor: str) -> str:
    meta = model._meta
    quote = connection.ops.quote_name
    assignments = ", ".join(f"{quote(meta.get_field(name).column)} = %s" for name in fields)
    return f"UPDATE {quote(meta.db_table)} SET {assignments} WHERE {quote(meta.pk.column)} = %s"


def update(instance: Model, fields: Iterable[str]) -> None:
    """Write ``instance``'s ``fields`` to its row in one statement (``save(update_fields=)``
    without the signals, which nobody listens to on these models)."""
    names = tuple(sorted(fields))
    meta = instance._meta
    values = []
    for name in names:
        field = meta.get_field(name)
        values.append(field.get_db_prep_save(field.pre_save(instance, False), connection))
    with connection.cursor() as cursor:
        cursor.execute(
            _update_sql(type(instance), names, connection.vendor), [*values, instance.pk]
        )
