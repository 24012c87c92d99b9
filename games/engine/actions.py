"""A player's decisions: the :class:`Action` names and the :class:`Option` values offered.

``Action`` is a ``str`` enum, so the API, the JSON log and callers that pass plain strings
(``state.act("call", 10)``) keep working: ``Action.CALL == "call"``.

>>> Action("call") is Action.CALL, Action.CALL == "call"
(True, True)
>>> Option(Action.CALL, 10, 5).to_dict()
{'action': 'call', 'to': 10, 'chips': 5}
"""

from __future__ import annotations

from enum import StrEnum
from functools import lru_cache
from typing import Any, Final, NamedTuple


class Action(StrEnum):
    """Every decision a player can take: betting (docs/rules.md 3-4) and showdown
    (docs/rules.md 6)."""

    FOLD = "fold"
    CHECK = "check"
    CALL = "call"
    BET = "bet"
    RAISE = "raise"
    BRING_IN = "bring_in"
    COMPLETE = "complete"
    SHOW = "show"
    MUCK = "muck"


BETTING: Final = frozenset(
    {
        Action.FOLD,
        Action.CHECK,
        Action.CALL,
        Action.BET,
        Action.RAISE,
        Action.BRING_IN,
        Action.COMPLETE,
    }
)
SHOWDOWN: Final = frozenset({Action.SHOW, Action.MUCK})
PASSIVE: Final = frozenset({Action.FOLD, Action.CHECK, Action.CALL})
AGGRESSIVE: Final = frozenset({Action.BET, Action.RAISE, Action.COMPLETE})
"""A full or short bet, raise or completion: it moves the level the others must call."""

BY_NAME: Final[dict[str, Action]] = {action.value: action for action in Action}
"""Each action by its text: ``BY_NAME.get(text)`` reads a plain string or an ``Action``."""


class Option(NamedTuple):
    """One legal decision: the action, the player's street total after it, the chips it costs."""

    action: Action
    to: int = 0
    chips: int = 0

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {"action": self.action.value, "to": self.to, "chips": self.chips}


@lru_cache(maxsize=4096)
def option(action: Action, to: int, chips: int) -> Option:
    """The :class:`Option` of these values, shared: the state offers and takes the same few
    options over and over, and building a named tuple costs five times looking one up."""
    return Option(action, to, chips)
