"""The fourth-street open pair option (docs/rules.md 4.6): bet or raise by the big bet.

Stakes: bring-in 1, small bet 4, big bet 8. Player 1 shows a pair of nines on fourth street
and acts first; player 0 brings in (2c).
"""

from games.engine.rules import Rules
from tests.engine.helpers import NO_ANTE, stacked_hand

PAIRED = {
    0: "AsKd 2c 3d 4h 5s 6c",
    1: "QhQd 9s 9h Jd Tc 7c",
    2: "JhJs 8s 7d 6h 4s 3h",
}


def fourth_street(rules, cards=PAIRED):
    return stacked_hand(rules, NO_ANTE, [200, 200, 200], cards).play("bring_in", "call", "call")


def test_open_pair_the_first_player_may_bet_small_or_big():
    hand = fourth_street(Rules())

    assert hand.state.actor == 1
    assert hand.options() == [("check", 0), ("bet", 4), ("bet", 8)]


def test_open_pair_after_a_small_bet_call_raise_small_or_raise_big():
    # "after a small bet of 2 in a 2/4 game: call 2, raise by 2, or raise by 4"
    hand = fourth_street(Rules()).act("bet", 4)

    assert hand.options() == [("fold", 0), ("call", 4), ("raise", 8), ("raise", 12)]


def test_open_pair_after_a_big_bet_every_raise_is_big():
    hand = fourth_street(Rules()).act("bet", 8)

    assert hand.options() == [("fold", 0), ("call", 8), ("raise", 16)]
    hand.act("raise", 16)
    assert hand.options() == [("fold", 0), ("call", 16), ("raise", 24)]


def test_open_pair_after_a_big_raise_no_more_small_raises():
    hand = fourth_street(Rules()).play(("bet", 4), ("raise", 12))

    assert hand.options() == [("fold", 0), ("call", 12), ("raise", 20)]


def test_open_pair_small_raises_stay_possible_until_a_big_one():
    hand = fourth_street(Rules()).play(("bet", 4), ("raise", 8))

    assert hand.options() == [("fold", 0), ("call", 8), ("raise", 12), ("raise", 16)]


def test_open_pair_the_cap_still_holds_with_big_raises():
    hand = fourth_street(Rules()).play(("bet", 8), ("raise", 16), ("raise", 24), ("raise", 32))

    assert hand.options() == [("fold", 16), ("call", 32)]


def test_open_pair_any_player_may_raise_big_not_only_the_pair():
    # Player 1 (the pair) checks; player 2 (no pair) may bet big
    hand = fourth_street(Rules()).act("check")

    assert hand.state.actor == 2
    assert hand.options() == [("check", 0), ("bet", 4), ("bet", 8)]


def test_open_pair_off_only_the_small_bet():
    hand = fourth_street(Rules(open_pair_double=False))

    assert hand.options() == [("check", 0), ("bet", 4)]
    hand.act("bet")
    assert hand.options() == [("fold", 0), ("call", 4), ("raise", 8)]


def test_no_pair_on_board_no_big_bet_on_fourth_street():
    cards = {**PAIRED, 1: "QhQd 9s 8h Jd Tc 7c", 2: "JhJs 9h 7d 6h 4s 3h"}
    hand = fourth_street(Rules(), cards)

    assert hand.options() == [("check", 0), ("bet", 4)]


def test_a_pair_split_between_down_and_up_cards_is_not_an_open_pair():
    cards = {**PAIRED, 1: "9hQd 9s Kh Jd Tc 7c"}
    hand = fourth_street(Rules(), cards)

    assert hand.state.actor == 1
    assert hand.options() == [("check", 0), ("bet", 4)]


def test_the_open_pair_option_ends_with_fourth_street():
    hand = fourth_street(Rules()).play("check", "check", "check")

    assert hand.state.street_name == "fifth"
    assert hand.options() == [("check", 0), ("bet", 8)]
