"""Hi/lo splits, razz, tied pots and odd chips (docs/rules.md 1, 6, 7 and 8)."""

import pytest

from games.engine.rules import Rules, Stakes, Variant
from tests.engine.helpers import STAKES, stacked_hand

# Source 001: A 2 4 5 7 9 K against 8 8 6 6 Q J 3 (in dealing order: down, down, up x4, down)
WHEEL_ISH = "Ac2d 9h 4s 5c Kd 7h"
EIGHTS_AND_SIXES = "8c8d Qs 6h 6s Jd 3c"


def check_down(hand, showdown="show"):
    """Check every street to the end; a hand that may be mucked is shown (or ``showdown``)."""
    while not hand.state.is_over:
        hand.act(showdown if hand.state.phase == "showdown" else "check")
    return hand


def awards(hand):
    return [
        (e["pot"], e["player"], e["amount"], e["half"], e["hand"]) for e in hand.events("award")
    ]


def test_source_001_worked_example_played_to_showdown():
    # Given the two hands of source 001 in stud_8, player 1 betting every street
    hand = stacked_hand(
        Rules(Variant.STUD_8), STAKES, [100, 100], {0: WHEEL_ISH, 1: EIGHTS_AND_SIXES}
    )
    hand.play("bring_in", "complete", "call")
    for _street in ("fourth", "fifth", "sixth", "seventh"):
        hand.play("bet", "call")

    # Then the two pair wins the high half and the 7-5-4-2-A the low half of the 66 pot
    assert hand.state.is_over
    assert awards(hand) == [
        (0, 1, 33, "high", "two pair, eights and sixes"),
        (0, 0, 33, "low", "7-5-4-2-A low"),
    ]
    assert hand.stacks() == [100, 100]


def test_stud_8_the_odd_chip_of_halving_goes_to_the_high_half():
    # Pot of 5: three antes, the bring-in and one call; player 2 folds
    cards = {0: WHEEL_ISH, 1: EIGHTS_AND_SIXES, 2: "KhKs Ts"}
    hand = stacked_hand(Rules(Variant.STUD_8), STAKES, [100, 100, 100], cards)
    check_down(hand.play("bring_in", "call", "fold"))

    assert [(player, amount, half) for _pot, player, amount, half, _hand in awards(hand)] == [
        (1, 3, "high"),
        (0, 2, "low"),
    ]


def test_stud_8_no_qualifying_low_the_high_hand_scoops():
    cards = {0: "KcKh 9h Ts Jc 3d 9c", 1: EIGHTS_AND_SIXES}
    hand = stacked_hand(Rules(Variant.STUD_8), STAKES, [100, 100], cards)
    check_down(hand.play("bring_in", "call"))

    assert awards(hand) == [(0, 0, 4, "high", "two pair, kings and nines")]


def test_stud_8_a_nine_low_does_not_qualify():
    cards = {0: "Ac2d 9h 4s 5c Kd Th", 1: EIGHTS_AND_SIXES}
    hand = stacked_hand(Rules(Variant.STUD_8), STAKES, [100, 100], cards)
    check_down(hand.play("bring_in", "call"))

    assert awards(hand) == [(0, 1, 4, "high", "two pair, eights and sixes")]


def test_stud_8_without_a_qualifier_any_low_takes_the_low_half():
    cards = {0: "Ac2d 9h 4s 5c Kd Th", 1: EIGHTS_AND_SIXES}
    hand = stacked_hand(Rules(Variant.STUD_8, low_qualifier=None), STAKES, [100, 100], cards)
    check_down(hand.play("bring_in", "call"))

    assert awards(hand) == [
        (0, 1, 2, "high", "two pair, eights and sixes"),
        (0, 0, 2, "low", "9-5-4-2-A low"),
    ]


def test_razz_the_best_low_takes_the_whole_pot():
    cards = {0: "Ac2d 3h 4s 6c Kd Qh", 1: "KcKs 9h Ts Jc 3c 9c"}
    hand = stacked_hand(Rules(Variant.RAZZ), STAKES, [100, 100], cards)
    check_down(hand.play("bring_in", "call"))

    assert awards(hand) == [(0, 0, 4, None, "6-4-3-2-A low")]


def test_stud_hi_the_best_high_takes_the_whole_pot_with_no_half():
    cards = {0: "Ac2d 3h 4s 6c Kd Qh", 1: "KcKs 9h Ts Jc 3c 9c"}
    hand = stacked_hand(Rules(Variant.STUD_HI), STAKES, [100, 100], cards)
    check_down(hand.play("bring_in", "call"))

    assert awards(hand) == [(0, 1, 4, None, "two pair, kings and nines")]


def test_tied_hands_share_and_the_odd_chip_goes_to_the_high_card_by_suit_in_the_five():
    # Both play a nine-high straight; player 0's 9s beats player 1's 9c. Player 1's As is
    # higher but is not in the five cards played. Pot of 5 (3 antes, bring-in, call).
    cards = {
        0: "9s8c 7d 6h 5c 2d 3d",
        1: "9c8d 7h 6s 5d As Kh",
        2: "2h2s Qc",
    }
    hand = stacked_hand(Rules(), STAKES, [100, 100, 100], cards)
    check_down(hand.play("bring_in", "call", "fold"))

    assert awards(hand) == [
        (0, 0, 3, None, "a straight, nine high"),
        (0, 1, 2, None, "a straight, nine high"),
    ]


def test_each_side_pot_is_split_on_its_own_hi_lo_from_its_eligible_players():
    # Player 0 is all in on the ante (3 of 5) with the only low; players 1 and 2 have none
    stakes = Stakes(ante=5, bring_in=2, small_bet=10, big_bet=20)
    cards = {
        0: "Ac2d 3h 4s 6c Kd Qh",  # 6-4-3-2-A low, ace high
        1: "KcKs 9h Ts Jc 3c 9c",  # kings and nines
        2: "QcQs Th 9s Jd 7h 2c",  # queens
    }
    hand = stacked_hand(Rules(Variant.STUD_8), stakes, [3, 100, 100], cards)
    check_down(hand.play("bring_in", "call"))

    # Main pot 9 (all three): high 5 (odd chip), low 4. Side pot 8 (players 1, 2): no low
    # among its players, so the high hand scoops it.
    assert awards(hand) == [
        (0, 1, 5, "high", "two pair, kings and nines"),
        (0, 0, 4, "low", "6-4-3-2-A low"),
        (1, 1, 8, "high", "two pair, kings and nines"),
    ]
    assert hand.stacks() == [4, 106, 93]


def test_stud_8_one_card_may_serve_high_and_low():
    # Player 0: a wheel (A-2-3-4-5) is the best low and a five-high straight for high
    cards = {0: "Ac2d 3h 4s 5c Kd Qh", 1: "KcKs 9h Ts Jc 3c 9c"}
    hand = stacked_hand(Rules(Variant.STUD_8), STAKES, [100, 100], cards)
    check_down(hand.play("bring_in", "call"))

    assert awards(hand) == [
        (0, 0, 2, "high", "a straight, five high"),
        (0, 0, 2, "low", "5-4-3-2-A low"),
    ]


def test_the_winning_hand_is_named_even_when_the_others_muck():
    cards = {0: "KcKh 9h Ts Jc 3d 9c", 1: EIGHTS_AND_SIXES}
    hand = stacked_hand(Rules(Variant.STUD_8), STAKES, [100, 100], cards)
    check_down(hand.play("bring_in", "call"), showdown="muck")

    assert hand.events("muck") == [{"type": "muck", "player": 1}]
    assert awards(hand) == [(0, 0, 4, "high", "two pair, kings and nines")]


# The smallest chip in play (docs/rules.md 8, TDA 20-B): a tournament after a colour-up plays in
# 5s, so a tied pot or a hi/lo half is broken down to 5s, never to single chips.
FIVES = Stakes(ante=5, bring_in=5, small_bet=20, big_bet=40, unit=5)


def test_tied_hands_share_in_the_smallest_chip_and_the_odd_one_goes_by_suit():
    # The straights of the odd-chip test above; pot 25 (3 antes, the bring-in, a call): 5
    # chips of 5 share 3 and 2, not 13 and 12
    cards = {0: "9s8c 7d 6h 5c 2d 3d", 1: "9c8d 7h 6s 5d As Kh", 2: "2h2s Qc"}
    hand = stacked_hand(Rules(), FIVES, [500, 500, 500], cards)
    check_down(hand.play("bring_in", "call", "fold"))

    assert awards(hand) == [
        (0, 0, 15, None, "a straight, nine high"),
        (0, 1, 10, None, "a straight, nine high"),
    ]
    assert all(stack % 5 == 0 for stack in hand.stacks())


def test_stud_8_halves_in_the_smallest_chip_the_odd_one_to_the_high_half():
    # Pot 25: halved 15 high and 10 low (not 13 and 12)
    cards = {0: WHEEL_ISH, 1: EIGHTS_AND_SIXES, 2: "KhKs Ts"}
    hand = stacked_hand(Rules(Variant.STUD_8), FIVES, [500, 500, 500], cards)
    check_down(hand.play("bring_in", "call", "fold"))

    assert [(player, amount, half) for _pot, player, amount, half, _hand in awards(hand)] == [
        (1, 15, "high"),
        (0, 10, "low"),
    ]


def test_a_part_of_the_smallest_chip_goes_with_the_odd_chip():
    # A short stack of 7 (not a whole number of 5s) all in on the ante and bring-in: the
    # main pot is 7 x 2 = 14 = two 5s and 4; tied, one 5 each and the 4 by suit to player 0
    cards = {0: "9s8c 7d 6h 5c 2d 3d", 1: "9c8d 7h 6s 5d As Kh"}
    hand = stacked_hand(Rules(), FIVES, [7, 500], cards)
    check_down(hand.play("bring_in", "call"))

    assert [(pot, player, amount) for pot, player, amount, _half, _hand in awards(hand)] == [
        (0, 0, 9),
        (0, 1, 5),
    ]
    assert sum(hand.stacks()) == 507


@pytest.mark.parametrize(
    "stakes",
    [
        {"ante": 5, "bring_in": 5, "small_bet": 20, "big_bet": 40, "unit": 0},
        {"ante": 1, "bring_in": 5, "small_bet": 20, "big_bet": 40, "unit": 5},
        {"ante": 5, "bring_in": 5, "small_bet": 20, "big_bet": 42, "unit": 5},
    ],
)
def test_stakes_are_whole_numbers_of_the_smallest_chip(stakes):
    with pytest.raises(ValueError, match="stakes:"):
        Stakes(**stakes)


def test_the_smallest_chip_is_in_the_hand_header_and_an_old_header_reads_as_one():
    assert Stakes.from_dict(FIVES.to_dict()) == FIVES
    assert Stakes.from_dict({"ante": 1, "bring_in": 1, "small_bet": 4, "big_bet": 8}) == STAKES
