"""Worker heartbeats, kept in the Django cache so that web processes can read them.

A worker records one when it starts and each time it runs the ``ping`` task, which beat
sends every few seconds. This works on every broker, including the embedded filesystem
one, which has no broadcast for ``celery inspect ping``.
"""

import time
from typing import TypedDict

from django.core.cache import cache
from django.db import connection

HEARTBEAT_CACHE_KEY = "tourney:worker-heartbeat"


class Heartbeat(TypedDict):
    """When a worker last proved alive, its name, and the database it reached."""

    at: float
    worker: str
    database: str


def record_heartbeat(*, worker: str) -> Heartbeat:
    """Check that this process reaches the database, then store a fresh heartbeat."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    beat = Heartbeat(at=time.time(), worker=worker, database=str(connection.settings_dict["NAME"]))
    cache.set(HEARTBEAT_CACHE_KEY, beat, timeout=None)
    return beat


def last_heartbeat() -> Heartbeat | None:
    """Return the newest heartbeat of any worker, or None if none was ever recorded."""
    beat: Heartbeat | None = cache.get(HEARTBEAT_CACHE_KEY)
    return beat
