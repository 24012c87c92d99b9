"""A recorded history's hand (docs/rules.md 3 and 6 as histories tell them): cards nobody saw are
counted, never held; who acts is open among the boards with an unknown card; the showdown
goes in the history's order. Live play never meets any of it."""

from __future__ import annotations

import pytest

from games.engine.cards import parse_cards
from games.engine.recorded import RecordedHand
from games.engine.replay import from_json, to_json
from games.engine.rules import Rules
from games.engine.state import HandState, IllegalAction
from tests.engine.helpers import STAKES


def _deal(hand: HandState, *cards: str | None) -> None:
    for card in cards:
        hand.deal(parse_cards(card)[0] if card else None)


def _third_street(up: tuple[str | None, str | None, str | None]) -> RecordedHand:
    """Three players, every down card unknown, up cards as given (None: unknown)."""
    hand = RecordedHand(Rules(), STAKES, [100, 100, 100])
    _deal(hand, None, None, None, None, None, None, *up)
    return hand


def test_live_play_holds_no_unknown_card():
    hand = HandState(Rules(), STAKES, [100, 100])
    assert not hasattr(hand.players[0], "unknown_down")
    with pytest.raises(IllegalAction, match="only allowed in recorded") as refused:
        hand.deal(None)
    assert refused.value.code == "card" and hand.cards_left() == 52


def test_unknown_cards_are_counted_and_come_out_of_the_deck():
    hand = _third_street(("2c", None, "Kd"))
    assert hand.cards_left() == 52 - 9
    assert [len(p.down) for p in hand.players] == [0, 0, 0]
    assert [p.unknown_down for p in hand.players] == [2, 2, 2]
    assert [p.board_known for p in hand.players] == [True, False, True]


def test_the_bring_in_is_open_to_the_lowest_known_card_and_every_unknown_one():
    assert _third_street(("2c", None, "Kd")).candidates == (0, 1)
    assert _third_street(("Kc", "Qd", "3h")).candidates == (2,)  # all known: as in live play
    hand = _third_street((None, None, None))
    assert hand.candidates == (0, 1, 2) and hand.actor is None
    hand.act("bring_in", player=1)
    assert hand.actor == 2


def test_a_hand_with_an_unknown_card_cannot_be_shown_and_the_showdown_goes_in_any_order():
    hand = RecordedHand(Rules(), STAKES, [100, 100])
    _deal(hand, None, None, "As", "Kd", "Kh", "2c")
    hand.act("bring_in", player=1)
    hand.act("call", player=0)
    for _street in ("fourth", "fifth", "sixth", "seventh"):
        _deal(hand, None, None)
        hand.act("check", player=hand.candidates[0])
        hand.act("check", player=hand.candidates[0])
    assert hand.phase == "showdown" and hand.candidates == (0, 1)
    with pytest.raises(IllegalAction, match="unknown and cannot be shown"):
        hand.act("show", player=1)
    hand.act("muck", player=1)  # whoever the history says, in its order
    assert hand.is_over
    assert hand.players[0].stack > hand.players[1].stack


def test_a_recorded_hand_round_trips_through_json_as_a_recorded_hand():
    hand = _third_street(("2c", None, "Kd"))
    again = from_json(to_json(hand))
    assert isinstance(again, RecordedHand) and again == hand
    assert type(from_json(to_json(HandState(Rules(), STAKES, [50, 50])))) is HandState
