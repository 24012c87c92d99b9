"""All-in for less than a full bet or raise (docs/rules.md 4.10, TDA 47-B) and its decisions.

Stakes: bring-in 1, small bet 4, big bet 8. Player 0 brings in (2c) and leads fourth street
(ace high); nobody shows a pair.
"""

import random

from games.engine.cards import shuffled_deck
from games.engine.play import deal_pending
from games.engine.rules import Rules, Stakes
from games.engine.state import HandState, Phase
from tests.engine.helpers import NO_ANTE, stacked_hand

CARDS = {
    0: "AsKd 2c Ah",
    1: "QhQd 5s 9h",
    2: "JhJs 6s 8d",
    3: "ThTs 7s 3d",
    4: "9c9d 8c 4d",
}


def fourth_street(stacks):
    """Everyone calls the bring-in (1 chip); fourth street, player 0 to act."""
    cards = {i: CARDS[i] for i in range(len(stacks))}
    hand = stacked_hand(Rules(), NO_ANTE, stacks, cards).act("bring_in")
    while hand.state.street_name == "third":
        hand.act("call")
    assert hand.state.actor == 0
    return hand


# --- less than half a bet: no reopening ------------------------------------------------------


def test_an_all_in_raise_short_of_a_bet_is_offered_as_the_all_in_amount():
    hand = fourth_street([200, 6, 200]).act("bet")

    assert hand.options() == [("fold", 0), ("call", 4), ("raise", 5)]


def test_a_player_yet_to_act_may_call_the_short_all_in_or_raise_a_full_bet_over_it():
    hand = fourth_street([200, 6, 200]).play("bet", ("raise", 5))

    assert hand.state.actor == 2
    assert hand.options() == [("fold", 0), ("call", 5), ("raise", 9)]


def test_a_short_all_in_raise_under_half_a_bet_does_not_reopen_for_the_bettor():
    hand = fourth_street([200, 6, 200]).play("bet", ("raise", 5), "call")

    assert hand.state.actor == 0
    assert hand.options() == [("fold", 4), ("call", 5)]


def test_a_full_raise_over_a_short_all_in_reopens_the_betting():
    hand = fourth_street([200, 6, 200]).play("bet", ("raise", 5), ("raise", 9))

    assert hand.options() == [("fold", 4), ("call", 9), ("raise", 13)]


def test_a_short_all_in_under_half_does_not_count_toward_the_cap():
    # bet 4, raise 8, raise 12, all-in 13 (+1): a fourth full bet is still possible
    hand = fourth_street([200, 200, 200, 14, 200]).play("bet", ("raise", 8), ("raise", 12))
    hand.act("raise", 13)

    assert hand.options() == [("fold", 0), ("call", 13), ("raise", 17)]


# --- half a bet or more: counts as full ------------------------------------------------------


def test_an_all_in_raise_of_half_a_bet_reopens_the_betting():
    hand = fourth_street([200, 7, 200]).play("bet", ("raise", 6), "call")

    assert hand.state.actor == 0
    assert hand.options() == [("fold", 4), ("call", 6), ("raise", 10)]


def test_an_all_in_raise_of_half_a_bet_counts_toward_the_cap():
    # bet 4, raise 8, raise 12, all-in 14 (+2, half of 4): that is the cap
    hand = fourth_street([200, 200, 200, 15, 200]).play("bet", ("raise", 8), ("raise", 12))
    hand.act("raise", 14)

    assert hand.options() == [("fold", 0), ("call", 14)]


def test_an_all_in_bet_short_of_the_bet_is_the_bet_amount_offered():
    hand = fourth_street([200, 200, 3]).play("check", "check")

    assert hand.options() == [("check", 0), ("bet", 2)]


# --- third street: short completions -----------------------------------------------------------


def test_a_short_all_in_completion_under_half_is_not_a_completion():
    # bring-in 1; player 1 goes all in to 2 (+1 of the 3 needed to complete to 4)
    hand = stacked_hand(Rules(), NO_ANTE, [200, 2, 200], CARDS).play("bring_in", ("complete", 2))

    assert hand.options() == [("fold", 0), ("call", 2), ("complete", 4)]


def test_a_short_all_in_completion_of_half_or_more_counts_as_the_completion():
    # bring-in 1; player 1 goes all in to 3 (+2 of 3): the next raise is a full bet over it
    hand = stacked_hand(Rules(), NO_ANTE, [200, 3, 200], CARDS).play("bring_in", ("complete", 3))

    assert hand.options() == [("fold", 0), ("call", 3), ("raise", 7)]


def test_a_short_completion_under_half_does_not_reopen_for_the_bring_in():
    hand = stacked_hand(Rules(), NO_ANTE, [200, 2, 200], CARDS)
    hand.play("bring_in", ("complete", 2), "call")

    assert hand.state.actor == 0
    assert hand.options() == [("fold", 1), ("call", 2)]


# --- nobody left to call ---------------------------------------------------------------------


def test_no_raise_is_offered_when_nobody_else_has_chips():
    hand = stacked_hand(Rules(), NO_ANTE, [200, 3], CARDS).play("bring_in", ("complete", 3))

    assert hand.options() == [("fold", 1), ("call", 3)]


def test_an_all_in_player_is_skipped_in_the_betting():
    hand = fourth_street([200, 1, 200])

    assert hand.state.players[1].stack == 0
    hand.act("bet")
    assert hand.state.actor == 2


def test_dealing_goes_on_street_after_street_once_nobody_can_bet():
    # Given two players whose antes and bring-in leave them all in on third street
    state = HandState(Rules(), Stakes(1, 2, 5, 10), [3, 3])
    deck = shuffled_deck(random.Random(7))
    deal_pending(state, deck)
    state.act("bring_in")
    state.act("call")

    # When the cards due are dealt once
    deal_pending(state, deck)

    # Then every street up to seventh is dealt: the hand is at its showdown
    assert state.street_name == "seventh"
    assert state.next_deal is None
    assert state.phase is Phase.SHOWDOWN
    assert [len(p.down) + len(p.up) for p in state.players] == [7, 7]
