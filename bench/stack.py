"""What the benchmarks on the real stack share: the PostgreSQL and Redis they need, a scratch
database of their own, and a description of the machine.

``bench.tables`` and ``bench.tournament`` run on PostgreSQL and Redis given by DATABASE_URL
and REDIS_URL; each creates and drops its own database on that server (``scratch_database``)
and purges the Celery queue of the Redis database given, so REDIS_URL should name a scratch
database (e.g. redis://.../14).
"""

from __future__ import annotations

import os
import platform
import secrets
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

PROJECT_DIR = Path(__file__).resolve().parent.parent
# what a benchmark's children and the Django it sets up in its own process read
ENVIRONMENT_KEYS = ("DATABASE_URL", "SECRET_KEY", "DJANGO_SETTINGS_MODULE")


def missing_services(bench: str) -> str | None:
    """Why ``bench`` (e.g. "bench.tables") cannot run here, or None when PostgreSQL and
    Redis are configured."""
    database_url = os.environ.get("DATABASE_URL", "")
    if not database_url.startswith(("postgres://", "postgresql://")):
        return (
            f"{bench} needs PostgreSQL and Redis: set "
            "DATABASE_URL=postgres://USER@HOST:PORT/DB (any database on the server; the bench "
            "creates its own) and "
            "REDIS_URL=redis://HOST:6379/N (a scratch database: its Celery queue is purged)."
        )
    if not os.environ.get("REDIS_URL", "").startswith("redis://"):
        return f"{bench} needs Redis: set REDIS_URL=redis://HOST:6379/N (a scratch database)."
    return None


def with_database(url: str, name: str) -> str:
    """``url`` with its database name replaced by ``name``."""
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path=f"/{name}"))


def recreate_database(url: str, name: str, *, drop_only: bool = False) -> None:
    """Drop ``name`` on the server of ``url`` (and create it afresh unless ``drop_only``)."""
    import psycopg

    with psycopg.connect(with_database(url, "postgres"), autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        if not drop_only:
            admin.execute(f'CREATE DATABASE "{name}"')


@contextmanager
def scratch_database(server_url: str, name: str) -> Iterator[dict[str, str]]:
    """Create database ``name`` afresh on the server of ``server_url``, migrate it and point
    this process at it (DATABASE_URL, SECRET_KEY, DJANGO_SETTINGS_MODULE in ``os.environ``,
    before Django is set up); drop it on the way out. Yields the environment for children."""
    env = {
        **os.environ,
        "DATABASE_URL": with_database(server_url, name),
        "SECRET_KEY": os.environ.get("SECRET_KEY") or secrets.token_urlsafe(32),
        "DJANGO_SETTINGS_MODULE": "config.settings",
    }
    env.pop("STUD_DB_NAME", None)  # it would override the database named in DATABASE_URL
    os.environ.pop("STUD_DB_NAME", None)
    recreate_database(server_url, name)
    os.environ.update({key: env[key] for key in ENVIRONMENT_KEYS})
    try:
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
            cwd=PROJECT_DIR,
            env=env,
            check=True,
        )
        yield env
    finally:
        _close_django_connections()
        recreate_database(server_url, name, drop_only=True)


def _close_django_connections() -> None:
    """Close this process's connections (if Django was set up) before the database goes."""
    if "django.db" in sys.modules:
        from django.db import connections

        connections.close_all()


def purge_queue() -> int:
    """Drop every message waiting in the Celery queues, the tables' ones too (Django must be
    set up); returns how many. Messages of an earlier run would act on tables that are gone."""
    from django.conf import settings

    from config.celery import app
    from games.services.schedule import table_queue

    purged = int(app.control.purge() or 0)
    with app.connection_for_write() as connection:
        for k in range(settings.TABLE_QUEUES):
            purged += int(connection.default_channel.queue_purge(table_queue(k)) or 0)
    return purged


def machine() -> dict[str, Any]:
    """The machine the figures were measured on (the load average tells of other work)."""
    return {
        "cpus": os.cpu_count(),
        "python": platform.python_version(),
        "platform": platform.platform(),
        "load_average_1m": round(os.getloadavg()[0], 2),
    }
