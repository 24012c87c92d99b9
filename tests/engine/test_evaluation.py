"""Hand values (docs/rules.md section 7) and the five cards behind them (section 8, odd chips)."""

import random

import pytest
from pokerkit import EightOrBetterLowHand, RegularLowHand, StandardHighHand

from games.engine.cards import FULL_DECK, Card, format_cards, parse_cards
from games.engine.evaluation import (
    best_high_five,
    best_low_five,
    describe_high,
    describe_low,
    high_value,
    low8_value,
    low_value,
)


def high(text: str) -> int:
    return high_value(parse_cards(text))


def low(text: str) -> int:
    return low_value(parse_cards(text))


def low8(text: str, qualifier: int | None = 8) -> int | None:
    return low8_value(parse_cards(text), qualifier)


# --- high ----------------------------------------------------------------------------------


def test_the_nine_high_categories_rank_in_order():
    weakest_first = [
        "Ac Jd 9h 6s 3c",  # high card
        "2c 2d 5h 7s 9c",  # pair
        "2c 2d 3h 3s 4c",  # two pair
        "2c 2d 2h 4s 5c",  # three of a kind
        "As 2d 3h 4s 5c",  # straight (the wheel, the lowest one)
        "2c 3c 4c 5c 7c",  # flush
        "2c 2d 2h 3s 3c",  # full house
        "2c 2d 2h 2s 3c",  # four of a kind
        "As 2s 3s 4s 5s",  # straight flush
    ]
    values = [high(text) for text in weakest_first]
    assert values == sorted(values)
    assert len(set(values)) == 9


def test_the_wheel_is_the_lowest_straight():
    assert high("As 2d 3h 4s 5c") < high("2d 3h 4s 5c 6d")
    assert high("As 2d 3h 4s 5c") > high("Kc Kd Kh 4s 5c")
    assert describe_high(high("As 2d 3h 4s 5c")) == "a straight, five high"


def test_ace_high_straight_beats_king_high():
    assert high("Ts Jd Qh Ks Ac") > high("9c Ts Jd Qh Ks")


def test_no_straight_wraps_round_the_ace():
    assert describe_high(high("Qs Kd Ah 2s 3c")) == "high card ace"


def test_suits_never_break_a_tie():
    assert high("As Kd Qh Js 9c") == high("Ac Kh Qd Jc 9d")
    assert high("Ah Kh Qh Jh 9h") == high("As Ks Qs Js 9s")
    assert high("8c 8d 6h 6s Qc Jd 3h") == high("8h 8s 6c 6d Qd Jc 3c")


def test_kickers_break_ties_down_to_the_fifth_card():
    assert high("Ac Kd Qh Js 9c") > high("Ac Kd Qh Js 8c")
    assert high("9c 9d Ah Ks 3c") > high("9c 9d Ah Qs Jc")
    assert high("9c 9d 4h 4s 3c") < high("9c 9d 4h 4s 5c")


def test_a_sixth_and_seventh_card_below_the_best_five_change_nothing():
    assert high("Ac Kd Qh Js 9c 3d 2h") == high("Ac Kd Qh Js 9c")


def test_two_pair_of_three_pairs_uses_the_third_pairs_rank_as_kicker():
    assert high("Kc Kd 9h 9s 5c 5d 2h") == high("Kc Kd 9h 9s 5c")


def test_trips_twice_make_a_full_house_of_the_higher_trips():
    assert describe_high(high("7c 7d 7h 4s 4c 4d Ac")) == "a full house, sevens full of fours"


def test_best_five_of_seven_picks_the_flush_over_the_straight():
    cards = parse_cards("4h 5h 6c 7h 8d 9h Kh")
    assert describe_high(high_value(cards)) == "a flush, king high"
    assert set(best_high_five(cards)) == set(parse_cards("4h 5h 7h 9h Kh"))


def test_best_five_of_seven_finds_a_straight_flush_inside_a_longer_flush():
    cards = parse_cards("2s 4s 5s 6s 7s 8s Ad")
    assert describe_high(high_value(cards)) == "a straight flush, eight high"
    assert set(best_high_five(cards)) == set(parse_cards("4s 5s 6s 7s 8s"))


def test_best_five_of_seven_prefers_the_straight_to_the_trips():
    cards = parse_cards("3c 4d 5h 6s 7c 7d 7h")
    assert describe_high(high_value(cards)) == "a straight, seven high"
    assert {card.rank for card in best_high_five(cards)} == {3, 4, 5, 6, 7}


def test_best_high_five_takes_the_highest_suits_among_equal_fives():
    cards = parse_cards("Ac Ad Kc Kd Qc Qd 2h")
    assert set(best_high_five(cards)) == set(parse_cards("Ac Ad Kc Kd Qd"))


@pytest.mark.parametrize(
    ("cards", "name"),
    [
        ("Ac Jd 9h 6s 3c 2d", "high card ace"),
        ("Kc Kd 9h 6s 3c", "a pair of kings"),
        ("8c 8d 6h 6s Qc Jd 3h", "two pair, eights and sixes"),
        ("7c 7d 7h 6s 3c", "three of a kind, sevens"),
        ("6c 7d 8h 9s Tc", "a straight, ten high"),
        ("Ac 2d 3h 4s 5c", "a straight, five high"),
        ("Ac Jc 9c 6c 3c", "a flush, ace high"),
        ("8c 8d 8h 6s 6c", "a full house, eights full of sixes"),
        ("9c 9d 9h 9s 3c", "four of a kind, nines"),
        ("5d 6d 7d 8d 9d", "a straight flush, nine high"),
        ("Th Jh Qh Kh Ah", "a royal flush"),
    ],
)
def test_describe_high(cards, name):
    assert describe_high(high(cards)) == name


@pytest.mark.parametrize("count", [0, 4, 8])
def test_a_hand_value_needs_five_to_seven_cards(count):
    cards = list(FULL_DECK[::5][:count])
    with pytest.raises(ValueError, match=f"5 to 7 cards, not {count}"):
        high_value(cards)
    with pytest.raises(ValueError, match=f"5 to 7 cards, not {count}"):
        low_value(cards)


def test_eight_cards_with_a_flush_are_refused_too():
    with pytest.raises(ValueError, match="not 8"):
        high("2h 4h 6h 8h Th Qc Kd As")


# --- low -------------------------------------------------------------------------------------


def test_low_compares_from_the_highest_card_down():
    assert low("6c 4d 3h 2s Ac") > low("7c 5d 4h 3s 2c")
    assert low("8c 7d 6h 5s 4c") < low("8c 6d 5h 4s 3c")
    assert low("8c 5d 4h 3s 2c") < low("8c 5d 4h 3s Ac")


def test_the_wheel_is_the_best_low_and_aces_are_low():
    wheel = low("5c 4d 3h 2s Ac")
    assert wheel > low("6c 4d 3h 2s Ac")
    assert wheel > low("6c 5d 4h 3s 2c")
    assert low("Ac 2d 3h 4s 6c") > low("2d 3h 4s 6c 7c")


def test_straights_and_flushes_do_not_spoil_a_low():
    assert low("5c 4c 3c 2c Ac") == low("5c 4d 3h 2s Ac")


def test_a_low_takes_the_five_lowest_unpaired_ranks_of_seven():
    assert low("Kc 9d 7h 5s 4c 2d Ah") == low("7h 5s 4c 2d Ah")
    assert low("7c 7d 5h 5s 4c 2d Ah") == low("7c 5h 4c 2d Ah")


def test_any_unpaired_low_beats_any_paired_low():
    assert low("Kc Qd Jh Ts 9c") > low("Ac Ad 2h 3s 4c")


def test_razz_uses_forced_pairs_and_the_lowest_pair_is_best():
    assert describe_low(low("4c 4d Kh Qs Jc Kd Qh")) == "a pair of fours, K-Q-J low"
    assert low("4c 4d Kh Qs Jc") > low("5c 5d 3h 2s Ac")
    assert low("4c 4d 7h 6s 5c") > low("4c 4d 8h 3s 2c")


def test_razz_prefers_two_pair_to_trips_when_pairing_is_forced():
    assert describe_low(low("Ac Ad Ah 2s 2c 3d 3h")) == "two pair, twos and aces, 3 low"
    assert low("Ac Ad 2h 2s 3c") > low("Ac Ad Ah 2s 3c")


@pytest.mark.parametrize(
    ("cards", "name"),
    [
        ("Ac 2d 4h 5s 7c 9d Kh", "7-5-4-2-A low"),
        ("5c 4d 3h 2s Ac", "5-4-3-2-A low"),
        ("Tc 8d 7h 3s 2c", "T-8-7-3-2 low"),
        ("4c 4d 4h Qs Jc", "three of a kind, fours, Q-J low"),
        ("4c 4d 4h 2s 2c", "a full house, fours full of twos"),
        ("4c 4d 4h 4s 2c", "four of a kind, fours, 2 low"),
    ],
)
def test_describe_low(cards, name):
    assert describe_low(low(cards)) == name


# --- eight-or-better ----------------------------------------------------------------------------


def test_eight_or_better_qualifies_with_five_unpaired_cards_of_eight_or_lower():
    assert low8("8c 7d 6h 5s 4c Kd Kh") == low("8c 7d 6h 5s 4c")


def test_a_nine_low_does_not_qualify():
    assert low8("9c 7d 6h 5s 4c Kd Kh") is None


def test_paired_cards_do_not_count_towards_a_qualifying_low():
    assert low8("8c 8d 6h 6s 4c 4d Ah") is None
    assert low8("8c 8d 6h 5s 4c 4d Ah") == low("8c 6h 5s 4c Ah")


def test_without_a_qualifier_any_low_counts():
    assert low8("Kc Kd Qh 9s 7c 3d 2h", qualifier=None) == low("Kc Kd Qh 9s 7c 3d 2h")
    assert low8("Kc Kd Qh 9s 7c 3d 2h") is None


def test_a_card_may_serve_both_high_and_low():
    cards = parse_cards("Ac 2c 3c 4c 5c Kd Qh")
    assert describe_high(high_value(cards)) == "a straight flush, five high"
    assert describe_low(low8_value(cards)) == "5-4-3-2-A low"
    assert set(best_high_five(cards)) == set(best_low_five(cards))


def test_source_001_worked_example():
    """Rule book 7 (source 001): two pair takes high, the 7-5-4-2-A takes low."""
    first = parse_cards("Ac 2d 4h 5s 7c 9d Kh")
    second = parse_cards("8c 8d 6h 6s Qc Jd 3h")
    assert high_value(second) > high_value(first)
    assert describe_high(high_value(second)) == "two pair, eights and sixes"
    assert low8_value(second) is None
    assert describe_low(low8_value(first)) == "7-5-4-2-A low"
    assert set(best_low_five(first)) == set(parse_cards("Ac 2d 4h 5s 7c"))


def test_best_low_five_takes_the_highest_suits_among_equal_fives():
    cards = parse_cards("Ac As 2d 3h 4s 5c 5d")
    assert set(best_low_five(cards)) == set(parse_cards("As 2d 3h 4s 5d"))


# --- differential against pokerkit --------------------------------------------------------------

# Decks skewed towards the rare hands: few ranks (pairs, quads, wheels, forced razz pairs),
# two suits (flushes, straight flushes), and the full deck.
DECKS = {
    "full": FULL_DECK,
    "low ranks": tuple(card for card in FULL_DECK if card.low_rank <= 6),
    "two suits": tuple(card for card in FULL_DECK if card.suit >= 2),
}


def sign(difference: int) -> int:
    return (difference > 0) - (difference < 0)


def random_hand_pairs(deck: tuple[Card, ...], seed: int, count: int):
    rng = random.Random(seed)
    for _ in range(count):
        size = rng.choice((5, 6, 7))
        yield rng.sample(deck, size), rng.sample(deck, size)


def pokerkit_order(hand_class, first, second) -> int:
    theirs = [hand_class.from_game_or_none(format_cards(cards)) for cards in (first, second)]
    if theirs[0] is None or theirs[1] is None:
        return sign((theirs[0] is not None) - (theirs[1] is not None))
    return sign((theirs[0] > theirs[1]) - (theirs[0] < theirs[1]))


def our_order(value, first, second) -> int:
    ours = [value(cards) for cards in (first, second)]
    if ours[0] is None or ours[1] is None:
        return sign((ours[0] is not None) - (ours[1] is not None))
    return sign(ours[0] - ours[1])


@pytest.mark.parametrize("deck_name", list(DECKS))
def test_high_orders_hands_like_pokerkit(deck_name):
    for first, second in random_hand_pairs(DECKS[deck_name], seed=1001, count=1000):
        assert our_order(high_value, first, second) == pokerkit_order(
            StandardHighHand, first, second
        ), (first, second)


@pytest.mark.parametrize("deck_name", list(DECKS))
def test_ace_to_five_low_orders_hands_like_pokerkit(deck_name):
    for first, second in random_hand_pairs(DECKS[deck_name], seed=2002, count=1000):
        assert our_order(low_value, first, second) == pokerkit_order(
            RegularLowHand, first, second
        ), (first, second)


@pytest.mark.parametrize("deck_name", list(DECKS))
def test_eight_or_better_orders_hands_like_pokerkit(deck_name):
    for first, second in random_hand_pairs(DECKS[deck_name], seed=3003, count=1000):
        assert our_order(low8_value, first, second) == pokerkit_order(
            EightOrBetterLowHand, first, second
        ), (first, second)
