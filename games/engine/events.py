"""The events of a hand's log as frozen values (like pokerkit's operations).

A hand's log is a list of :data:`Event`: the inputs (a card dealt or burned, a player's
decision, a show or muck) and what follows from the rules (antes, streets, returned uncalled
bets, the showdown order, awards). Events become dicts only at the JSON edge:
:meth:`to_dict` gives the form the database, the API and hand histories keep, and
:func:`event_from_dict` reads it back.

>>> from games.engine.cards import Card
>>> Deal(0, Card.parse("As"), up=True).to_dict()
{'type': 'deal', 'player': 0, 'card': 'As', 'up': True}
>>> event_from_dict({"type": "action", "player": 1, "action": "call", "to": 10})
PlayerAction(player=1, action=<Action.CALL: 'call'>, to=10)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, ClassVar, Final

from games.engine.actions import Action
from games.engine.cards import FULL_DECK, Card

_TEXT: Final = {card: repr(card) for card in FULL_DECK}


def _card_text(card: Card | None) -> str | None:
    return None if card is None else _TEXT[card]


def _card(text: str | None) -> Card | None:
    return None if text is None else Card.parse(text)


@dataclass(frozen=True, slots=True)
class Ante:
    """A player posts the ante (all their chips when they have less)."""

    player: int
    amount: int
    type: ClassVar[str] = "ante"

    def to_dict(self) -> dict[str, Any]:
        """The JSON form."""
        return {"type": "ante", "player": self.player, "amount": self.amount}


@dataclass(frozen=True, slots=True)
class StreetStart:
    """A new street (``third`` .. ``seventh``) and its betting round begin."""

    street: str
    type: ClassVar[str] = "street"

    def to_dict(self) -> dict[str, Any]:
        """The JSON form."""
        return {"type": "street", "street": self.street}


@dataclass(frozen=True, slots=True)
class Deal:
    """A card dealt to ``player`` (None: the community card), face up or down. The card is
    None only in a recorded history that does not tell it."""

    player: int | None
    card: Card | None
    up: bool
    type: ClassVar[str] = "deal"

    def to_dict(self) -> dict[str, Any]:
        """The JSON form."""
        return {"type": "deal", "player": self.player, "card": _card_text(self.card), "up": self.up}


@dataclass(frozen=True, slots=True)
class Burn:
    """A burn card (option ``burn_cards``); None when a recorded history does not tell it."""

    card: Card | None
    type: ClassVar[str] = "burn"

    def to_dict(self) -> dict[str, Any]:
        """The JSON form."""
        return {"type": "burn", "card": _card_text(self.card)}


@dataclass(frozen=True, slots=True)
class PlayerAction:
    """A betting decision: ``to`` is the player's total on the street after it."""

    player: int
    action: Action
    to: int
    type: ClassVar[str] = "action"

    def to_dict(self) -> dict[str, Any]:
        """The JSON form."""
        return {"type": "action", "player": self.player, "action": self.action.value, "to": self.to}


@dataclass(frozen=True, slots=True)
class UncalledReturn:
    """The part of a bet nobody called goes back to its owner."""

    player: int
    amount: int
    type: ClassVar[str] = "return"

    def to_dict(self) -> dict[str, Any]:
        """The JSON form."""
        return {"type": "return", "player": self.player, "amount": self.amount}


@dataclass(frozen=True, slots=True)
class Showdown:
    """The showdown begins; the live players show in ``order``."""

    order: tuple[int, ...]
    type: ClassVar[str] = "showdown"

    def to_dict(self) -> dict[str, Any]:
        """The JSON form."""
        return {"type": "showdown", "order": list(self.order)}


@dataclass(frozen=True, slots=True)
class Show:
    """A player shows their hand: ``cards`` are the down cards (the up cards are known)."""

    player: int
    cards: tuple[Card, ...]
    type: ClassVar[str] = "show"

    def to_dict(self) -> dict[str, Any]:
        """The JSON form."""
        return {"type": "show", "player": self.player, "cards": [_TEXT[c] for c in self.cards]}


@dataclass(frozen=True, slots=True)
class Muck:
    """A player gives up their hand at the showdown without showing it."""

    player: int
    type: ClassVar[str] = "muck"

    def to_dict(self) -> dict[str, Any]:
        """The JSON form."""
        return {"type": "muck", "player": self.player}


@dataclass(frozen=True, slots=True)
class Award:
    """Chips paid from pot number ``pot`` (0 = main) to ``player``; ``half`` is "high" or
    "low" in a split game, ``hand`` the winning hand's name (None when paid unshown)."""

    pot: int
    player: int
    amount: int
    half: str | None
    hand: str | None
    type: ClassVar[str] = "award"

    def to_dict(self) -> dict[str, Any]:
        """The JSON form."""
        return {
            "type": "award",
            "pot": self.pot,
            "player": self.player,
            "amount": self.amount,
            "half": self.half,
            "hand": self.hand,
        }


Event = (
    Ante
    | StreetStart
    | Deal
    | Burn
    | PlayerAction
    | UncalledReturn
    | Showdown
    | Show
    | Muck
    | Award
)
"""One entry of a hand's log."""

INPUTS: Final = (Deal, Burn, PlayerAction, Show, Muck)
"""The events that feed a hand (the others follow from the rules)."""

_READERS: Final[dict[str, Callable[[Mapping[str, Any]], Event]]] = {
    "ante": lambda d: Ante(d["player"], d["amount"]),
    "street": lambda d: StreetStart(d["street"]),
    "deal": lambda d: Deal(d["player"], _card(d["card"]), d["up"]),
    "burn": lambda d: Burn(_card(d["card"])),
    "action": lambda d: PlayerAction(d["player"], Action(d["action"]), d["to"]),
    "return": lambda d: UncalledReturn(d["player"], d["amount"]),
    "showdown": lambda d: Showdown(tuple(d["order"])),
    "show": lambda d: Show(d["player"], tuple(Card.parse(c) for c in d["cards"])),
    "muck": lambda d: Muck(d["player"]),
    "award": lambda d: Award(d["pot"], d["player"], d["amount"], d["half"], d["hand"]),
}

EVENT_TYPES: Final = frozenset(_READERS)
"""Every ``type`` of event the engine writes to a hand's log (a table's log holds others)."""
INPUT_TYPES: Final = frozenset(kind.type for kind in INPUTS)


# Events are values, so the live engine shares equal ones instead of building each again: a
# frozen dataclass costs four times a dict to build, and a hand logs 20 to 100 of them.

DEALS: Final = tuple(
    tuple(tuple(Deal(player, card, up) for card in FULL_DECK) for player in range(8))
    for up in (False, True)
)
"""``DEALS[up][player][card]``: every deal of a known card to a player, made once."""


@lru_cache(maxsize=4096)
def player_action(player: int, action: Action, to: int) -> PlayerAction:
    """The :class:`PlayerAction` of these values (shared: the same decision at the same
    amount is one value)."""
    return PlayerAction(player, action, to)


@lru_cache(maxsize=1024)
def ante(player: int, amount: int) -> Ante:
    """The :class:`Ante` of these values (shared)."""
    return Ante(player, amount)


def event_from_dict(data: Mapping[str, Any]) -> Event:
    """The inverse of ``Event.to_dict()``. Raises ``ValueError`` for a dict that is no event."""
    kind = data.get("type")
    reader = _READERS.get(kind) if isinstance(kind, str) else None
    if reader is None:
        raise ValueError(f"not a hand event: {dict(data)}")
    try:
        return reader(data)
    except (KeyError, TypeError, ValueError) as error:
        raise ValueError(f"not a valid {data['type']} event: {dict(data)} ({error})") from error


def to_dicts(events: Iterable[Event]) -> list[dict[str, Any]]:
    """The events in their JSON form."""
    return [event.to_dict() for event in events]
