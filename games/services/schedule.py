"""Enqueueing worker tasks, always after the current transaction commits.

A task enqueued inside an open transaction could run before the commit and find nothing
to do; ``transaction.on_commit`` sends it only once the data it needs is visible.
"""

from __future__ import annotations

from django.db import transaction


def advance_now(table_id: int) -> None:
    """Run ``table_advance`` for the table as soon as the transaction commits."""
    from games import tasks

    transaction.on_commit(lambda: tasks.table_advance.delay(table_id))


def advance_later(table_id: int, seconds: float) -> None:
    """Run ``table_advance`` after ``seconds`` (the pause between hands)."""
    from games import tasks

    transaction.on_commit(
        lambda: tasks.table_advance.apply_async((table_id,), countdown=max(seconds, 0))
    )


def expire_later(hand_id: int, seq: int, seconds: float) -> None:
    """The action clock's fast path: expire the decision at ``seq`` after ``seconds``.

    The deadline itself lives on the hand row; the beat sweep catches a lost timer.
    """
    from games import tasks

    transaction.on_commit(
        lambda: tasks.expire_action.apply_async((hand_id, seq), countdown=max(seconds, 0))
    )


def floor_fill_now(game_id: int) -> None:
    """Run the floor for a ring game (offers, moves, tables) once the transaction commits."""
    from games import tasks

    transaction.on_commit(lambda: tasks.floor_fill.delay(game_id))


def offer_expire_later(offer_id: int, seconds: float) -> None:
    """A seat offer's fast path: expire it after ``seconds`` if still pending then.

    The deadline itself lives on the offer row; the floor sweep catches a lost timer.
    """
    from games import tasks

    transaction.on_commit(
        lambda: tasks.offer_expire.apply_async((offer_id,), countdown=max(seconds, 0))
    )
