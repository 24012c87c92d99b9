"""Who acts first from fourth street on (docs/rules.md 4.7): the best exposed board.

Every hand here: player with the lowest third-street card brings in, everyone calls, then the
test reads who acts first on the street it is about. Cards are listed in dealing order:
down, down, third-street up, fourth, fifth, sixth (up), seventh (down).
"""

from games.engine.rules import BoardTie, Rules, Variant
from tests.engine.helpers import NO_ANTE, stacked_hand


def first_actor(cards, street="fourth", rules=None, stacks=None):
    """Who acts first on ``street`` when everyone calls the bring-in and checks."""
    stacks = stacks or [200] * len(cards)
    hand = stacked_hand(rules or Rules(), NO_ANTE, stacks, cards)
    hand.act("bring_in")
    while hand.state.street_name == "third":
        hand.act("call")
    while hand.state.street_name != street:
        hand.act("check")
    return hand.state.actor


def test_a_pair_acts_before_high_cards():
    cards = {0: "2h3h As Kd", 1: "4h5h 2c 2d", 2: "6h7h 8c 9d"}

    assert first_actor(cards) == 1


def test_the_highest_card_acts_first_without_pairs():
    cards = {0: "2h3h 4c Kd", 1: "4h5h 2c Ad", 2: "6h7h 8c 9d"}

    assert first_actor(cards) == 1


def test_two_pair_acts_before_a_higher_pair_on_sixth_street():
    cards = {
        0: "2h3h 4c 4d 5c 5d",
        1: "4h5h 2c Ad As Kc",
        2: "6h7h 3c 8d 9d Jh",
    }

    assert first_actor(cards, "sixth") == 0


def test_trips_act_before_two_pair():
    cards = {
        0: "2h3h 4c 4d 4s 8c",
        1: "4h5h 2c Ad As Kc",
        2: "6h7h 3c Kd Ks Ac",
    }

    assert first_actor(cards, "sixth") == 0


def test_quads_act_before_trips():
    cards = {
        0: "2h3h 7c 7d 7s 7h",
        1: "4h5h 2c Ad As Ah",
        2: "6h9h 3c Kd Ks 8c",
    }

    assert first_actor(cards, "sixth") == 0


def test_straights_and_flushes_do_not_count_on_a_board():
    # Player 2's board is a four-card straight flush; player 1's ace-high acts first
    cards = {
        0: "2h3h 4c 2d 3d Td",
        1: "4h5h 2c Ad Qc Jc",
        2: "AhKh 3c 5s 6s 7s",
    }

    assert first_actor(cards, "sixth") == 1


def test_the_seventh_street_first_actor_is_the_sixth_street_one():
    # The seventh card is hidden: the down card that makes player 2 quads changes nothing
    cards = {
        0: "2h3h 4c Kd Kc 9h 8h",
        1: "4h5h 2c Ad Qc Jc Th",
        2: "7h7c 3c 7d 6s 5s 7s",
    }

    assert first_actor(cards, "sixth") == 0
    assert first_actor(cards, "seventh") == 0


def test_equal_boards_the_lowest_seat_acts_first_by_default():
    cards = {0: "2h3h 4c 9d", 1: "4h5h Ks 9c", 2: "6h7h Kc 9s"}

    assert first_actor(cards) == 1


def test_board_tie_suit_the_high_card_by_suit_acts_first():
    cards = {0: "2h3h 4c 9d", 1: "4h5h Kc 9s", 2: "6h7h Ks 9c"}

    assert first_actor(cards, rules=Rules(board_tie=BoardTie.SUIT)) == 2


def test_board_tie_suit_looks_at_the_highest_card_not_the_highest_suit():
    # Player 1's 9s is the highest suit showing, but player 2's Ks beats player 1's Kd
    cards = {0: "2h3h 4c 9d", 1: "4h5h Kd 9s", 2: "6h7h Ks 9c"}

    assert first_actor(cards, rules=Rules(board_tie=BoardTie.SUIT)) == 2


def test_the_best_board_all_in_passes_first_action_to_the_next_player_with_chips():
    # Player 1 (pair of deuces) is all in after calling the bring-in
    cards = {0: "2h3h 4c As", 1: "4h5h 2c 2d", 2: "6h7h 8c 9d"}

    assert first_actor(cards, stacks=[200, 1, 200]) == 2


def test_razz_the_lowest_board_acts_first():
    cards = {0: "2h3h 4c 6d", 1: "4h5h Ac 2d", 2: "6h7h Kc 9s"}

    assert first_actor(cards, rules=Rules(Variant.RAZZ)) == 1


def test_razz_a_paired_board_is_worst():
    cards = {0: "2h3h 4c 4d", 1: "4h5h Qc Kd", 2: "6h7h Kc Qs"}

    assert first_actor(cards, rules=Rules(Variant.RAZZ)) == 1


def test_razz_the_ace_is_low_on_boards():
    cards = {0: "2h3h Ac 3d", 1: "4h5h 2c 4d", 2: "6h7h Kc Qs"}

    assert first_actor(cards, rules=Rules(Variant.RAZZ)) == 0


def test_razz_equal_boards_the_lowest_seat_acts_first():
    cards = {0: "2h3h Kd Qd", 1: "4h5h 7d 2c", 2: "6h9h 7s 2s"}

    assert first_actor(cards, rules=Rules(Variant.RAZZ)) == 1


def test_razz_board_tie_suit_the_best_low_card_by_suit_acts_first():
    # Boards 7-2 and 7-2: the 2c (lowest card, lowest suit) beats the 2s
    cards = {0: "2h3h Kd Qd", 1: "4h5h 7c 2s", 2: "6h9h 7s 2c"}

    assert first_actor(cards, rules=Rules(Variant.RAZZ, board_tie=BoardTie.SUIT)) == 2


def test_stud_8_acts_by_the_high_board():
    cards = {0: "2h3h 4c 3d", 1: "4h5h Ac 2d", 2: "6h7h Kc Ks"}

    assert first_actor(cards, rules=Rules(Variant.STUD_8)) == 2
