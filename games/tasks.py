"""Celery tasks of the tables side: thin, idempotent wrappers around the services.

Each takes ids, re-checks the state under the table lock and returns early when the work
is done or stale, so a duplicate, late or redelivered run changes nothing.
"""

from __future__ import annotations

from dataclasses import asdict
from functools import partial

from celery import shared_task
from django.utils import timezone

from games import floor_selectors, selectors, task_failures
from games.services import hands, offers, schedule


@shared_task(acks_late=True)
def table_advance(table_id: int) -> str:
    """Deal, let bots act, settle and start hands at one table (several in a row when no
    pause separates them, ``hands.table_play_on``)."""
    return hands.table_play_on(table_id)


@shared_task(acks_late=True)
def expire_action(hand_id: int, seq: int | None) -> str:
    """The action clock of one decision ran out (fast path)."""
    return hands.hand_expire(hand_id=hand_id, seq=seq)


@shared_task
def sweep() -> dict[str, int]:
    """Beat's safety net: expire overdue decisions whose timer was lost, and wake tables
    whose next hand is due (a lost advance task).

    Each table is swept on its own (its own transaction): one that fails is logged once and
    reported by /healthz, and never holds back the others.
    """
    now = timezone.now()
    overdue = selectors.hands_overdue(now)
    failed = 0
    for hand_id, table_id in overdue:
        failed += not task_failures.attempt(
            key=f"sweep:table:{table_id}",
            what=f"the sweep of table {table_id} (hand {hand_id})",
            work=partial(hands.hand_expire, hand_id=hand_id, seq=None),
        )
    due = selectors.tables_due(now)
    for table_id in due:
        failed += not task_failures.attempt(
            key=f"sweep:wake:{table_id}",
            what=f"waking table {table_id} for its next hand",
            work=partial(
                table_advance.apply_async, (table_id,), **schedule.table_task_options(table_id)
            ),
        )
    return {"expired": len(overdue), "woken": len(due), "failed": failed}


@shared_task(acks_late=True)
def floor_fill(game_id: int) -> dict[str, int]:
    """The floor's pass over one ring game: offers, moves, tables (see games.services.offers)."""
    return asdict(offers.game_fill(game_id=game_id))


@shared_task(acks_late=True)
def offer_expire(offer_id: int) -> str:
    """A seat offer's deadline passed (fast path); the sweep catches a lost one."""
    return offers.offer_expire(offer_id=offer_id)


@shared_task
def floor_sweep() -> dict[str, int]:
    """Beat's safety net for the floor: a pass over each game that may need one, which
    expires overdue offers and offers seats whose task was lost."""
    games = floor_selectors.games_needing_a_pass()
    failed = 0
    for game_id in games:
        failed += not task_failures.attempt(
            key=f"sweep:floor:{game_id}",
            what=f"the floor's pass over game {game_id}",
            work=partial(offers.game_fill, game_id=game_id),
        )
    return {"games": len(games), "failed": failed}
