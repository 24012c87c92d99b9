"""A task enqueued by this process runs in a real worker process on the test database."""

import time

import pytest
from django.db import connection

from config import heartbeat
from config.tasks import ping
from tests.e2e.workers import WorkerPool, WorkerProcess

pytestmark = pytest.mark.e2e


def wait_for_heartbeat_after(moment: float, timeout: float = 30) -> heartbeat.Heartbeat:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        beat = heartbeat.last_heartbeat()
        if beat is not None and beat["at"] > moment:
            return beat
        time.sleep(0.1)
    pytest.fail("no worker heartbeat arrived")


def test_ping_runs_on_a_worker_that_uses_the_test_database(
    celery_worker_process: WorkerProcess,
) -> None:
    enqueued_at = time.time()

    ping.delay()

    beat = wait_for_heartbeat_after(enqueued_at)
    assert beat["worker"] == celery_worker_process.name
    assert beat["database"] == connection.settings_dict["NAME"]
    assert "Task config.tasks.ping[" in celery_worker_process.log()


def test_a_killed_worker_is_replaced_and_the_new_one_runs_tasks(
    celery_workers: WorkerPool,
) -> None:
    first = celery_workers.start()

    second = celery_workers.restart_after_crash(first)
    enqueued_at = time.time()
    ping.delay()

    beat = wait_for_heartbeat_after(enqueued_at)
    assert first.process.returncode == -9
    assert beat["worker"] == second.name
