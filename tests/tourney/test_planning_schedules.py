"""Ante schedules (tourney.planning.schedules): validation and generation."""

from __future__ import annotations

from fractions import Fraction
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tourney.planning.schedules import Break, Level, Schedule, generate_schedule


def test_a_level_refuses_a_bring_in_not_below_the_small_bet():
    with pytest.raises(ValueError, match=r"bring-in \(40\) must be below the small bet \(40\)"):
        Level("stud_hi", 10, 40, 40, 80, 20)


def test_a_level_refuses_a_small_bet_above_the_big_bet():
    with pytest.raises(ValueError, match=r"small bet \(100\) must not exceed the big bet \(80\)"):
        Level("stud_hi", 10, 20, 100, 80, 20)


@pytest.mark.parametrize("field", ["ante", "bring_in", "small_bet", "big_bet", "minutes"])
def test_a_level_refuses_amounts_that_are_not_positive_integers(field):
    values = {"ante": 10, "bring_in": 20, "small_bet": 80, "big_bet": 160, "minutes": 20}
    for bad in (0, -5, 2.5, True):
        with pytest.raises(ValueError, match=f"{field} must be a positive integer"):
            Level("razz", **{**values, field: bad})


def test_a_level_refuses_an_unknown_game():
    with pytest.raises(ValueError, match="unknown game 'holdem'"):
        Level("holdem", 10, 20, 80, 160, 20)


def test_a_schedule_refuses_amounts_off_the_chip_unit():
    level = Level("stud_8", 15, 25, 100, 200, 20)
    with pytest.raises(ValueError, match="level 1: ante 15 is not a multiple of the chip unit 10"):
        Schedule((level,), chip_unit=10)
    with pytest.raises(ValueError, match="at least one level"):
        Schedule((Break(10),), chip_unit=5)


def test_a_schedule_refuses_to_end_with_a_break():
    level = Level("stud_hi", 10, 20, 100, 200, 20)
    with pytest.raises(ValueError, match="a schedule ends with a level, not a break"):
        Schedule((level, Break(10)), chip_unit=5)


def test_the_walkthrough_schedule_sunday_3k_ends_with_a_level():
    schedule = generate_schedule(3000, 20, 4, 5)
    assert isinstance(schedule.entries[-1], Level)
    assert schedule.entries[-2] == Break(10)


def test_generation_refuses_a_stack_too_small_for_the_chip_unit():
    with pytest.raises(ValueError, match="starting stack of 1500 is too small"):
        generate_schedule(1500, 20, 4, 25)


def test_a_known_schedule():
    schedule = generate_schedule(10_000, 20, 3, 25, break_every=4, break_minutes=10)
    first = schedule.levels[:4]
    assert first == (
        Level("stud_hi", 25, 50, 200, 400, 20),
        Level("stud_hi", 50, 75, 250, 500, 20),
        Level("stud_hi", 50, 100, 350, 700, 20),
        Level("stud_hi", 100, 150, 500, 1000, 20),
    )
    assert schedule.entries[4] == Break(10)
    # 3 hours x 1.5 = 270 minutes: 12 levels of 20 and 2 breaks of 10 make 260, and the third
    # break comes with the 13th level (a schedule never ends with a break).
    assert schedule.total_minutes == 290
    assert (len(schedule.levels), schedule.entries[-2:]) == (
        13,
        (Break(10), Level("stud_hi", 2000, 2500, 10_000, 20_000, 20)),
    )


def test_mixed_games_rotate_by_level():
    schedule = generate_schedule(5000, 15, 2, 5, games=("stud_hi", "razz", "stud_8"))
    assert [level.game for level in schedule.levels[:5]] == [
        "stud_hi",
        "razz",
        "stud_8",
        "stud_hi",
        "razz",
    ]


def test_generation_refuses_more_levels_than_make_sense():
    with pytest.raises(ValueError, match="more than 120 levels: use longer levels"):
        generate_schedule(10_000, 5, 24, 25)


@settings(max_examples=100, deadline=None)
@given(
    chip_unit=st.sampled_from([1, 2, 5, 10, 25, 100, 3, 7]),
    stack_units=st.integers(300, 100_000),
    level_minutes=st.integers(10, 90),
    target_hours=st.integers(1, 12),
    break_every=st.one_of(st.none(), st.integers(1, 8)),
)
def test_generated_schedules_keep_every_ratio_in_range(
    chip_unit, stack_units, level_minutes, target_hours, break_every
):
    stack = stack_units * chip_unit
    schedule = generate_schedule(
        stack, level_minutes, target_hours, chip_unit, break_every=break_every
    )
    levels = schedule.levels
    assert schedule.total_minutes >= target_hours * 60
    assert Fraction(stack, 100) <= levels[0].small_bet <= Fraction(stack, 50)
    for level in levels:
        assert level.big_bet == 2 * level.small_bet
        assert Fraction(1, 10) <= Fraction(level.ante, level.small_bet) <= Fraction(1, 5)
        assert Fraction(1, 4) <= Fraction(level.bring_in, level.small_bet) <= Fraction(1, 3)
        assert all(amount % chip_unit == 0 for amount in level.amounts().values())
    for before, after in pairwise(levels):
        assert Fraction(5, 4) <= Fraction(after.small_bet, before.small_bet) <= Fraction(3, 2)
        assert after.ante >= before.ante
        assert after.bring_in >= before.bring_in
    assert isinstance(schedule.entries[-1], Level)
    if break_every is not None:
        for index, entry in enumerate(schedule.entries):
            if isinstance(entry, Break):
                assert isinstance(schedule.entries[index - 1], Level)
