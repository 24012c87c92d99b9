"""The colour-up chip race (tourney.planning.chip_race): TDA 23 by example, then random
stacks."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tourney.planning.chip_race import check_units, chips_to_race, race


def test_odd_chips_are_pooled_and_raced_half_up_at_most_one_chip_a_player():
    # odd chips: 5, 15, 10, 20 -> 50 -> two chips of 25, to two different players
    stacks = {1: 1005, 2: 990, 3: 1010, 4: 995, 5: 1000}
    result = race(stacks, old_unit=5, new_unit=25, rng=random.Random(3))
    assert len(result.winners) == 2 == len(set(result.winners))
    assert set(result.winners) <= {1, 2, 3, 4}
    assert result.stacks[5] == 1000
    for seat, stack in stacks.items():
        assert result.stacks[seat] == stack - stack % 25 + (25 if seat in result.winners else 0)
    assert result.removed == 0


def test_a_remainder_of_less_than_half_a_chip_leaves_play():
    result = race({1: 1010, 2: 1000}, old_unit=5, new_unit=25, rng=random.Random(1))
    assert result.stacks == {1: 1000, 2: 1000} and result.removed == 10


def test_a_remainder_of_half_a_chip_or_more_is_raced():
    assert chips_to_race(24, 50) == 0 and chips_to_race(25, 50) == 1 and chips_to_race(74, 50) == 1


def test_nobody_is_raced_out():
    # two players with only odd chips (5 + 5 < half of 25): nobody wins, both get a chip
    result = race({1: 5, 2: 5, 3: 100}, old_unit=5, new_unit=25, rng=random.Random(1))
    assert result.stacks == {1: 25, 2: 25, 3: 100}
    assert result.not_raced_out == (1, 2)
    assert result.removed == -40


def test_more_odd_chips_give_more_chances():
    wins = 0
    for seed in range(400):
        result = race({1: 20, 2: 5, 3: 100}, old_unit=5, new_unit=25, rng=random.Random(seed))
        wins += 1 in result.winners
    assert 260 < wins < 380  # seat 1 holds 4 of the 5 tickets: wins about 80%


@pytest.mark.parametrize(("old", "new"), [(5, 5), (5, 3), (5, 12), (25, 5), (0, 5)])
def test_the_new_unit_is_a_larger_multiple(old, new):
    with pytest.raises(ValueError):
        check_units(old, new)


def test_stacks_must_be_in_the_old_unit():
    with pytest.raises(ValueError):
        race({1: 1003}, old_unit=5, new_unit=25, rng=random.Random(1))


@settings(max_examples=300, deadline=None)
@given(
    units=st.sampled_from([(1, 5), (5, 25), (25, 100), (5, 10), (100, 500)]),
    counts=st.lists(st.integers(min_value=1, max_value=2000), min_size=1, max_size=8),
    seed=st.integers(min_value=0, max_value=2**32),
)
def test_random_races_keep_their_promises(units, counts, seed):
    old, new = units
    stacks = {seat: count * old for seat, count in enumerate(counts, start=1)}
    result = race(stacks, old_unit=old, new_unit=new, rng=random.Random(seed))
    odd_total = sum(stack % new for stack in stacks.values())
    assert sum(result.stacks.values()) + result.removed == sum(stacks.values())
    assert len(result.winners) == len(set(result.winners)) == chips_to_race(odd_total, new)
    for seat, stack in stacks.items():
        after = result.stacks[seat]
        assert after % new == 0 and after >= new
        assert after in (stack - stack % new, stack - stack % new + new)
        kept = stack - stack % new
        if seat in result.not_raced_out:
            assert kept == 0 and seat not in result.winners and after == new
        else:
            assert after == kept + (new if seat in result.winners else 0)
    # the race moves fewer than one new chip per table, plus the chips nobody loses out on
    assert -new * len(result.not_raced_out) - new < result.removed < new
