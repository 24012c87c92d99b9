"""The beat sweep is every table's safety net: one stuck table never holds back the others, and
a failure is logged once, not at every run (issue 8, defect 12 and suite item 3)."""

from __future__ import annotations

import logging
from datetime import timedelta

import pytest
from django.core.cache import cache
from django.utils import timezone

from games import task_failures, tasks
from games.models import Hand, HandStatus, TableEvent
from games.services import hands
from games.services.seating import seat_sit
from tests.games.factories import make_player, make_table

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _no_failures_from_other_tests():
    cache.delete(task_failures.CACHE_KEY)


def _table_waiting_for_a_human():
    table = make_table(action_seconds=30)
    for n in (1, 2):
        seat_sit(table_id=table.id, player=make_player(), seat_number=n, buy_in=100)
    assert hands.table_advance(table.id) == "waiting for a player"
    hand = Hand.objects.get(table=table, status=HandStatus.RUNNING)
    return table, hand


def _overdue(hand: Hand, seconds: float) -> None:
    Hand.objects.filter(pk=hand.pk).update(deadline=timezone.now() - timedelta(seconds=seconds))


def _break(hand: Hand) -> None:
    """A hand whose state cannot be read: every attempt to move it on raises."""
    Hand.objects.filter(pk=hand.pk).update(snapshot={"broken": True})


def test_a_stuck_hand_does_not_stop_the_sweep_of_other_tables(caplog):
    # Given two overdue hands, the older one at a table whose hand raises when moved on
    stuck_table, stuck = _table_waiting_for_a_human()
    table, hand = _table_waiting_for_a_human()
    _break(stuck)
    _overdue(stuck, 10)
    _overdue(hand, 1)

    # When the sweep runs three times (6 s of beat)
    caplog.set_level(logging.INFO, logger="games.task_failures")
    results = [tasks.sweep() for _ in range(3)]

    # Then the healthy table's player was timed out at the first run, the stuck one was
    # retried every time, and the failure was logged once, naming the table
    assert results[0] == {"expired": 2, "woken": 0, "failed": 1}
    assert TableEvent.objects.filter(table=table, kind="timeout").count() == 1
    assert not TableEvent.objects.filter(table=stuck_table, kind="timeout").exists()
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(errors) == 1
    assert f"the sweep of table {stuck_table.id}" in errors[0].getMessage()
    assert errors[0].exc_info is not None
    [failure] = task_failures.failures_now()
    assert failure["count"] == 3
    assert failure["key"] == f"sweep:table:{stuck_table.id}"


def test_a_sweep_failure_that_is_over_is_forgotten_and_logged_once_as_over(caplog):
    table, hand = _table_waiting_for_a_human()
    snapshot = hand.snapshot
    _break(hand)
    _overdue(hand, 1)
    tasks.sweep()
    assert task_failures.failures_now()

    Hand.objects.filter(pk=hand.pk).update(snapshot=snapshot)  # staff repaired the hand
    caplog.set_level(logging.INFO, logger="games.task_failures")
    tasks.sweep()

    assert task_failures.failures_now() == []
    assert [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING] == [
        f"the sweep of table {table.id} (hand {hand.pk}) works again after 1 failures in 0 s"
    ]
