"""Enqueueing worker tasks, always after the current transaction commits.

A task enqueued inside an open transaction could run before the commit and find nothing
to do; ``transaction.on_commit`` sends it only once the data it needs is visible. Tasks are
sent by name, so the services never import ``games.tasks`` (which imports them).

A table's tasks (advance, action clock) go to the table's queue when ``TABLE_QUEUES`` is set
(see ``table_queue``): one worker process consumes each such queue, so adding processes adds
throughput and a table's tasks run one after another on one process. Correctness never
depends on it: every task re-checks the table's state under its row lock.
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any

from celery import current_app
from django.conf import settings
from django.db import transaction
from django.utils import timezone
from kombu.exceptions import OperationalError

TABLE_ADVANCE = "games.tasks.table_advance"
EXPIRE_ACTION = "games.tasks.expire_action"
FLOOR_FILL = "games.tasks.floor_fill"
OFFER_EXPIRE = "games.tasks.offer_expire"

logger = logging.getLogger(__name__)


def table_queue(table_id: int) -> str | None:
    """The queue of the table's tasks: ``<default queue>-table-<k>`` with ``k = table_id mod
    TABLE_QUEUES``; None (the default queue) when ``TABLE_QUEUES`` is 0."""
    count = settings.TABLE_QUEUES
    if not count:
        return None
    return f"{settings.CELERY_TASK_DEFAULT_QUEUE}-table-{table_id % count}"


def _send_on_commit(
    task: str, args: tuple[Any, ...], seconds: float = 0, queue: str | None = None
) -> None:
    countdown = max(seconds, 0) or None
    transaction.on_commit(lambda: _send(task, args, countdown, queue))


def _send_on_commit_at(task: str, args: tuple[Any, ...], at: datetime, queue: str | None) -> None:
    """Send the task after commit to run at ``at``: its countdown is counted when it is sent,
    so the time the transaction takes to end is not added to the wait."""

    def send() -> None:
        _send(task, args, max((at - timezone.now()).total_seconds(), 0) or None, queue)

    transaction.on_commit(send)


def _send(task: str, args: tuple[Any, ...], countdown: float | None, queue: str | None) -> None:
    """Send the task; with the broker unreachable (Redis restarting) log it and go on: what
    was committed stands, and the beat sweep finds the deadline or the next hand's due time
    written with it (a 500 here would tell the client its committed move had failed)."""
    try:
        current_app.send_task(task, args, countdown=countdown, queue=queue)
    except OperationalError as error:
        logger.warning(
            "%s%s not sent (broker unreachable: %s): the sweep takes it", task, args, error
        )


def advance_now(table_id: int) -> None:
    """Run ``table_advance`` for the table as soon as the transaction commits."""
    _send_on_commit(TABLE_ADVANCE, (table_id,), queue=table_queue(table_id))


def advance_at(table_id: int, at: datetime) -> None:
    """Run ``table_advance`` for the table at ``at`` (its next hand's time, after the pause
    between hands that began when the last one ended)."""
    _send_on_commit_at(TABLE_ADVANCE, (table_id,), at, table_queue(table_id))


def expire_later(table_id: int, hand_id: int, seq: int, seconds: float) -> None:
    """The action clock's fast path: expire the decision at ``seq`` of the table's hand after
    ``seconds``.

    The deadline itself lives on the hand row; the beat sweep catches a lost timer.
    """
    _send_on_commit(EXPIRE_ACTION, (hand_id, seq), seconds, table_queue(table_id))


def floor_fill_now(game_id: int) -> None:
    """Run the floor's pass over a ring game (offers, moves, tables) once the transaction
    commits."""
    _send_on_commit(FLOOR_FILL, (game_id,))


def offer_expire_later(offer_id: int, seconds: float) -> None:
    """A seat offer's fast path: expire it after ``seconds`` if still pending then.

    The deadline itself lives on the offer row; the floor sweep catches a lost timer.
    """
    _send_on_commit(OFFER_EXPIRE, (offer_id,), seconds)
