"""On Redis a worker's messages live in the worker once taken, not copied back into Redis.

Kombu's acknowledgement emulation wrote every message a worker took into Redis and deleted it
at the acknowledgement: two round trips a task. It is off (``ack_emulation``, see settings):
a worker holding a countdown leaves nothing of it in Redis, and a warm stop (SIGTERM) puts
the countdown back on its queue for the next worker.
"""

from __future__ import annotations

import pytest
import redis
from django.conf import settings
from kombu import Connection

from bench.chaos import OwnRedis
from config.celery import app as celery_app
from games.services import schedule
from tests.e2e.tables import wait_until
from tests.e2e.workers import WorkerProcess

pytestmark = pytest.mark.e2e

MISSING_TABLE = 10**9  # an advance that finds no table and does nothing
WAIT_SECONDS = 30


def _queued(client: redis.Redis, queue: str) -> int:
    """Messages waiting in the queue, at every priority (kombu keeps a list per priority)."""
    return sum(int(client.llen(key)) for key in client.scan_iter(f"{queue}*"))  # type: ignore[arg-type]


def test_a_held_countdown_is_not_copied_into_redis_and_comes_back_at_a_warm_stop(
    own_redis: OwnRedis, transactional_db: None, monkeypatch: pytest.MonkeyPatch
):
    queue = settings.CELERY_TASK_DEFAULT_QUEUE
    client = redis.Redis.from_url(own_redis.url)
    with monkeypatch.context() as worker_environment:  # the worker's, not this process's app
        worker_environment.setenv("CELERY_BROKER_URL", own_redis.url)
        worker_environment.setenv("REDIS_URL", own_redis.url)
        worker = WorkerProcess()
    try:
        worker.wait_ready()
        with Connection(own_redis.url) as connection:
            celery_app.send_task(
                schedule.TABLE_ADVANCE,
                (MISSING_TABLE,),
                countdown=600,
                connection=connection,
                queue=queue,
                priority=schedule.TABLE_PRIORITY,
            )
        wait_until(
            "the worker's taking the countdown", lambda: "] received" in worker.log(), WAIT_SECONDS
        )
        assert _queued(client, queue) == 0
        assert not client.exists("unacked", "unacked_index")  # kombu's emulation keys
    finally:
        worker.stop()

    assert worker.process.returncode == 0, worker.log()[-6000:]
    assert _queued(client, queue) == 1  # the next worker takes it
