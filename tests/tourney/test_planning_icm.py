"""ICM and chip-chop deals (tourney.planning.icm)."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tourney.planning.icm import chip_chop, harville_equities, icm, next_payout


def test_three_player_icm_matches_the_hand_computation():
    # Stacks 50/30/20 (100 chips), prizes 50/30/20.
    # A: 1st 50/100 = 1/2; 2nd = P(B 1st)*50/70 + P(C 1st)*50/80 = 3/14 + 1/8 = 19/56;
    #    3rd = 9/56.  E = 50*1/2 + 30*19/56 + 20*9/56 = 25 + 750/56 = 1075/28 (38.39).
    # B: 1st 3/10; 2nd = 1/2*30/50 + 1/5*30/80 = 3/10 + 3/40 = 3/8; 3rd = 13/40.
    #    E = 15 + 45/4 + 13/2 = 131/4 (32.75).
    # C: 1st 1/5; 2nd = 1/2*20/50 + 3/10*20/70 = 1/5 + 3/35 = 2/7; 3rd = 18/35.
    #    E = 10 + 60/7 + 72/7 = 202/7 (28.86).
    assert harville_equities([50, 30, 20], [50, 30, 20]) == [
        Fraction(1075, 28),
        Fraction(131, 4),
        Fraction(202, 7),
    ]
    # x10: 383.93, 327.5, 288.57 -> 383 + 327 + 288 = 998; the 2 left go to the largest
    # remainders (.93 and .57).
    assert icm([50, 30, 20], [500, 300, 200]) == [384, 327, 289]


def test_four_player_icm_matches_the_hand_computation():
    # Stacks 40/30/20/10, prizes 70/30 (two places paid). E = 70*P(1st) + 30*P(2nd), and
    # P(i 2nd) = sum over j != i of s_j/100 * s_i/(100 - s_j).
    # A: P2 = .3*40/70 + .2*40/80 + .1*40/90 = 6/35 + 1/10 + 2/45 = 199/630;
    #    E = 28 + 199/21 = 787/21 (37.48).
    # B: P2 = .4*30/60 + .2*30/80 + .1*30/90 = 1/5 + 3/40 + 1/30 = 37/120; E = 21 + 37/4.
    # C: P2 = .4*20/60 + .3*20/70 + .1*20/90 = 2/15 + 3/35 + 1/45 = 76/315;
    #    E = 14 + 152/21 = 446/21 (21.24).
    # D: P2 = .4*10/60 + .3*10/70 + .2*10/80 = 1/15 + 3/70 + 1/40 = 113/840;
    #    E = 7 + 113/28 = 309/28 (11.04).
    assert harville_equities([40, 30, 20, 10], [70, 30]) == [
        Fraction(787, 21),
        Fraction(121, 4),
        Fraction(446, 21),
        Fraction(309, 28),
    ]
    # x100 in units of 1: 3747.62, 3025, 2123.81, 1103.57 -> floors sum to 9998; the two
    # largest remainders (.81, .62) get one each.
    assert icm([40, 30, 20, 10], [7000, 3000]) == [3748, 3025, 2124, 1103]


def test_icm_sums_to_the_prizes_in_chip_units():
    rng = random.Random(11)
    for players in range(1, 11):
        stacks = [rng.randint(1, 50_000) for _ in range(players)]
        prizes = sorted((rng.randint(0, 400) * 25 for _ in range(players)), reverse=True)
        amounts = icm(stacks, prizes, chip_unit=25)
        assert sum(amounts) == sum(prizes)
        assert all(amount % 25 == 0 for amount in amounts)


def test_equal_stacks_get_equal_equity():
    assert harville_equities([10, 10, 10, 10], [40, 30, 20, 10]) == [Fraction(25)] * 4


def test_icm_refuses_more_than_ten_players():
    with pytest.raises(ValueError, match="at most 10 players, not 11"):
        icm([100] * 11, [500, 300, 200])


def test_deals_refuse_bad_input():
    with pytest.raises(ValueError, match="positive integer stack"):
        icm([100, 0], [60, 40])
    with pytest.raises(ValueError, match="3 prizes for 2 players"):
        chip_chop([100, 50], [60, 30, 10])


def test_a_chip_chop_shares_what_is_above_the_next_payout_by_the_stacks_and_sums_exactly():
    # 200 each locked in, then the 400 left shared 60/30/10.
    assert chip_chop([60, 30, 10], [500, 300, 200]) == [440, 320, 240]
    amounts = chip_chop([7, 5, 1], [700, 400, 200], chip_unit=25)
    # 200 each, then 700 shared 7/5/1: 376.9, 269.2, 53.8 -> 375, 250, 50 and 25 left to
    # the largest remainder (the 19.2 of the second).
    assert amounts == [575, 475, 250]
    amounts = chip_chop([1, 1, 1], [500, 300, 200], chip_unit=25)
    # 200 each, then 133.33 each: 125 each, 25 left -> the first of the equal remainders.
    assert amounts == [350, 325, 325]


def test_a_chip_chop_pays_nothing_below_the_next_payout_when_the_field_outnumbers_the_prizes():
    assert chip_chop([60, 30, 10], [500, 300]) == [480, 240, 80]


@pytest.mark.parametrize("deal", [icm, chip_chop])
def test_a_deal_never_pays_less_than_the_next_payout(deal):
    # The audit's case: 8 left, 9 paid, 8th pays 50; two short stacks were quoted 15 and 20.
    stacks = [40_000, 30_000, 20_000, 10_000, 5_000, 3_000, 300, 400]
    prizes = [1_000, 600, 400, 300, 200, 120, 80, 50]
    amounts = deal(stacks, prizes, 5)
    assert next_payout(stacks, prizes) == 50
    assert min(amounts) >= 50
    assert sum(amounts) == sum(prizes)


@given(
    stacks=st.lists(st.integers(1, 10**6), min_size=2, max_size=7),
    prizes=st.lists(st.integers(0, 10**5), min_size=1, max_size=7),
    unit=st.sampled_from([1, 5, 25, 1000]),
)
def test_every_deal_pays_each_player_at_least_the_next_payout(stacks, prizes, unit):
    prizes = sorted(prizes, reverse=True)[: len(stacks)]
    for deal in (icm, chip_chop):
        amounts = deal(stacks, prizes, unit)
        assert min(amounts) >= next_payout(stacks, prizes)
        assert sum(amounts) == sum(prizes)
