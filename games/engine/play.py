"""Driving a hand: deal from a shuffled deck and ask a chooser for every decision.

Used by the benchmark, the property tests and the bots; the service deals the same way.

>>> from games.engine.fairness import SeededShuffler
>>> from games.engine.rules import Rules, Stakes
>>> shuffler = SeededShuffler(b"seven")
>>> hand = play_hand(Rules(), Stakes(1, 2, 5, 10), [100, 100, 100], shuffler, first_not_fold)
>>> hand.is_over, sum(p.stack for p in hand.players)
(True, 300)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final, Protocol

from games.engine.actions import Action
from games.engine.cards import Shuffler, shuffled_deck
from games.engine.rules import Rules, Stakes
from games.engine.state import HandState, Option

Chooser = Callable[[HandState, list[Option]], Option]
"""Picks one of the legal options for the player to act."""


class Picker(Protocol):
    """What :func:`random_choice_with` needs of an RNG."""

    def choice(self, seq: Sequence[Option], /) -> Option: ...


deal_pending: Final = HandState.deal_from
"""``deal_pending(state, deck)``: deal every card the hand needs now, from the top (end) of
``deck`` (the method itself, called once per decision: no wrapper call in between)."""


def play_hand(
    rules: Rules,
    stakes: Stakes,
    stacks: Sequence[int],
    rng: Shuffler,
    choose: Chooser,
) -> HandState:
    """Play one hand to the end with a deck shuffled by ``rng``."""
    state = HandState(rules, stakes, stacks)
    deck = shuffled_deck(rng)
    while not state.is_over:
        deal_pending(state, deck)
        if state.is_over:
            break
        option = choose(state, state.legal_actions())
        state.act(option.action, option.to)
    return state


def random_choice_with(rng: Picker) -> Chooser:
    """A chooser that picks uniformly among the legal options."""

    def choose(state: HandState, options: list[Option]) -> Option:
        return rng.choice(options)

    return choose


def first_not_fold(state: HandState, options: list[Option]) -> Option:
    """Pick the first option that is not a fold, else fold (deterministic; for examples)."""
    return next((o for o in options if o.action is not Action.FOLD), options[0])
