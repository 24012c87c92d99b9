"""Deliveries are asked of a worker after commit, by the task's name (the webhooks never
import ``integrations.tasks``, which imports them: no import cycle)."""

from __future__ import annotations

from typing import Any

import pytest
from celery import current_app

from integrations.webhooks import schedule

pytestmark = pytest.mark.django_db


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, tuple[Any, ...], Any]]:
    calls: list[tuple[str, tuple[Any, ...], Any]] = []

    def send_task(name: str, args: tuple[Any, ...], countdown: Any = None) -> None:
        calls.append((name, args, countdown))

    monkeypatch.setattr(current_app, "send_task", send_task)
    return calls


def test_the_task_sent_by_name_is_the_delivery_task():
    import integrations.tasks

    assert integrations.tasks.webhook_deliver.name == schedule.WEBHOOK_DELIVER
    assert schedule.WEBHOOK_DELIVER in current_app.tasks


def test_deliveries_are_asked_for_only_once_the_transaction_commits(
    sent, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        schedule.deliver_after_commit(iter([3, 5]))
        assert sent == []
    assert len(callbacks) == 1
    assert sent == [(schedule.WEBHOOK_DELIVER, (3,), None), (schedule.WEBHOOK_DELIVER, (5,), None)]


def test_a_retry_due_soon_is_a_countdown_task_and_a_later_one_is_left_to_the_sweep(
    sent, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        schedule.retry_after_commit(7, 8.0)
        schedule.retry_after_commit(7, schedule.LATER_BY_TASK_MAX_SECONDS + 1)
    assert sent == [(schedule.WEBHOOK_DELIVER, (7,), 8.0)]
