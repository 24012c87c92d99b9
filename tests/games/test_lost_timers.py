"""Duplicate, late and lost timers, and a worker that died after a human decision.

These run in-process (no worker): a test transaction never commits, so no task is ever sent,
which is exactly a lost timer or a worker that died before advancing; the tests call the
tasks as the countdown or the beat sweep would. (A worker killed in the middle of a hand is
tests/e2e/test_tables_faults.py, on real worker processes.)
"""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from django.utils import timezone

from games import selectors, tasks
from games.models import Hand, HandStatus, Seat, Table, TableEvent
from games.services import hands
from tests.games.factories import make_player, make_table, seat_players
from tests.games.test_api_support import table_state

BUY_IN = 200
LONG_PAUSE_MS = 600_000  # no next hand (and no sweep wake-up) during a timer test


def _heads_up(**table_options: int) -> tuple[Table, Hand]:
    """alice (seat 1) and bob (seat 2), both human; the worker's first run is done."""
    table = make_table(pause_ms=LONG_PAUSE_MS, **table_options)
    seat_players(table, [make_player("alice"), make_player("bob")], BUY_IN)
    assert hands.table_advance(table.id) == "waiting for a player"
    hand = selectors.running_hand(table)
    assert hand is not None
    return table, hand


def _state(hand: Hand):
    return selectors.hand_state(Hand.objects.get(pk=hand.id))


def _seq(table: Table) -> int:
    return Table.objects.get(pk=table.id).seq


def _act(table: Table, hand: Hand, action: str) -> int:
    """The player to act takes ``action`` through the service, as the API would; returns
    their index."""
    state = _state(hand)
    actor = state.candidates[0]
    option = next(o for o in state.legal_actions() if o.action == action)
    player_id = hand.lineup[actor]["player"]
    player = Seat.objects.get(table=table, player_id=player_id).player
    assert player is not None
    hands.hand_act(
        table_id=table.id, player=player, action=action, amount=option.to, seq=_seq(table)
    )
    return actor


def _overdue(hand: Hand) -> None:
    Hand.objects.filter(pk=hand.id).update(deadline=timezone.now() - timedelta(seconds=1))


def _actions(hand: Hand) -> list[tuple[int, str]]:
    return [(e["player"], e["action"]) for e in _state(hand).log if e["type"] == "action"]


def _timeouts(table: Table) -> int:
    return TableEvent.objects.filter(table=table, kind="timeout").count()


@pytest.mark.django_db
def test_a_duplicate_expire_task_changes_nothing():
    table, hand = _heads_up()
    actor = _state(hand).candidates[0]
    seq = _seq(table)
    _overdue(hand)

    first = tasks.expire_action(hand.id, seq)
    after_first = table_state(table.id)
    second = tasks.expire_action(hand.id, seq)

    assert first == "waiting for a player"
    assert second == "stale timer"
    assert table_state(table.id) == after_first
    assert _actions(hand) == [(actor, "bring_in")]  # the forced bring-in, posted for them
    assert _timeouts(table) == 1


@pytest.mark.django_db
def test_a_late_expire_task_after_the_player_acted_changes_nothing():
    table, hand = _heads_up()
    seq_when_the_clock_started = _seq(table)
    actor = _act(table, hand, "bring_in")
    _overdue(hand)  # even past the deadline, the old seq alone must stop it
    before = table_state(table.id)

    outcome = tasks.expire_action(hand.id, seq_when_the_clock_started)

    assert outcome == "stale timer"
    assert table_state(table.id) == before
    assert _actions(hand) == [(actor, "bring_in")]
    assert _timeouts(table) == 0


@pytest.mark.django_db
def test_an_expire_task_before_the_deadline_changes_nothing():
    table, hand = _heads_up()
    before = table_state(table.id)

    assert tasks.expire_action(hand.id, _seq(table)) == "not due"

    assert table_state(table.id) == before


@pytest.mark.django_db
def test_a_lost_timer_is_caught_by_the_sweep_which_checks_for_the_player():
    table, hand = _heads_up(action_seconds=1)
    _act(table, hand, "bring_in")
    _act(table, hand, "call")  # third street is over
    assert hands.table_advance(table.id) == "waiting for a player"  # fourth street dealt
    waiting = _state(hand).candidates[0]
    assert "check" in [o.action for o in _state(hand).legal_actions()]
    assert tasks.sweep() == {"expired": 0, "woken": 0, "failed": 0}  # the clock is still running

    time.sleep(1.1)  # the one-second clock runs out; its countdown task was never sent
    swept = tasks.sweep()

    assert swept == {"expired": 1, "woken": 0, "failed": 0}
    assert _actions(hand)[-1] == (waiting, "check")
    assert _timeouts(table) == 1
    assert Seat.objects.get(table=table, number=waiting + 1).sitting_out
    state = _state(hand)
    assert state.candidates == (1 - waiting,)  # the hand goes on: the other player's turn
    assert Hand.objects.get(pk=hand.id).deadline > timezone.now()


@pytest.mark.django_db
def test_a_lost_timer_facing_a_bet_folds_the_player_and_the_hand_ends():
    table, hand = _heads_up()
    bringer = _act(table, hand, "bring_in")
    assert hands.table_advance(table.id) == "waiting for a player"  # the other's clock
    _overdue(hand)

    assert tasks.sweep() == {"expired": 1, "woken": 0, "failed": 0}

    assert _actions(hand) == [(bringer, "bring_in"), (1 - bringer, "fold")]
    finished = Hand.objects.get(pk=hand.id)
    assert finished.status == HandStatus.FINISHED
    stacks = dict(Seat.objects.filter(table=table).values_list("number", "stack"))
    assert stacks[bringer + 1] == BUY_IN + table.ante  # the other's ante; bring-in returned
    assert stacks[2 - bringer] == BUY_IN - table.ante


@pytest.mark.django_db
def test_the_sweep_moves_on_a_hand_whose_worker_died_after_a_human_decision_at_a_new_street():
    table, hand = _heads_up()
    _act(table, hand, "bring_in")
    hands.table_advance(table.id)
    _act(table, hand, "call")  # the worker that should deal fourth street never runs
    assert _state(hand).next_deal is not None
    assert tasks.sweep() == {"expired": 0, "woken": 0, "failed": 0}  # within the worker's grace
    _overdue(hand)

    assert tasks.sweep() == {"expired": 1, "woken": 0, "failed": 0}

    state = _state(hand)
    assert state.street_name == "fourth" and state.next_deal is None
    assert len(state.candidates) == 1
    assert _timeouts(table) == 0
    assert Hand.objects.get(pk=hand.id).deadline > timezone.now() + timedelta(seconds=20)


@pytest.mark.django_db
def test_the_sweep_gives_the_next_player_a_full_clock_when_the_worker_died_after_a_decision():
    table, hand = _heads_up(action_seconds=30)
    bringer = _act(table, hand, "bring_in")  # the worker that should start bob's clock dies
    _overdue(hand)  # the worker's grace is over, not the next player's clock

    assert tasks.sweep() == {"expired": 1, "woken": 0, "failed": 0}

    assert _actions(hand) == [(bringer, "bring_in")]
    assert _timeouts(table) == 0
    assert not Seat.objects.filter(table=table, sitting_out=True).exists()
    assert _state(hand).candidates == (1 - bringer,)
    assert Hand.objects.get(pk=hand.id).deadline > timezone.now() + timedelta(seconds=20)
