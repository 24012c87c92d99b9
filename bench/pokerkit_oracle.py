"""pokerkit as a reference for our engine (benchmark and differential test): the same three
games, the automations that play the forced and mechanical steps, and our cards in
pokerkit's terms. pokerkit is a dev dependency: only benchmarks and tests import this."""

from __future__ import annotations

from pokerkit import Automation, FixedLimitRazz, FixedLimitSevenCardStud, State
from pokerkit import Card as PokerkitCard
from pokerkit import FixedLimitSevenCardStudHighLowSplitEightOrBetter as PokerkitStud8

from games.engine.cards import FULL_DECK
from games.engine.rules import Variant
from games.engine.state import Option

POKERKIT_GAMES = {
    Variant.STUD_HI: FixedLimitSevenCardStud,
    Variant.STUD_8: PokerkitStud8,
    Variant.RAZZ: FixedLimitRazz,
}
AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.CARD_BURNING,
    Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING,
    Automation.CHIPS_PULLING,
)
POKERKIT_CARDS = {card: next(iter(PokerkitCard.parse(repr(card)))) for card in FULL_DECK}


def apply_option(pk: State, option: Option) -> None:
    """Take one of our betting decisions in pokerkit."""
    if option.action == "fold":
        pk.fold()
    elif option.action in ("check", "call"):
        pk.check_or_call()
    elif option.action == "bring_in":
        pk.post_bring_in()
    else:
        pk.complete_bet_or_raise_to(option.to)
