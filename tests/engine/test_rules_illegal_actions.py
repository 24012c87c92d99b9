"""Legal actions and refused inputs (issue 3 item 4): a typed error naming the rule, and the
state left exactly as it was. Also the validation of Rules and Stakes."""

import pytest

from games.engine.cards import Card
from games.engine.rules import Rules, Stakes
from games.engine.state import HandState, IllegalAction
from tests.engine.helpers import NO_ANTE, STAKES, snapshot, stacked_hand

THREE = {
    0: "AsKd 2c 3d 4h 5s 6c",
    1: "QhQd Ks 8h Jd Tc 9c",
    2: "JhJs 9s 7d 6h 4s 3h",
}


def fourth_street():
    return stacked_hand(Rules(), NO_ANTE, [200, 200, 200], THREE).play("bring_in", "call", "call")


def refused(hand, action, to=None, **kwargs):
    """Try an input that must be refused; return the error after checking nothing changed."""
    before = snapshot(hand.state)
    with pytest.raises(IllegalAction) as error:
        hand.state.act(action, to, **kwargs)
    assert snapshot(hand.state) == before
    return error.value


def test_illegal_action_is_a_value_error_with_a_code():
    error = refused(fourth_street(), "call")

    assert isinstance(error, ValueError)
    assert error.code == "illegal_action"


def test_raise_past_the_cap_names_the_cap_rule():
    hand = fourth_street().play("bet", ("raise", 8), ("raise", 12), ("raise", 16))

    error = refused(hand, "raise", 20)

    assert "raise cap reached: 1 bet and 3 raises on this street" in str(error)


def test_check_facing_a_bet_is_refused():
    error = refused(fourth_street().act("bet"), "check")

    assert str(error).startswith("cannot check facing a bet of 4")


def test_call_with_no_bet_is_refused():
    error = refused(fourth_street(), "call")

    assert str(error).startswith("nothing to call: there is no bet to face")


def test_a_wrong_amount_names_the_fixed_limit():
    error = refused(fourth_street(), "bet", 6)

    assert error.code == "wrong_amount"
    assert "fixed limit allows bet to 4" in str(error)


def test_an_open_pair_bet_needs_its_amount():
    cards = {**THREE, 1: "QhQd Ks Kh Jd Tc 9c"}
    hand = stacked_hand(Rules(), NO_ANTE, [200, 200, 200], cards).play("bring_in", "call", "call")

    error = refused(hand, "bet")

    assert error.code == "amount_required"


def test_acting_out_of_turn_is_refused():
    error = refused(fourth_street(), "check", player=2)

    assert error.code == "not_your_turn"
    assert "it is not player 3's turn (player 2 is to act)" in str(error)


def test_an_unknown_action_is_refused():
    error = refused(fourth_street(), "allin")

    assert error.code == "unknown_action"


def test_a_short_all_in_raise_names_the_reopening_rule():
    cards = {0: "AsKd 2c Ah", 1: "QhQd 5s 9h", 2: "JhJs 6s 8d"}
    hand = stacked_hand(Rules(), NO_ANTE, [200, 6, 200], cards)
    hand.play("bring_in", "call", "call", "bet", ("raise", 5), "call")

    error = refused(hand, "raise", 9)

    assert "does not reopen the betting" in str(error)


def test_betting_is_refused_while_cards_are_due():
    hand = HandState(Rules(), STAKES, [50, 50])
    before = snapshot(hand)

    with pytest.raises(IllegalAction) as error:
        hand.act("bring_in")

    assert error.value.code == "not_betting"
    assert snapshot(hand) == before


def test_any_action_is_refused_once_the_hand_is_over():
    hand = fourth_street().play("bet", "fold", "fold")

    error = refused(hand, "check")

    assert error.code == "hand_over"


def test_a_card_dealt_twice_is_refused():
    hand = HandState(Rules(), STAKES, [50, 50])
    hand.deal(Card.parse("As"))
    before = snapshot(hand)

    with pytest.raises(IllegalAction, match="card dealt twice: As"):
        hand.deal(Card.parse("As"))

    assert snapshot(hand) == before


def test_an_unknown_card_is_refused_outside_recorded_hands():
    hand = HandState(Rules(), STAKES, [50, 50])

    with pytest.raises(IllegalAction, match="only allowed in recorded"):
        hand.deal(None)


def test_dealing_when_no_card_is_due_is_refused():
    hand = stacked_hand(Rules(), STAKES, [50, 50], THREE)
    before = snapshot(hand.state)

    with pytest.raises(IllegalAction) as error:
        hand.state.deal(Card.parse("2s"))

    assert error.value.code == "no_deal"
    assert snapshot(hand.state) == before


# --- Rules, Stakes and table validation ------------------------------------------------------


@pytest.mark.parametrize("players", [1, 9])
def test_a_hand_needs_two_to_eight_players(players):
    with pytest.raises(IllegalAction, match="2 to 8 players"):
        HandState(Rules(), STAKES, [50] * players)


@pytest.mark.parametrize("stacks", [[50, 0], [50, -1], [50, 2.5], [50, True]])
def test_every_stack_is_a_positive_whole_number(stacks):
    with pytest.raises(IllegalAction, match="whole, positive number of chips"):
        HandState(Rules(), STAKES, stacks)


@pytest.mark.parametrize(
    "stakes",
    [
        {"ante": -1, "bring_in": 1, "small_bet": 4, "big_bet": 8},
        {"ante": 1, "bring_in": 1.5, "small_bet": 4, "big_bet": 8},
        {"ante": 1, "bring_in": 0, "small_bet": 4, "big_bet": 8},
        {"ante": 1, "bring_in": 4, "small_bet": 4, "big_bet": 8},
        {"ante": 1, "bring_in": 1, "small_bet": 8, "big_bet": 4},
    ],
)
def test_stakes_must_be_whole_chips_with_bring_in_below_small_bet_below_big(stakes):
    with pytest.raises(ValueError, match="stakes:"):
        Stakes(**stakes)


@pytest.mark.parametrize("qualifier", [4, 14])
def test_the_low_qualifier_is_5_to_13_or_none(qualifier):
    with pytest.raises(ValueError, match="low_qualifier"):
        Rules(low_qualifier=qualifier)


@pytest.mark.parametrize(
    "options", [{"variant": "holdem"}, {"board_tie": "coin"}, {"showdown_order": "random"}]
)
def test_unknown_rule_options_are_refused(options):
    with pytest.raises(ValueError):
        Rules(**options)


def test_the_rule_defaults_are_the_rule_book_defaults():
    assert Rules().to_dict() == {
        "variant": "stud_hi",
        "low_qualifier": 8,
        "open_pair_double": True,
        "board_tie": "seat",
        "showdown_order": "last_aggressor",
        "uncap_heads_up": False,
        "burn_cards": False,
    }
