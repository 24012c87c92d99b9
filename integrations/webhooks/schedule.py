"""Asking a worker to deliver a subscription's events, always after the current transaction
commits (the deliveries it would send must be visible to it).

The task is sent by name, so the webhooks never import ``integrations.tasks``, which imports
them (``games.services.schedule`` sends the tables' tasks the same way).
"""

from __future__ import annotations

from collections.abc import Iterable

from celery import current_app
from django.db import transaction

WEBHOOK_DELIVER = "integrations.tasks.webhook_deliver"

LATER_BY_TASK_MAX_SECONDS = 60
"""Retries due sooner than this get a countdown task; later ones are found by the sweep
(no long ETAs on the broker)."""


def deliver_after_commit(subscription_ids: Iterable[int]) -> None:
    """Deliver the subscriptions' pending events once the transaction commits."""
    ids = list(subscription_ids)
    transaction.on_commit(lambda: _send(ids))


def retry_after_commit(subscription_id: int, seconds: float) -> None:
    """A failed delivery's retry in ``seconds``: by a countdown task if it is due soon, else
    by beat's sweep (``integrations.tasks.webhook_sweep``)."""
    if seconds <= LATER_BY_TASK_MAX_SECONDS:
        transaction.on_commit(lambda: _send([subscription_id], countdown=seconds))


def _send(subscription_ids: list[int], countdown: float | None = None) -> None:
    for subscription_id in subscription_ids:
        current_app.send_task(WEBHOOK_DELIVER, (subscription_id,), countdown=countdown)
