"""Hand names in the reader's language, built from the engine's structured values.

The engine names hands in English for its logs and tools (``games.engine.evaluation``:
``"two pair, eights and sixes"``, ``"7-5-4-2-A low"``). What a person reads is named here
instead, from the value's category and ranks (``high_rank`` / ``low_rank``), each pattern
one translatable sentence with named placeholders and each rank a word of its own, so a
language orders the words its way (docs/glossary.md has the rooms' words). In English the
names are the engine's, letter for letter.

``named_view`` puts these names into an engine view (``games.engine.views.view_for``): the
players' hands, the winners' hands and the hi-lo "no low" note.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import pgettext, pgettext_lazy

from games.engine.cards import ACE
from games.engine.evaluation import (
    FLUSH,
    FOUR_OF_A_KIND,
    FULL_HOUSE,
    HIGH_CARD,
    PAIR,
    STRAIGHT,
    STRAIGHT_FLUSH,
    THREE_OF_A_KIND,
    TWO_PAIR,
    high_rank,
    low_rank,
    low_run,
)
from games.engine.rules import Variant
from games.engine.showdown import hand_value
from games.engine.state import HandState

# One card of a rank ("high card king"); index 1 is the ace played low, 14 played high.
_ONE = {
    1: pgettext_lazy("one card of the rank", "ace"),
    2: pgettext_lazy("one card of the rank", "two"),
    3: pgettext_lazy("one card of the rank", "three"),
    4: pgettext_lazy("one card of the rank", "four"),
    5: pgettext_lazy("one card of the rank", "five"),
    6: pgettext_lazy("one card of the rank", "six"),
    7: pgettext_lazy("one card of the rank", "seven"),
    8: pgettext_lazy("one card of the rank", "eight"),
    9: pgettext_lazy("one card of the rank", "nine"),
    10: pgettext_lazy("one card of the rank", "ten"),
    11: pgettext_lazy("one card of the rank", "jack"),
    12: pgettext_lazy("one card of the rank", "queen"),
    13: pgettext_lazy("one card of the rank", "king"),
    14: pgettext_lazy("one card of the rank", "ace"),
}
# Several cards of a rank ("two pair, eights and sixes").
_MANY = {
    1: pgettext_lazy("cards of the rank", "aces"),
    2: pgettext_lazy("cards of the rank", "twos"),
    3: pgettext_lazy("cards of the rank", "threes"),
    4: pgettext_lazy("cards of the rank", "fours"),
    5: pgettext_lazy("cards of the rank", "fives"),
    6: pgettext_lazy("cards of the rank", "sixes"),
    7: pgettext_lazy("cards of the rank", "sevens"),
    8: pgettext_lazy("cards of the rank", "eights"),
    9: pgettext_lazy("cards of the rank", "nines"),
    10: pgettext_lazy("cards of the rank", "tens"),
    11: pgettext_lazy("cards of the rank", "jacks"),
    12: pgettext_lazy("cards of the rank", "queens"),
    13: pgettext_lazy("cards of the rank", "kings"),
    14: pgettext_lazy("cards of the rank", "aces"),
}


def high_name(value: int) -> str:
    """A high value's name: ``"two pair, eights and sixes"`` in English."""
    hand = high_rank(value)
    category, first = hand.category, hand.ranks[0]
    second = hand.ranks[1] if len(hand.ranks) > 1 else 0
    if category == STRAIGHT_FLUSH:
        if first == ACE:
            return pgettext("hand", "a royal flush")
        return pgettext("hand", "a straight flush, %(rank)s high") % {"rank": _ONE[first]}
    if category == FOUR_OF_A_KIND:
        return pgettext("hand", "four of a kind, %(ranks)s") % {"ranks": _MANY[first]}
    if category == FULL_HOUSE:
        return pgettext("hand", "a full house, %(ranks)s full of %(others)s") % {
            "ranks": _MANY[first],
            "others": _MANY[second],
        }
    if category == FLUSH:
        return pgettext("hand", "a flush, %(rank)s high") % {"rank": _ONE[first]}
    if category == STRAIGHT:
        return pgettext("hand", "a straight, %(rank)s high") % {"rank": _ONE[first]}
    if category == THREE_OF_A_KIND:
        return pgettext("hand", "three of a kind, %(ranks)s") % {"ranks": _MANY[first]}
    if category == TWO_PAIR:
        return pgettext("hand", "two pair, %(ranks)s and %(others)s") % {
            "ranks": _MANY[first],
            "others": _MANY[second],
        }
    if category == PAIR:
        return pgettext("hand", "a pair of %(ranks)s") % {"ranks": _MANY[first]}
    return pgettext("hand", "high card %(rank)s") % {"rank": _ONE[first]}


def low_name(value: int) -> str:
    """An ace-to-five low value's name: ``"7-5-4-2-A low"``; a paired (razz) low names its
    pairs first, ``"a pair of fours, K-Q-J low"``. The run of ranks is written as the
    engine writes it (digits and Latin letters, in every language)."""
    hand = low_rank(value)
    category, ranks = hand.category, hand.ranks
    if category == HIGH_CARD:
        return pgettext("low hand", "%(cards)s low") % {"cards": low_run(ranks)}
    if category == PAIR:
        return pgettext("low hand", "a pair of %(ranks)s, %(cards)s low") % {
            "ranks": _MANY[ranks[0]],
            "cards": low_run(ranks[1:4]),
        }
    if category == TWO_PAIR:
        return pgettext("low hand", "two pair, %(ranks)s and %(others)s, %(cards)s low") % {
            "ranks": _MANY[ranks[0]],
            "others": _MANY[ranks[1]],
            "cards": low_run(ranks[2:3]),
        }
    if category == THREE_OF_A_KIND:
        return pgettext("low hand", "three of a kind, %(ranks)s, %(cards)s low") % {
            "ranks": _MANY[ranks[0]],
            "cards": low_run(ranks[1:3]),
        }
    if category == FULL_HOUSE:
        return pgettext("low hand", "a full house, %(ranks)s full of %(others)s") % {
            "ranks": _MANY[ranks[0]],
            "others": _MANY[ranks[1]],
        }
    return pgettext("low hand", "four of a kind, %(ranks)s, %(cards)s low") % {
        "ranks": _MANY[ranks[0]],
        "cards": low_run(ranks[1:2]),
    }


def no_low_note() -> str:
    """The hi-lo announcement when no low qualified for a pot."""
    return _("no low qualified: the high hand takes the whole pot")


def named_view(view: dict[str, Any], state: HandState) -> dict[str, Any]:
    """``view`` (an engine view of ``state``) with its hand names and notes in the active
    language: each player's hand, each award's winning hand and the "no low" note."""
    for entry in view["players"]:
        if "hand" in entry:
            entry["hand"] = _player_hand_names(state, entry["player"])
    for award in view["winners"]:
        _name_award(award, state)
        if "note" in award:
            award["note"] = no_low_note()
    return view


def named_event(event: dict[str, Any], state: HandState) -> dict[str, Any]:
    """``event`` (an event of ``state``'s log as ``games.engine.views.event_for`` gives it)
    with an award's winning hand named in the active language."""
    if event.get("type") == "award":
        _name_award(event, state)
    return event


def _name_award(award: dict[str, Any], state: HandState) -> None:
    if award["hand"] is not None and state.players[award["player"]].cards_known:
        award["hand"] = _award_hand_name(state, award["player"], award["half"])


def _player_hand_names(state: HandState, i: int) -> dict[str, str | None]:
    """The names ``games.engine.views`` gives a player's hand, in the active language."""
    high, low = hand_value(state.hole_cards(i), state.rules)
    names: dict[str, str | None] = {}
    if high is not None:
        names["high"] = high_name(high)
    if state.rules.plays_low:
        names["low"] = low_name(low) if low is not None else None
    return names


def _award_hand_name(state: HandState, i: int, half: str | None) -> str | None:
    high, low = hand_value(state.hole_cards(i), state.rules)
    if half == "low" or state.rules.variant is Variant.RAZZ:
        return low_name(low) if low is not None else None
    return high_name(high) if high is not None else None
