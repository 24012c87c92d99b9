"""A second, empty database beside the test database, and pointing this process at it.

The restore drill restores into one and the upgrade test loads an earlier release into one;
both then read it with the project's own code (``ledger_check``, the hand replay) by pointing
the default connection at it for a while. Tests that use these need ``transactional_db``
(PostgreSQL creates a database outside any transaction).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from django.contrib.contenttypes.models import ContentType
from django.db import connection


@contextmanager
def empty_database(suffix: str) -> Iterator[str]:
    """The name of a new empty database (a PostgreSQL database, or a SQLite file beside the
    test database's), dropped on the way out."""
    name = f"{connection.settings_dict['NAME']}_{suffix}"
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            cursor.execute(f'CREATE DATABASE "{name}"')
    else:
        Path(name).unlink(missing_ok=True)
    try:
        yield name
    finally:
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        else:
            for leftover in (name, f"{name}-wal", f"{name}-shm"):
                Path(leftover).unlink(missing_ok=True)


@contextmanager
def on_database(name: str) -> Iterator[None]:
    """Point the default connection (and so every query and worker started meanwhile, see
    tests/e2e/workers.py) at database ``name``; back to the test database on the way out."""
    test_name = connection.settings_dict["NAME"]
    _switch(name)
    try:
        yield
    finally:
        _switch(test_name)


def _switch(name: str) -> None:
    connection.close()
    connection.settings_dict["NAME"] = name
    ContentType.objects.clear_cache()  # its ids are the other database's
