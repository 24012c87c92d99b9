"""A table's task plays on while no pause separates its hands (``hands.table_play_on``): hand
after hand, each in its own transaction, without a task for each; then it sends the table's
next advance as always. Anything else (a pause, a person to act, a hold) stops it at once.

The transactions commit for real (``transaction=True``), so the tasks the services send after
commit are those the broker would get; they are recorded instead of sent.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import timezone

from games import selectors, tasks
from games.models import Hand, HandStatus, HoldReason, Table
from games.services import hands, schedule
from tests.games.factories import make_player, make_table, seat_players

pytestmark = pytest.mark.django_db(transaction=True)

BUY_IN = 500


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, tuple[Any, ...], float | None]]:
    """The tasks sent to the broker: (name, args, countdown)."""
    calls: list[tuple[str, tuple[Any, ...], float | None]] = []
    monkeypatch.setattr(
        schedule,
        "_send",
        lambda task, args, countdown, **options: calls.append((task, args, countdown)),
    )
    return calls


def _bots_table(pause_ms: int = 0) -> Table:
    table = make_table(pause_ms=pause_ms, seat_count=4)
    seat_players(table, [make_player(bot="station") for _ in range(4)], BUY_IN)
    return table


def _finished(table: Table) -> int:
    return Hand.objects.filter(table=table, status=HandStatus.FINISHED).count()


def _advances(sent: list[tuple[str, tuple[Any, ...], float | None]], table: Table) -> list:
    return [countdown for task, args, countdown in sent if args == (table.id,)]


def _second_advance_raises(monkeypatch: pytest.MonkeyPatch, error: BaseException) -> None:
    """The first advance plays as usual; the second raises ``error`` before it does anything."""
    advance = hands.table_advance
    calls: list[int] = []

    def advance_then_raise(table_id: int) -> str:
        calls.append(table_id)
        if len(calls) == 2:
            raise error
        return advance(table_id)

    monkeypatch.setattr(hands, "table_advance", advance_then_raise)


def test_without_a_pause_one_task_plays_hand_after_hand_and_sends_one_advance_at_the_end(sent):
    table = _bots_table()
    sent.clear()  # seating woke the table

    did = hands.table_play_on(table.id, seconds=0.5)

    assert did == "hand finished"
    assert _finished(table) >= 2
    assert not Hand.objects.filter(table=table, status=HandStatus.RUNNING).exists()
    assert _advances(sent, table) == [None]  # the next hand's, once, due at once


def test_the_task_is_the_one_that_plays_on(sent, monkeypatch):
    table = _bots_table()
    played: list[int] = []
    monkeypatch.setattr(
        hands, "table_play_on", lambda table_id, **kw: played.append(table_id) or "done"
    )

    assert tasks.table_advance(table.id) == "done"
    assert played == [table.id]


def test_with_a_pause_the_task_plays_one_hand_and_sends_the_next_with_its_countdown(sent):
    table = _bots_table(pause_ms=5_000)
    sent.clear()

    assert hands.table_play_on(table.id, seconds=5) == "hand finished"

    assert _finished(table) == 1
    (countdown,) = _advances(sent, table)
    assert countdown is not None and 4 < countdown <= 5


def test_a_table_held_after_its_hand_stops_the_task_and_no_advance_is_sent(sent, monkeypatch):
    """A tournament table is held after a hand its tournament must look at: the task stops,
    and the update pass advances the table when it releases it."""
    table = _bots_table()
    sent.clear()
    settle = hands._settle

    def settle_then_hold(writes, hand, state, seats):
        Table.objects.filter(pk=writes.table.pk).update(hold_reason=HoldReason.AFTER_HAND)
        settle(writes, hand, state, seats)

    monkeypatch.setattr(hands, "_settle", settle_then_hold)

    assert hands.table_play_on(table.id, seconds=5).startswith("held")

    assert _finished(table) == 1
    assert _advances(sent, table) == []


def test_a_person_to_act_stops_the_task_with_their_clock_running(sent):
    table = make_table(pause_ms=0, seat_count=3)
    seat_players(
        table, [make_player(), make_player(bot="station"), make_player(bot="station")], BUY_IN
    )
    sent.clear()

    did = hands.table_play_on(table.id, seconds=5)

    hand = Hand.objects.get(table=table, status=HandStatus.RUNNING)
    assert did == "waiting for a player" and hand.deadline is not None
    assert _advances(sent, table) == []
    assert [task for task, _, _ in sent] == [schedule.EXPIRE_ACTION]


def test_an_error_in_a_later_hand_still_sends_the_advance_kept_for_it(sent, monkeypatch):
    """The hands already played are committed; the one that failed is the sweep's or the
    next task's, which the kept advance sends at once."""
    table = _bots_table()
    sent.clear()
    _second_advance_raises(monkeypatch, RuntimeError("a database error, say"))

    with pytest.raises(RuntimeError):
        hands.table_play_on(table.id, seconds=5)

    assert _finished(table) == 1
    assert _advances(sent, table) == [None]


def test_another_tables_advance_is_sent_as_always_while_a_task_plays_on(sent):
    table, other = _bots_table(), _bots_table()
    sent.clear()

    with schedule.playing_on(table.id) as playing:
        hands.table_advance(other.id)
        assert not playing.kept

    assert _advances(sent, other) == [None]


def test_a_task_killed_between_two_hands_leaves_the_next_one_due_for_the_sweep(sent, monkeypatch):
    table = _bots_table()
    sent.clear()
    _second_advance_raises(monkeypatch, KeyboardInterrupt())  # as far as it gets before SIGKILL

    with pytest.raises(KeyboardInterrupt):
        hands.table_play_on(table.id, seconds=5)

    assert _finished(table) == 1
    assert _advances(sent, table) == []  # nothing got out: only the database knows
    assert table.id in selectors.tables_due(timezone.now())
