"""The log context of the request or task at hand: its request id and, where there is one, the
user, table, hand and tournament. Every log line carries it (``observability.logs``), and a
task sent while it is bound carries the request id in its headers (``config.celery``), so one
player's dispute is one search on the request id.

Context variables: each thread and each task keeps its own, and what a request binds is gone
with it (``bound`` restores what was there before).
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from types import MappingProxyType
from typing import Any

FIELDS = ("request_id", "user", "table", "hand", "tournament")
"""What the context may hold, in the order a log line shows it."""

ID_ARGUMENTS = {"table_id": "table", "hand_id": "hand", "tournament_id": "tournament"}
"""The names our URLs and tasks give their ids (``tables/<id:table_id>/``,
``table_advance(table_id)``), and the field each binds."""

_NOTHING: Mapping[str, Any] = MappingProxyType({})
_context: ContextVar[Mapping[str, Any]] = ContextVar("observability_context", default=_NOTHING)

_REQUEST_ID = re.compile(r"[A-Za-z0-9._-]{1,64}")


def new_request_id() -> str:
    return uuid.uuid4().hex


def request_id_or_new(given: str | None) -> str:
    """A request id a client or proxy sent (``X-Request-ID``) if it is a plain token of at most
    64 characters, so it can be searched for and never breaks a log line; a new one otherwise."""
    if given and _REQUEST_ID.fullmatch(given):
        return given
    return new_request_id()


def current() -> dict[str, Any]:
    """The fields bound now, a field bound to a function (the user of a request, known once
    authenticated) as that function's answer, and left out while it answers None."""
    fields = {}
    for name, value in _context.get().items():
        known = value() if callable(value) else value
        if known is not None:
            fields[name] = known
    return fields


def bind(**fields: Any) -> None:
    """Add fields to the context until the request or task ends (None values are skipped; a
    function is asked each time a line is written)."""
    given = {name: value for name, value in fields.items() if value is not None}
    if given:
        _context.set({**_context.get(), **given})


def ids_from(arguments: Mapping[str, Any]) -> dict[str, Any]:
    """The context fields named by a view's URL arguments or a task's arguments."""
    return {
        field: arguments[name]
        for name, field in ID_ARGUMENTS.items()
        if isinstance(arguments.get(name), int)
    }


@contextmanager
def bound(**fields: Any) -> Iterator[None]:
    """The context of one request or task: these fields only, and what was there before
    afterwards."""
    token = _context.set({name: value for name, value in fields.items() if value is not None})
    try:
        yield
    finally:
        _context.reset(token)


def clear() -> None:
    """No context any more (a request is over: its thread serves another next)."""
    _context.set(_NOTHING)


def start(**fields: Any) -> object:
    """Begin a context that ``end`` closes (for signal pairs such as a task's prerun and
    postrun, which cannot share a ``with`` block)."""
    return _context.set({name: value for name, value in fields.items() if value is not None})


def end(token: object) -> None:
    _context.reset(token)  # type: ignore[arg-type]
