"""Real Celery worker processes for end-to-end tests.

`celery_worker_process` starts `celery -A config worker` against the configured broker and
the test database (the test process and the worker agree on both through the environment),
waits until it is ready and stops it after the test. Tests that use it get a
`transactional_db`, so what they write is committed and the worker can see it.
`celery_workers` starts more of them, and kills and replaces one for crash tests.
`own_redis` is a redis-server of the test's own, to restart or fill without touching the
shared one.
"""

from collections.abc import Iterator
from pathlib import Path

import pytest

from bench.chaos import OwnRedis
from config.celery import app as celery_app
from tests.e2e.live import free_port
from tests.e2e.workers import WorkerPool, WorkerProcess


@pytest.fixture
def celery_workers(transactional_db: None) -> Iterator[WorkerPool]:
    """A pool of real worker processes on the test database, all stopped after the test."""
    # Messages left by earlier runs (or tests that enqueued without a worker) are dropped.
    celery_app.control.purge()
    pool = WorkerPool()
    yield pool
    pool.stop_all()


@pytest.fixture
def celery_worker_process(celery_workers: WorkerPool) -> WorkerProcess:
    """One real `celery -A config worker` process, ready, on the test database."""
    return celery_workers.start()


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[OwnRedis]:
    """A redis-server of this test's own, on a spare port (the shared one is never touched)."""
    redis = OwnRedis(free_port(), tmp_path)
    yield redis
    redis.kill()
