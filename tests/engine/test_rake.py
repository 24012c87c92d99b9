"""Rake as a pure post-settlement step: the amount (percentage, cap, minimum pot, third
street), the winners' parts, and a hand history that replays to the raked stacks."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.engine.phh import dump_phh, finishing_stacks_match, load_phh, replay_phh
from games.engine.rake import RakeRule, hand_rake, hand_won, rake_amount, rake_shares
from games.engine.rules import Rules, Stakes
from tests.engine.helpers import STAKES, stacked_hand

RULE = RakeRule(basis_points=1000, cap=5, min_pot=4)


@pytest.mark.parametrize(
    ("pot", "third", "expected"),
    [(3, False, 0), (4, False, 0), (10, False, 1), (39, False, 3), (100, False, 5), (40, True, 0)],
)
def test_rake_amount_percentage_cap_minimum_pot_and_third_street(pot, third, expected):
    assert rake_amount(RULE, pot=pot, ended_on_third_street=third) == expected


def test_third_street_is_raked_when_the_table_says_so():
    rule = RakeRule(basis_points=1000, third_street=True)
    assert rake_amount(rule, pot=40, ended_on_third_street=True) == 4


def test_a_rule_outside_its_range_is_refused():
    with pytest.raises(ValueError):
        RakeRule(basis_points=10_001)


@given(st.integers(0, 10_000), st.lists(st.integers(0, 10_000), min_size=2, max_size=8))
def test_shares_add_up_and_never_exceed_what_each_won(amount, won):
    amount = min(amount, sum(won))
    shares = rake_shares(amount, won)
    assert sum(shares) == amount
    assert all(0 <= s <= w for s, w in zip(shares, won, strict=True))


@given(
    st.integers(0, 2_000),
    st.lists(st.integers(0, 2_000), min_size=2, max_size=8),
    st.sampled_from([5, 25, 100]),
    st.integers(0, 99),
)
def test_shares_in_a_chip_unit_are_whole_chips_of_it(units, won_units, unit, extra):
    # Awards are whole chips of the smallest chip in play, and so are the rake's parts; a
    # part of a chip (only from a recorded history) goes to one player, within what they won
    won = [w * unit for w in won_units]
    amount = min(units * unit + extra % unit, sum(won))
    shares = rake_shares(amount, won, unit)
    assert sum(shares) == amount
    assert all(0 <= s <= w for s, w in zip(shares, won, strict=True))
    assert sum(1 for s in shares if s % unit) == (1 if amount % unit else 0)


def test_a_part_of_a_chip_goes_to_a_winner_with_room_for_it():
    # A recorded history may give a rake that is not whole chips of its unit
    assert rake_shares(3, won=[0, 20], unit=5) == [0, 3]
    assert rake_shares(8, won=[10, 40, 0], unit=5) == [0, 8, 0]


def test_the_rake_is_rounded_down_to_the_smallest_chip():
    rule = RakeRule(basis_points=1_000, cap=23)
    assert rake_amount(rule, pot=190, ended_on_third_street=False, unit=5) == 15
    assert rake_amount(rule, pot=400, ended_on_third_street=False, unit=5) == 20


def _folded_on_third():
    stakes = Stakes(ante=10, bring_in=5, small_bet=20, big_bet=40)
    hand = stacked_hand(Rules(), stakes, [500, 500], {0: "AsKd 2c", 1: "QhQd 9s"})
    hand.act("bring_in").act("complete").act("fold")
    return hand.state


def _to_showdown():
    hand = stacked_hand(
        Rules(), STAKES, [50, 50], {0: "AsKd2c 3c 4d 5h 9c", 1: "QhQd9s 9h 9d Ts Th"}
    )
    hand.act("bring_in").act("call")
    for _ in range(4):
        hand.act("check").act("check")
    return hand.state


def test_no_rake_when_the_hand_ends_on_third_street_by_default():
    state = _folded_on_third()
    assert state.is_over and sum(hand_won(state)) > 0
    assert hand_rake(RakeRule(basis_points=1000), state) == [0, 0]
    assert sum(hand_rake(RakeRule(basis_points=1000, third_street=True), state)) > 0


def test_a_raked_history_replays_to_the_raked_stacks():
    state = _to_showdown()
    shares = hand_rake(RakeRule(basis_points=1000), state)
    assert sum(shares) == 0 or sum(shares) == sum(hand_won(state)) // 10
    text = dump_phh(state, rake=sum(shares))
    phh = load_phh(text)
    assert phh.rake == sum(shares)
    assert list(phh.finishing_stacks) == [
        p.stack - s for p, s in zip(state.players, shares, strict=True)
    ]
    assert finishing_stacks_match(phh, replay_phh(phh)) is True
