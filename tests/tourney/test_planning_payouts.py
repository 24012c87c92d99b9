"""Prize pools, payout structures and shared places (tourney.planning.payouts)."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from itertools import pairwise

import pytest

from tourney.planning.payouts import (
    PayoutStructure,
    default_structure,
    payouts,
    places_of_eliminated,
    places_paid,
    prize_pool,
    shared_prizes,
    structure_from_percentages,
)


def test_the_prize_pool_is_everything_paid_in_minus_the_fees():
    pool = prize_pool(
        entries=100,
        buy_in=110,
        fee=10,
        re_entries=20,
        rebuys=30,
        rebuy_price=55,
        rebuy_fee=5,
        add_ons=40,
        add_on_price=100,
    )
    assert pool == 120 * 100 + 30 * 50 + 40 * 100


def test_a_fee_above_its_price_is_refused():
    with pytest.raises(ValueError, match="fee"):
        prize_pool(entries=10, buy_in=10, fee=11)
    with pytest.raises(ValueError, match="entries must be a non-negative integer"):
        prize_pool(entries=-1, buy_in=10)


@pytest.mark.parametrize(
    ("entrants", "paid"),
    [
        (2, 1),
        (3, 1),
        (5, 1),
        (6, 2),
        (9, 2),
        (10, 3),
        (20, 3),
        (23, 3),
        (24, 4),
        (100, 15),
        (1000, 150),
        (10_000, 1500),
    ],
)
def test_about_fifteen_percent_of_the_field_is_paid(entrants, paid):
    assert places_paid(entrants) == paid
    assert default_structure(entrants).places == paid


def test_payouts_sum_to_the_pool_for_every_field_from_2_to_10000():
    buy_in = 100  # 1.5 buy-ins is 150, a whole number of chip units
    for entrants in range(2, 10_001):
        pool = entrants * buy_in
        amounts = payouts(pool, default_structure(entrants), chip_unit=5)
        assert sum(amounts) == pool, entrants
        assert all(a >= b for a, b in pairwise(amounts)), entrants
        assert amounts[-1] >= 150, entrants
        assert all(amount % 5 == 0 for amount in amounts), entrants


def test_the_min_cash_holds_when_it_is_not_a_whole_number_of_units():
    # 1.5 buy-ins of 25 is 37.5: the min-cash is the largest amount in units below it, or more.
    for entrants in (10, 57, 333, 4321):
        amounts = payouts(entrants * 25, default_structure(entrants), chip_unit=5)
        assert amounts[-1] >= 35


def test_the_top_is_steep():
    fractions = default_structure(10).fractions()
    assert fractions == (Fraction(45, 100), Fraction(30, 100), Fraction(25, 100))
    big = default_structure(10_000).fractions()
    assert Fraction(9, 100) < big[0] < Fraction(11, 100)  # the winner takes ~10%
    min_cash = Fraction(3, 2 * 10_000)  # 1.5 buy-ins
    # Above the min-cash, place i gets 1/i of the winner's extra: the 2nd exactly half.
    assert big[0] - min_cash == 2 * (big[1] - min_cash)
    assert min_cash < big[-1] < 2 * min_cash


def test_the_rounding_remainder_goes_to_first_place():
    assert payouts(1003, ["50", "30", "20"], chip_unit=10) == [503, 300, 200]
    assert payouts(1000, [Fraction(100, 3), Fraction(100, 3), Fraction(100, 3)], 25) == [
        350,
        325,
        325,
    ]


def test_custom_percentages_must_sum_to_100_and_not_increase():
    assert structure_from_percentages([60, "25.5", Decimal("14.5")]).fractions() == (
        Fraction(60, 100),
        Fraction(255, 1000),
        Fraction(145, 1000),
    )
    with pytest.raises(ValueError, match="sum to 99"):
        structure_from_percentages([50, 30, 19])
    with pytest.raises(ValueError, match="lower place cannot pay more"):
        structure_from_percentages([40, 60])
    with pytest.raises(ValueError, match="exact"):
        structure_from_percentages([50.0, 50])
    with pytest.raises(ValueError, match="positive integer share"):
        PayoutStructure((3, 0))


def test_tied_players_share_their_places_prizes_with_odd_units_by_draw_order():
    shares = shared_prizes([500, 300, 200], ["bob", "ann", "cy"], chip_unit=25)
    # 1000 is 40 units: 13 each and one odd unit to the first player of the draw.
    assert shares == {"bob": 350, "ann": 325, "cy": 325}
    assert sum(shares.values()) == 1000
    assert shared_prizes([101, 100], ["a", "b"], chip_unit=10) == {"a": 101, "b": 100}
    with pytest.raises(ValueError, match="2 tied players need exactly 2"):
        shared_prizes([100], ["a", "b"])


def test_eliminations_on_one_hand_are_placed_by_starting_stacks():
    places = places_of_eliminated({"ann": 500, "bob": 900, "cy": 500, "dan": 100}, 12)
    assert places == [((9,), ("bob",)), ((10, 11), ("ann", "cy")), ((12,), ("dan",))]


def test_hand_for_hand_eliminations_at_several_tables_share():
    places = places_of_eliminated({"ann": 500, "bob": 900}, 16, hands={"ann": 1, "bob": 2})
    assert places == [((15, 16), ("ann", "bob"))]


def test_hand_for_hand_eliminations_at_one_table_go_by_stacks_and_tie_across_tables():
    # table 1 busts 4000 and 2000, table 2 busts 1000, table 3 busts 3000 and 3000
    stacks = {"a4": 4000, "a2": 2000, "b1": 1000, "c3": 3000, "c3b": 3000}
    hands = {"a4": 1, "a2": 1, "b1": 2, "c3": 3, "c3b": 3}
    places = places_of_eliminated(stacks, 20, hands=hands)
    assert places == [((16, 17, 18, 19), ("a4", "b1", "c3", "c3b")), ((20,), ("a2",))]


@pytest.mark.parametrize("bad", ["1/0", "fifty", ""])
def test_a_percentage_that_is_not_a_number_is_a_value_error(bad):
    # found by schemathesis: "1/0" raised ZeroDivisionError, a 500 at the API
    with pytest.raises(ValueError, match="is not a percentage"):
        structure_from_percentages([bad, "100"])
