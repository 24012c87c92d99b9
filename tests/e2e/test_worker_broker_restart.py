"""A real worker outlives a Redis restart while it holds messages not yet acknowledged.

kombu 5.7 killed such a worker ("Unrecoverable error: AttributeError: 'NoneType' object has
no attribute 'hostname'") when it closed the lost connection (``config.broker``); every
worker holds a countdown at a table with a pause, so a Redis restart stopped every table
until a supervisor restarted the workers (the chaos run's stalls).
"""

from __future__ import annotations

import time

import pytest
from django.conf import settings
from kombu import Connection

from bench.chaos import OwnRedis
from config.celery import app as celery_app
from tests.e2e.workers import WorkerProcess

pytestmark = pytest.mark.e2e

PING = "config.tasks.ping"
WAIT_SECONDS = 30


def _send(url: str, **options: object) -> None:
    with Connection(url) as connection:
        celery_app.send_task(
            PING, connection=connection, queue=settings.CELERY_TASK_DEFAULT_QUEUE, **options
        )


def _wait_for(worker: WorkerProcess, what: str, count: int) -> None:
    deadline = time.monotonic() + WAIT_SECONDS
    while worker.log().count(what) < count:
        assert worker.process.poll() is None, f"the worker exited:\n{worker.log()[-6000:]}"
        assert time.monotonic() < deadline, f"no {what!r} x{count}:\n{worker.log()[-6000:]}"
        time.sleep(0.1)


def test_a_worker_holding_countdowns_reconnects_after_redis_restarts_and_runs_tasks(
    own_redis: OwnRedis, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.setenv("CELERY_BROKER_URL", own_redis.url)
    monkeypatch.setenv("REDIS_URL", own_redis.url)
    worker = WorkerProcess()
    try:
        worker.wait_ready()
        for _ in range(2):  # held by the worker, unacknowledged, until their time comes
            _send(own_redis.url, countdown=600)
        _wait_for(worker, f"Task {PING}[", 2)

        own_redis.restart()

        _wait_for(worker, "Connected to redis", 2)
        _send(own_redis.url)
        _wait_for(worker, "'pong'", 1)
        assert "Unrecoverable error" not in worker.log()
    finally:
        worker.stop()
