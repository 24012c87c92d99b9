"""On Redis a worker takes the tasks that unblock many tables before the tables' own.

A big tournament's hands end at a hundred tables at once: each sends its table's next advance
and, after a bust, the tournament's update, which the table waits for. In one queue taken in
order, that update ran after every advance sent before it (a second or two at 125 tables, the
held tables waiting all along); sent at the default priority, ahead of the tables'
``TABLE_PRIORITY``, it runs next.
"""

from __future__ import annotations

import time

import pytest
from django.conf import settings
from kombu import Connection

from bench.chaos import OwnRedis
from config.celery import app as celery_app
from games.services import schedule
from tests.e2e.workers import WorkerProcess

pytestmark = pytest.mark.e2e

TICK = "tourney.tasks.tournament_tick"
MISSING_TABLES = range(10**9, 10**9 + 6)  # advances that find no table and do nothing
WAIT_SECONDS = 30


def _received(worker: WorkerProcess, count: int) -> list[str]:
    """The names of the first ``count`` tasks the worker received, in order."""
    deadline = time.monotonic() + WAIT_SECONDS
    while True:
        lines = [line for line in worker.log().splitlines() if "] received" in line]
        if len(lines) >= count:
            return [line.split("Task ", 1)[1].split("[", 1)[0] for line in lines[:count]]
        assert worker.process.poll() is None, f"the worker exited:\n{worker.log()[-6000:]}"
        assert time.monotonic() < deadline, f"{len(lines)} tasks received:\n{worker.log()[-6000:]}"
        time.sleep(0.1)


def test_a_tournament_task_sent_after_the_tables_advances_is_taken_first(
    own_redis: OwnRedis, transactional_db: None, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.setenv("CELERY_BROKER_URL", own_redis.url)
    monkeypatch.setenv("REDIS_URL", own_redis.url)
    queue = settings.CELERY_TASK_DEFAULT_QUEUE
    with Connection(own_redis.url) as connection:
        for table_id in MISSING_TABLES:  # as schedule sends them
            options = schedule.table_task_options(table_id) | {"queue": queue}
            celery_app.send_task(
                schedule.TABLE_ADVANCE, (table_id,), connection=connection, **options
            )
        celery_app.send_task(TICK, connection=connection, queue=queue)  # as beat sends it

    worker = WorkerProcess()
    try:
        worker.wait_ready()
        names = _received(worker, 1 + len(MISSING_TABLES))
    finally:
        worker.stop()

    assert names == [TICK] + [schedule.TABLE_ADVANCE] * len(MISSING_TABLES)
