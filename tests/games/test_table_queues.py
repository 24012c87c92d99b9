"""Routing a table's tasks to worker queues (TABLE_QUEUES): a table's advance and clock tasks
go to the queue of its id modulo the number of queues; with none, to the default queue.
Either way they are sent at ``TABLE_PRIORITY``, after the tasks that unblock many tables."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings as django_settings
from django.utils import timezone

from games import tasks
from games.models import Table
from games.services import schedule
from games.services.seating import seat_sit
from tests.games.factories import make_player, make_table

pytestmark = pytest.mark.django_db


class Broker:
    """Stands in for the Celery app: records what would be sent, and where."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, tuple[Any, ...], str | None]] = []
        self.countdowns: list[float | None] = []
        self.priorities: list[int | None] = []

    def send_task(self, name: str, args: tuple[Any, ...], **options: Any) -> None:
        self.sent.append((name, args, options.get("queue")))
        self.countdowns.append(options.get("countdown"))
        self.priorities.append(options.get("priority"))


@pytest.fixture
def broker(monkeypatch: pytest.MonkeyPatch) -> Broker:
    fake = Broker()
    monkeypatch.setattr(schedule, "current_app", fake)
    return fake


def test_without_table_queues_every_task_goes_to_the_default_queue(
    broker, django_capture_on_commit_callbacks
):
    assert django_settings.TABLE_QUEUES == 0
    with django_capture_on_commit_callbacks(execute=True):
        schedule.advance_now(7)
        schedule.expire_later(7, 70, 12, 30)

    assert broker.sent == [
        (schedule.TABLE_ADVANCE, (7,), None),
        (schedule.EXPIRE_ACTION, (70, 12), None),
    ]


def test_a_tables_tasks_are_sent_after_the_tasks_that_unblock_many_tables(
    broker, django_capture_on_commit_callbacks
):
    """A table's advance and clock go at TABLE_PRIORITY (on Redis, after priority 0); the
    floor's pass keeps the default, as do a tournament's update and beat's tasks."""
    with django_capture_on_commit_callbacks(execute=True):
        schedule.advance_now(7)
        schedule.advance_at(7, timezone.now())
        schedule.expire_later(7, 70, 12, 30)
        schedule.floor_fill_now(3)

    assert broker.priorities == [schedule.TABLE_PRIORITY] * 3 + [None]
    assert schedule.TABLE_PRIORITY > 0


def test_a_tables_tasks_go_to_the_queue_of_its_id_modulo_the_queues(
    broker, settings, django_capture_on_commit_callbacks
):
    settings.TABLE_QUEUES = 4
    with django_capture_on_commit_callbacks(execute=True):
        schedule.advance_now(7)
        schedule.advance_at(8, timezone.now() + timedelta(seconds=0.5))
        schedule.expire_later(7, 70, 12, 30)

    default = settings.CELERY_TASK_DEFAULT_QUEUE
    assert broker.sent == [
        (schedule.TABLE_ADVANCE, (7,), f"{default}-table-3"),
        (schedule.TABLE_ADVANCE, (8,), f"{default}-table-0"),
        (schedule.EXPIRE_ACTION, (70, 12), f"{default}-table-3"),
    ]


def test_the_sweep_wakes_a_table_on_its_own_queue(settings, monkeypatch):
    settings.TABLE_QUEUES = 3
    table = make_table()
    for n in (1, 2):
        seat_sit(
            table_id=table.id,
            player=make_player(bot="station"),
            seat_number=n,
            buy_in=100,
            by_staff=True,
        )
    assert Table.objects.get(pk=table.id).next_hand_at is not None  # due: its task was lost
    woken: list[tuple[tuple[Any, ...], dict[str, Any]]] = []
    monkeypatch.setattr(
        tasks.table_advance, "apply_async", lambda args, **options: woken.append((args, options))
    )

    assert tasks.sweep()["woken"] == 1

    queue = schedule.table_queue(table.id)
    assert woken == [((table.id,), {"queue": queue, "priority": schedule.TABLE_PRIORITY})]
    assert schedule.table_queue(table.id) == (
        f"{settings.CELERY_TASK_DEFAULT_QUEUE}-table-{table.id % 3}"
    )


def test_an_advance_at_a_time_waits_from_when_it_is_sent_not_from_when_it_was_asked(
    broker, monkeypatch, django_capture_on_commit_callbacks
):
    """The pause between hands starts when the hand ends: the time the transaction takes to
    commit after that is taken off the task's countdown, not added to the pause."""
    asked = timezone.now()
    with django_capture_on_commit_callbacks(execute=True):
        schedule.advance_at(7, asked + timedelta(seconds=2))
        schedule.advance_at(8, asked - timedelta(seconds=1))  # already due: at once
        monkeypatch.setattr(schedule.timezone, "now", lambda: asked + timedelta(seconds=0.5))

    assert [name for name, _, _ in broker.sent] == [schedule.TABLE_ADVANCE] * 2
    assert broker.countdowns == [1.5, None]
