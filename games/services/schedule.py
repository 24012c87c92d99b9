"""Enqueueing worker tasks, always after the current transaction commits.

A task enqueued inside an open transaction could run before the commit and find nothing
to do; ``transaction.on_commit`` sends it only once the data it needs is visible. Tasks are
sent by name, so the services never import ``games.tasks`` (which imports them).

A table's tasks (advance, action clock) go to the table's queue when ``TABLE_QUEUES`` is set
(see ``table_queue``): one worker process consumes each such queue, so adding processes adds
throughput and a table's tasks run one after another on one process. Correctness never
depends on it: every task re-checks the table's state under its row lock.

A table's tasks are sent at ``TABLE_PRIORITY``, after the few tasks that unblock many tables
at once (a tournament's update and clock tick, beat's sweeps), which keep the default.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
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


TABLE_PRIORITY = 3
"""The priority of a table's own tasks (its next hand, its action clock). On Redis a queue
hands out its messages of priority 0, every task's default, before those of 3: a tournament's
update, sent as its hands end, then runs before the next hands of the other tables instead of
after them, and the tables it holds (a bust, the level's end) wait for it a fraction of a
second, not the seconds a big field's advances take to drain (a bust's table at 1,000 bots:
173 ms against 846, medians). The embedded broker ignores priorities."""


def table_task_options(table_id: int) -> dict[str, Any]:
    """Where and how a table's task is sent: its queue (``table_queue``), its priority."""
    return {"queue": table_queue(table_id), "priority": TABLE_PRIORITY}


def table_queue(table_id: int) -> str | None:
    """The queue of the table's tasks: ``<default queue>-table-<k>`` with ``k = table_id mod
    TABLE_QUEUES``; None (the default queue) when ``TABLE_QUEUES`` is 0."""
    count = settings.TABLE_QUEUES
    if not count:
        return None
    return f"{settings.CELERY_TASK_DEFAULT_QUEUE}-table-{table_id % count}"


def _send_on_commit(task: str, args: tuple[Any, ...], seconds: float = 0, **options: Any) -> None:
    countdown = max(seconds, 0) or None
    transaction.on_commit(lambda: _send(task, args, countdown, **options))


def _send(task: str, args: tuple[Any, ...], countdown: float | None, **options: Any) -> None:
    """Send the task; with the broker unreachable (Redis restarting) log it and go on: what
    was committed stands, and the beat sweep finds the deadline or the next hand's due time
    written with it (a 500 here would tell the client its committed move had failed)."""
    try:
        current_app.send_task(task, args, countdown=countdown, **options)
    except OperationalError as error:
        logger.warning(
            "%s%s not sent (broker unreachable: %s): the sweep takes it", task, args, error
        )


def advance_now(table_id: int) -> None:
    """Run ``table_advance`` for the table as soon as the transaction commits."""
    _send_on_commit(TABLE_ADVANCE, (table_id,), **table_task_options(table_id))


def advance_at(table_id: int, at: datetime) -> None:
    """Run ``table_advance`` for the table at ``at`` (its next hand's time, after the pause
    between hands that began when the last one ended). The countdown is counted when the
    task is sent, after commit, so the time the transaction takes to end is not added to the
    pause. Due at once while a task plays on at the table (``playing_on``), it is kept for
    that task instead."""

    def send() -> None:
        countdown = max((at - timezone.now()).total_seconds(), 0) or None
        playing = _playing_on.get()
        if countdown is None and playing is not None and playing.table_id == table_id:
            playing.kept = True
            return
        _send(TABLE_ADVANCE, (table_id,), countdown, **table_task_options(table_id))

    transaction.on_commit(send)


@dataclass
class PlayingOn:
    """A task playing on at one table: ``kept``, the table's next advance, due at once, was
    kept for it (``advance_at``) rather than sent."""

    table_id: int
    kept: bool = False


_playing_on: ContextVar[PlayingOn | None] = ContextVar("playing_on", default=None)


@contextmanager
def playing_on(table_id: int) -> Iterator[PlayingOn]:
    """Inside, the table's next advance, when due at once, is kept for the caller, who plays
    that hand itself (and clears ``kept``); one still kept on leaving is sent then, so the
    table never waits for the sweep because its task stopped playing on."""
    playing = PlayingOn(table_id)
    token = _playing_on.set(playing)
    try:
        yield playing
    finally:
        _playing_on.reset(token)
        if playing.kept:
            _send(TABLE_ADVANCE, (table_id,), None, **table_task_options(table_id))


def expire_later(table_id: int, hand_id: int, seq: int, seconds: float) -> None:
    """The action clock's fast path: expire the decision at ``seq`` of the table's hand after
    ``seconds``.

    The deadline itself lives on the hand row; the beat sweep catches a lost timer.
    """
    _send_on_commit(EXPIRE_ACTION, (hand_id, seq), seconds, **table_task_options(table_id))


def floor_fill_now(game_id: int) -> None:
    """Run the floor's pass over a ring game (offers, moves, tables) once the transaction
    commits."""
    _send_on_commit(FLOOR_FILL, (game_id,))


def offer_expire_later(offer_id: int, seconds: float) -> None:
    """A seat offer's fast path: expire it after ``seconds`` if still pending then.

    The deadline itself lives on the offer row; the floor sweep catches a lost timer.
    """
    _send_on_commit(OFFER_EXPIRE, (offer_id,), seconds)
