"""A worker keeps its database connection from task to task, as the web keeps it from request
to request: CONN_MAX_AGE and the health check decide, not Celery's fix-up. The health check
of a PostgreSQL connection makes a round trip only when the server said something
(``config.postgres``).

Celery's Django fix-up closes the connection before and after every task unless
CELERY_DB_REUSE_MAX lets it reuse it; a new connection per task cost a bot table about a fifth
of its hand's task (on 2026-11-30 ``bench tables`` went from 40.6 to 68.1 hands/s once the
workers kept their connections). Tests run with CONN_MAX_AGE = 0 (so test databases can be
dropped), so these tests set the age themselves.
"""

import select
from types import SimpleNamespace
from typing import Any

import pytest
from celery.fixups.django import DjangoWorkerFixup
from celery.signals import task_postrun, task_prerun
from django.db import connection
from django.db.backends.postgresql import base as django_postgres

from config.celery import app
from config.postgres import base as postgres_base

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


postgresql_only = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="the health check of PostgreSQL connections"
)


@postgresql_only
def test_a_connection_the_server_ended_is_replaced_before_the_next_task(
    kept_for_a_minute: Any,
) -> None:
    # Given the server ends the kept connection (as an administrator or a restart does)
    other = connection.get_new_connection(connection.get_connection_params())
    with other.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(%s)", [kept_for_a_minute.info.backend_pid])
    other.close()
    _wait_until_readable(kept_for_a_minute)

    # When the next task starts, no error having been seen on the connection
    task_prerun.send(sender=Task(eager=False))
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")

    # Then it got a new connection instead of failing on the ended one
    assert connection.connection is not kept_for_a_minute


@postgresql_only
def test_a_quiet_connection_is_found_usable_without_a_round_trip(
    kept_for_a_minute: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    round_trips = _count_round_trip_checks(monkeypatch)

    for _ in range(3):
        task_prerun.send(sender=Task(eager=False))
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")

    assert round_trips == []
    assert connection.connection is kept_for_a_minute


@postgresql_only
def test_a_connection_with_something_to_read_is_checked_by_a_round_trip(
    kept_for_a_minute: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    round_trips = _count_round_trip_checks(monkeypatch)
    monkeypatch.setattr(postgres_base.select, "select", lambda r, w, x, t: (r, [], []))

    task_prerun.send(sender=Task(eager=False))
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")

    assert round_trips == [True]  # asked, and the answer was that it is usable
    assert connection.connection is kept_for_a_minute


def _count_round_trip_checks(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Record the results of Django's own check (``SELECT 1``) when the backend falls back
    to it."""
    seen: list[bool] = []
    django_check = django_postgres.DatabaseWrapper.is_usable

    def counted(self: Any) -> bool:
        seen.append(django_check(self))
        return seen[-1]

    monkeypatch.setattr(django_postgres.DatabaseWrapper, "is_usable", counted)
    return seen


def _wait_until_readable(raw: Any) -> None:
    """The server's goodbye reaches the client a moment after the terminate returns."""
    for _ in range(200):
        if select.select([raw.fileno()], [], [], 0.01)[0]:
            return
    raise AssertionError("the ended connection never became readable")
