"""A worker keeps its database connection from task to task, as the web keeps it from request
to request: CONN_MAX_AGE and the health check decide, not Celery's fix-up.

Celery's Django fix-up closes the connection before and after every task unless
CELERY_DB_REUSE_MAX lets it reuse it; a new connection per task cost a bot table about a fifth
of its hand's task (README, Performance). Tests run with CONN_MAX_AGE = 0 (so test databases can
be dropped), so these tests set the age themselves.
"""

from types import SimpleNamespace
from typing import Any

import pytest
from celery.fixups.django import DjangoWorkerFixup
from celery.signals import task_postrun, task_prerun
from django.db import connection

from config.celery import app

pytestmark = pytest.mark.django_db(transaction=True)


class Task:
    """What the signals and the fix-up read of a task: whether it runs eagerly."""

    def __init__(self, *, eager: bool) -> None:
        self.request = SimpleNamespace(is_eager=eager)


@pytest.fixture
def kept_for_a_minute() -> Any:
    """The production setting: a connection lives for 60 s."""
    connection.close()
    saved = connection.settings_dict["CONN_MAX_AGE"]
    connection.settings_dict["CONN_MAX_AGE"] = 60
    connection.ensure_connection()
    yield connection.connection
    connection.settings_dict["CONN_MAX_AGE"] = saved
    connection.close()


def test_celerys_fixup_leaves_the_connection_open_around_a_task(kept_for_a_minute: Any) -> None:
    fixup = DjangoWorkerFixup(app)
    sender = Task(eager=False)

    fixup.on_task_prerun(sender)
    fixup.on_task_postrun(sender)

    assert connection.connection is kept_for_a_minute


def test_a_task_reuses_the_connection_the_last_task_opened(kept_for_a_minute: Any) -> None:
    for _ in range(3):
        task_prerun.send(sender=Task(eager=False))
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        task_postrun.send(sender=Task(eager=False))

    assert connection.connection is kept_for_a_minute


def test_a_connection_older_than_its_age_is_closed_before_the_next_task(
    kept_for_a_minute: Any,
) -> None:
    connection.close_at = 0  # the age ran out

    task_prerun.send(sender=Task(eager=False))

    assert connection.connection is None


@pytest.mark.skipif(
    connection.vendor != "postgresql", reason="a SQLite connection is never found unusable"
)
def test_a_broken_connection_is_replaced_before_the_next_task(kept_for_a_minute: Any) -> None:
    kept_for_a_minute.close()  # as a database restart leaves it
    connection.errors_occurred = True

    task_prerun.send(sender=Task(eager=False))
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")

    assert connection.connection is not kept_for_a_minute


def test_an_eager_task_leaves_its_callers_connection_alone(kept_for_a_minute: Any) -> None:
    connection.close_at = 0

    task_prerun.send(sender=Task(eager=True))

    assert connection.connection is kept_for_a_minute
