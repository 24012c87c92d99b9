"""Built-in bots. They decide through the same engine options as humans and are applied by
the same service code; a bot seat is always labelled as a bot (docs/rules.md 10)."""

from __future__ import annotations

import secrets

from games.engine.state import HandState, Option

_rng = secrets.SystemRandom()


def choose(kind: str, state: HandState, options: list[Option], hand_id: int) -> Option:
    """The bot's decision among the legal ``options``."""
    if kind == "station":
        return _calling_station(options)
    if kind == "rules":
        return _rule_based(state, options)
    return _rng.choice(options)


def _first(options: list[Option], *actions: str) -> Option | None:
    for action in actions:
        for option in options:
            if option.action == action:
                return option
    return None


def _calling_station(options: list[Option]) -> Option:
    """Never raises, never folds: checks or calls everything; shows at showdown."""
    return _first(options, "show", "bring_in", "check", "call") or options[0]


def _rule_based(state: HandState, options: list[Option]) -> Option:
    """A simple player: raises with strong cards, calls with fair ones, folds the rest.

    Strength is read from the cards it can see (its own down and up cards): pairs and high
    cards for high games, small unpaired cards for low games.
    """
    me = state.candidates[0]
    cards = [c for c in state.hole_cards(me) if c is not None]
    ranks = [c.rank for c in cards]
    paired = len(set(ranks)) < len(ranks)
    if state.rules.low_boards_lead:
        strength = sum(1 for c in cards if c.low_rank <= 8) - (2 if paired else 0)
        good, fair = len(cards) - 1, len(cards) - 2
    else:
        strength = (3 if paired else 0) + sum(1 for r in ranks if r >= 11)
        good, fair = 3, 1
    if strength >= good:
        return _first(options, "show", "complete", "raise", "bet", "call", "check") or options[0]
    if strength >= fair:
        return _first(options, "show", "bring_in", "check", "call") or options[0]
    return _first(options, "muck", "bring_in", "check", "fold") or options[0]
