"""Showdown order, show or muck, and the award to the best hand (docs/rules.md 6).

Player 0 holds aces, player 1 kings, player 2 queens. Player 0 brings in (2c); the boards
lead: fourth street player 2, fifth player 0, sixth and seventh player 1.
"""

import pytest

from games.engine.rules import Rules, ShowdownOrder
from games.engine.state import IllegalAction, Phase
from tests.engine.helpers import NO_ANTE, snapshot, stacked_hand

CARDS = {
    0: "AcAd 2c 5h 9s Td 8c",
    1: "KcKd 3h 6d 7s Jh 4c",
    2: "QcQd 4h 8s 6c 2s Jc",
}


def showdown(rules=None, sixth=(), seventh=(), cards=CARDS):
    """Call the bring-in, check to sixth street, then play the given sixth and seventh."""
    hand = stacked_hand(rules or Rules(), NO_ANTE, [100, 100, 100], cards)
    hand.play("bring_in", "call", "call", *["check"] * 6)
    assert hand.state.street_name == "sixth"
    hand.play(*(sixth or ["check"] * 3))
    hand.play(*(seventh or ["check"] * 3))
    assert hand.state.phase in (Phase.SHOWDOWN, Phase.OVER)
    return hand


def order(hand):
    return hand.events("showdown")[0]["order"]


# --- who shows first -------------------------------------------------------------------------


def test_the_last_bettor_on_the_final_round_shows_first():
    # Seventh: player 1 checks, player 2 bets, players 0 and 1 call
    hand = showdown(seventh=["check", "bet", "call", "call"])

    assert order(hand) == [2, 0, 1]


def test_no_bet_on_the_final_round_the_last_aggressor_of_an_earlier_round_shows_first():
    hand = showdown(sixth=["bet", "call", "call"])

    assert order(hand) == [1, 2, 0]


def test_nobody_bet_in_the_whole_hand_seat_order_from_seat_one():
    hand = showdown()

    assert order(hand) == [0, 1, 2]


def test_the_bring_in_is_not_a_bet_for_the_showdown_order():
    cards = {0: CARDS[1], 1: CARDS[0], 2: CARDS[2]}  # player 1 brings in with the 2c
    hand = showdown(cards=cards)

    assert order(hand) == [0, 1, 2]


def test_option_seat_order_with_no_bet_on_the_final_round():
    hand = showdown(
        Rules(showdown_order=ShowdownOrder.SEAT_ORDER), sixth=["check", "bet", "call", "call"]
    )

    assert order(hand) == [0, 1, 2]


def test_option_best_board_with_no_bet_on_the_final_round():
    # Player 2 bet on sixth street; player 1 (jack high) has the best board
    hand = showdown(
        Rules(showdown_order=ShowdownOrder.BEST_BOARD), sixth=["check", "bet", "call", "call"]
    )

    assert order(hand) == [1, 2, 0]


def test_option_seat_order_still_lets_the_final_round_bettor_show_first():
    hand = showdown(
        Rules(showdown_order=ShowdownOrder.SEAT_ORDER), seventh=["check", "bet", "call", "call"]
    )

    assert order(hand) == [2, 0, 1]


def test_option_best_board_still_lets_the_final_round_bettor_show_first():
    hand = showdown(
        Rules(showdown_order=ShowdownOrder.BEST_BOARD), seventh=["check", "bet", "call", "call"]
    )

    assert order(hand) == [2, 0, 1]


# --- show or muck ----------------------------------------------------------------------------


def test_a_hand_better_than_those_shown_is_shown_automatically():
    # Order 2, 0, 1: queens show, then aces are better and must show
    hand = showdown(seventh=["check", "bet", "call", "call"])

    assert [e["player"] for e in hand.events("show")] == [2, 0]


def test_a_worse_hand_may_show_or_muck():
    hand = showdown(seventh=["check", "bet", "call", "call"])

    assert hand.state.phase is Phase.SHOWDOWN
    assert hand.state.actor == 1
    assert hand.options() == [("show", 0), ("muck", 0)]


def test_a_mucked_hand_is_never_shown_and_the_best_hand_wins():
    hand = showdown(seventh=["check", "bet", "call", "call"]).act("muck")

    assert hand.events("muck") == [{"type": "muck", "player": 1}]
    assert [e["player"] for e in hand.events("show")] == [2, 0]
    assert [(e["player"], e["amount"], e["hand"]) for e in hand.events("award")] == [
        (0, 27, "a pair of aces")
    ]


def test_a_worse_hand_may_choose_to_show():
    hand = showdown(seventh=["check", "bet", "call", "call"]).act("show")

    assert hand.events("show")[-1] == {"type": "show", "player": 1, "cards": ["Kc", "Kd", "4c"]}
    assert hand.state.players[1].shown
    assert hand.events("award")[0]["player"] == 0


def test_an_equal_hand_must_be_shown():
    tie = {
        0: "AcAd 2c 5h 9s Td 8c",
        1: "AhAs 3h 5d 9c Th 8d",
        2: "KcKd 4h 8s 6c 2s Jc",
    }
    hand = showdown(cards=tie)

    assert [e["player"] for e in hand.events("show")] == [0, 1]
    assert hand.state.actor == 2


def test_muck_is_refused_for_a_player_who_is_not_to_decide():
    hand = showdown(seventh=["check", "bet", "call", "call"])
    before = snapshot(hand.state)

    with pytest.raises(IllegalAction):
        hand.state.act("muck", player=0)

    assert snapshot(hand.state) == before


def test_betting_actions_are_refused_at_showdown():
    hand = showdown(seventh=["check", "bet", "call", "call"])
    before = snapshot(hand.state)

    with pytest.raises(IllegalAction, match="no betting now"):
        hand.state.act("check")

    assert snapshot(hand.state) == before


def test_show_or_muck_is_refused_before_the_showdown():
    hand = stacked_hand(Rules(), NO_ANTE, [100, 100, 100], CARDS)
    before = snapshot(hand.state)

    with pytest.raises(IllegalAction, match="only for the showdown"):
        hand.state.act("muck")

    assert snapshot(hand.state) == before


def test_the_pot_goes_to_the_best_hand_with_its_name_announced():
    # Player 1's seventh card makes two pair: the engine reads and names the best hand
    cards = {**CARDS, 1: "KcKd 3h 6d 7s Jh Js"}
    hand = showdown(cards=cards)
    while not hand.state.is_over:
        hand.act("muck")

    assert [(e["player"], e["hand"]) for e in hand.events("award")] == [
        (1, "two pair, kings and jacks")
    ]
