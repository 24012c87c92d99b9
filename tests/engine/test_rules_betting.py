"""Third-street action, bet sizes, check-raise and the cap (docs/rules.md 4.4, 4.6, 4.8, 4.9).

Stakes: bring-in 1, small bet 4, big bet 8 (complete to 4; raises to 8, 12, 16: capped).
"""

import pytest

from games.engine.rules import Rules
from games.engine.state import IllegalAction
from tests.engine.helpers import NO_ANTE, snapshot, stacked_hand

# Player 0 brings in (2c); no pairs on fourth street; player 1 leads every later board.
THREE = {
    0: "AsKd 2c 3d 4h 5s 6c",
    1: "QhQd Ks 8h Jd Tc 9c",
    2: "JhJs 9s 7d 6h 4s 3h",
}
TWO = {0: "AsKd 2c 3d 4h 5s 6c", 1: "QhQd Ks 7h Jd Tc 9c"}


def three_handed(rules=None, stacks=(200, 200, 200)):
    return stacked_hand(rules or Rules(), NO_ANTE, stacks, THREE)


def to_fourth_street(hand):
    """Bring-in and two calls: third street ends, fourth street is dealt."""
    return hand.play("bring_in", *["call"] * (len(hand.state.players) - 1))


# --- third street (4.4, 4.9) -----------------------------------------------------------------


def test_after_the_bring_in_players_fold_call_or_complete():
    hand = three_handed().act("bring_in")

    assert hand.options() == [("fold", 0), ("call", 1), ("complete", 4)]


def test_after_a_completion_players_fold_call_or_raise_a_small_bet():
    hand = three_handed().act("bring_in").act("complete")

    assert hand.options() == [("fold", 0), ("call", 4), ("raise", 8)]


def test_the_bring_in_counts_as_acted_so_calls_end_third_street():
    hand = to_fourth_street(three_handed())

    assert hand.state.street_name == "fourth"
    assert [p.total_in for p in hand.state.players] == [1, 1, 1]


def test_the_bring_in_facing_a_completion_may_fold_call_or_raise():
    hand = three_handed().play("bring_in", "complete", "call")

    assert hand.state.actor == 0
    assert hand.options() == [("fold", 1), ("call", 4), ("raise", 8)]


def test_third_street_raises_are_small_bets_up_to_the_cap():
    # bring-in 1, complete 4, raise 8, 12, 16: capped (the bring-in does not count)
    hand = three_handed().play("bring_in", "complete", ("raise", 8), ("raise", 12))

    assert hand.options() == [("fold", 4), ("call", 12), ("raise", 16)]
    hand.act("raise", 16)
    assert hand.options() == [("fold", 8), ("call", 16)]
    assert hand.state.bets_made == 4


# --- bet sizes (4.6) -------------------------------------------------------------------------


def test_fourth_street_first_actor_may_check_or_bet_the_small_bet():
    hand = to_fourth_street(three_handed())

    assert hand.state.actor == 1
    assert hand.options() == [("check", 0), ("bet", 4)]


def test_fourth_street_raises_are_small_bets():
    hand = to_fourth_street(three_handed()).act("bet")

    assert hand.options() == [("fold", 0), ("call", 4), ("raise", 8)]


@pytest.mark.parametrize("street", ["fifth", "sixth", "seventh"])
def test_fifth_sixth_and_seventh_street_bets_are_big_bets(street):
    hand = to_fourth_street(three_handed())
    while hand.state.street_name != street:
        hand.act("check")

    assert hand.options() == [("check", 0), ("bet", 8)]
    hand.act("bet")
    assert hand.options() == [("fold", 0), ("call", 8), ("raise", 16)]


def test_a_called_bet_moves_the_chips_into_the_pot():
    hand = to_fourth_street(three_handed()).play("bet", "call", "fold")

    assert hand.state.street_name == "fifth"
    assert [p.total_in for p in hand.state.players] == [1, 5, 5]
    assert hand.stacks() == [199, 195, 195]


# --- check-raise (4.8) -----------------------------------------------------------------------


def test_check_raise_is_allowed():
    # Given player 1 checks first on fourth street and player 2 bets
    hand = to_fourth_street(three_handed()).play("check", "bet", "call")

    # Then player 1 may raise
    assert hand.state.actor == 1
    assert hand.options() == [("fold", 0), ("call", 4), ("raise", 8)]
    hand.act("raise", 8)
    assert hand.state.bets_made == 2


def test_checks_all_round_end_the_street():
    hand = to_fourth_street(three_handed()).play("check", "check", "check")

    assert hand.state.street_name == "fifth"


# --- the cap (4.9) ---------------------------------------------------------------------------


def test_one_bet_and_three_raises_cap_fourth_street():
    hand = to_fourth_street(three_handed()).play("bet", ("raise", 8), ("raise", 12))

    assert hand.options() == [("fold", 4), ("call", 12), ("raise", 16)]
    hand.act("raise", 16)
    assert hand.options() == [("fold", 8), ("call", 16)]


def test_the_cap_holds_heads_up():
    hand = stacked_hand(Rules(), NO_ANTE, [200, 200], TWO).play("bring_in", "call")
    hand.play("bet", ("raise", 8), ("raise", 12), ("raise", 16))

    assert hand.options() == [("fold", 12), ("call", 16)]


def test_uncap_heads_up_lets_two_players_raise_on():
    hand = stacked_hand(Rules(uncap_heads_up=True), NO_ANTE, [200, 200], TWO)
    hand.play("bring_in", "call", "bet", ("raise", 8), ("raise", 12), ("raise", 16))

    assert hand.options() == [("fold", 12), ("call", 16), ("raise", 20)]
    hand.play(("raise", 20), ("raise", 24))
    assert hand.options() == [("fold", 20), ("call", 24), ("raise", 28)]


def test_uncap_heads_up_keeps_the_cap_with_three_players():
    hand = to_fourth_street(three_handed(Rules(uncap_heads_up=True)))
    hand.play("bet", ("raise", 8), ("raise", 12), ("raise", 16))

    assert hand.options() == [("fold", 8), ("call", 16)]


def test_uncap_heads_up_lifts_the_cap_once_a_fold_leaves_two_players():
    hand = to_fourth_street(three_handed(Rules(uncap_heads_up=True)))
    hand.play("bet", ("raise", 8), "fold", ("raise", 12), ("raise", 16))

    assert hand.options() == [("fold", 12), ("call", 16), ("raise", 20)]


def test_a_raise_past_the_cap_is_refused_and_changes_nothing():
    hand = to_fourth_street(three_handed()).play("bet", ("raise", 8), ("raise", 12), ("raise", 16))
    before = snapshot(hand.state)

    with pytest.raises(IllegalAction, match="raise cap reached: 1 bet and 3 raises on this street"):
        hand.state.act("raise", 20)

    assert snapshot(hand.state) == before
