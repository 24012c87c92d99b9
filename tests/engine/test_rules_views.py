"""What players and observers see (docs/rules.md 10; issue 3 item 5): no leaks."""

import json
import re

from games.engine.rules import Rules, Variant
from games.engine.views import HIDDEN, log_for, view_for
from tests.engine.helpers import STAKES, stacked_hand

CARDS = {0: "AsKd 2c", 1: "QhQd 9s", 2: "JhJs 5c"}
CARD_TEXT = re.compile(r"\b[2-9TJQKA][cdhs]\b")


def third_street():
    return stacked_hand(Rules(), STAKES, [50, 50, 50], CARDS)


def test_a_player_sees_their_own_down_cards():
    view = view_for(third_street().state, 0)

    assert view["players"][0]["down"] == ["As", "Kd"]
    assert view["players"][0]["up"] == ["2c"]


def test_a_player_sees_others_up_cards_but_not_their_down_cards():
    view = view_for(third_street().state, 0)

    assert view["players"][1]["down"] == [HIDDEN, HIDDEN]
    assert view["players"][1]["up"] == ["9s"]


def test_an_observer_sees_no_down_card():
    view = view_for(third_street().state, None)

    assert [p["down"] for p in view["players"]] == [[HIDDEN, HIDDEN]] * 3


def test_a_view_holds_no_card_but_the_viewers_own_and_the_up_cards():
    view = view_for(third_street().state, 1)

    assert set(CARD_TEXT.findall(json.dumps(view))) == {"Qh", "Qd", "2c", "9s", "5c"}


def test_the_legal_actions_are_shown_only_to_the_player_to_act():
    state = third_street().state

    assert view_for(state, 0)["legal_actions"] == [
        {"action": "bring_in", "to": 1, "chips": 1},
        {"action": "complete", "to": 4, "chips": 4},
    ]
    assert view_for(state, 1)["legal_actions"] == []
    assert view_for(state, None)["legal_actions"] == []


def test_the_street_is_labelled():
    hand = third_street()

    assert view_for(hand.state, None)["street"] == "third"


def test_the_log_hides_other_players_down_cards():
    log = log_for(third_street().state, 2)

    deals = [(e["player"], e["card"]) for e in log if e["type"] == "deal"]
    assert deals == [
        (0, HIDDEN), (1, HIDDEN), (2, "Jh"),
        (0, HIDDEN), (1, HIDDEN), (2, "Js"),
        (0, "2c"), (1, "9s"), (2, "5c"),
    ]  # fmt: skip


def test_burn_cards_are_never_shown():
    hand = stacked_hand(
        Rules(burn_cards=True), STAKES, [50, 50], {0: "AsKd 2c", 1: "QhQd 9s"}, burns="7h"
    )

    burns = [e for e in log_for(hand.state, None) if e["type"] == "burn"]
    assert burns == [{"type": "burn", "card": HIDDEN}]
    assert "7h" not in json.dumps(view_for(hand.state, 0))


def test_shown_hands_become_visible_to_everyone_at_showdown():
    cards = {0: "AcAd 2c 5h 9s Td 8c", 1: "KcKd 3h 6d 7s Jh 4c"}
    hand = stacked_hand(Rules(), STAKES, [50, 50], cards).play("bring_in", "call", *["check"] * 8)
    hand.act("muck")  # player 1's kings lose to the aces shown first

    view = view_for(hand.state, None)
    assert view["players"][0]["down"] == ["Ac", "Ad", "8c"]
    assert view["players"][1]["down"] == [HIDDEN] * 3


def test_stud_8_names_the_high_and_the_low_leader():
    cards = {0: "AsKd 9c Kc", 1: "QhQd 3c 2d", 2: "JhJs 5c Th"}
    hand = stacked_hand(Rules(Variant.STUD_8), STAKES, [50, 50, 50], cards)
    hand.play("bring_in", "call", "call")

    assert hand.state.street_name == "fourth"
    assert view_for(hand.state, None)["leaders"] == {"high": 0, "low": 1}


def test_stud_8_says_when_no_low_qualified_and_high_takes_the_pot():
    cards = {0: "KcKh 9h Ts Jc 3d 9c", 1: "8c8d Qs 6h 6s Jd 3c"}
    hand = stacked_hand(Rules(Variant.STUD_8), STAKES, [100, 100], cards)
    hand.play("bring_in", "call", *["check"] * 8)
    hand.act("show")

    winners = view_for(hand.state, None)["winners"]
    assert winners == [
        {
            "pot": 0,
            "player": 0,
            "amount": 4,
            "half": "high",
            "hand": "two pair, kings and nines",
            "note": "no low qualified: the high hand takes the whole pot",
        }
    ]


def test_the_view_shows_the_pots_in_the_middle_and_bets_in_front_of_their_players():
    view = view_for(third_street().play("bring_in").state, None)

    assert view["pots"] == [{"amount": 3 * STAKES.ante, "eligible": [0, 1, 2]}]
    assert [p["street_bet"] for p in view["players"]] == [STAKES.bring_in, 0, 0]
