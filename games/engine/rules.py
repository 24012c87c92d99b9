"""The rules of a hand as data: variant, house-rule options, stakes and streets.

Everything here is a frozen value; the state machine reads it and never branches on raw
street numbers or variant strings scattered through the code.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from enum import StrEnum
from typing import Any, Final, TypeVar

from games.engine.refused import Refused


class Variant(StrEnum):
    """The three games (docs/rules.md section 1)."""

    STUD_HI = "stud_hi"
    STUD_8 = "stud_8"
    RAZZ = "razz"


class ShowdownOrder(StrEnum):
    """Who shows first when the last round had no bet (docs/rules.md section 6)."""

    LAST_AGGRESSOR = "last_aggressor"
    SEAT_ORDER = "seat_order"
    BEST_BOARD = "best_board"


class BoardTie(StrEnum):
    """How equal boards decide who acts first (docs/rules.md 4.7)."""

    SEAT = "seat"
    SUIT = "suit"


Choice = TypeVar("Choice", bound=StrEnum)


def _choice(kind: type[Choice], name: str, value: str) -> Choice:
    """``value`` as a member of ``kind``, or a refusal naming the choices."""
    try:
        return kind(value)
    except ValueError:
        raise Refused(
            "{name} must be one of {choices}, not {value}",
            name=name,
            choices=tuple(member.value for member in kind),
            value=repr(value),
        ) from None


CAP: Final = 4
"""One bet plus three raises per betting round (docs/rules.md 4.9)."""


@dataclass(frozen=True, slots=True)
class Rules:
    """A variant and its house-rule options, each with the rule book's default."""

    variant: Variant = Variant.STUD_HI
    low_qualifier: int | None = 8
    open_pair_double: bool = True
    board_tie: BoardTie = BoardTie.SEAT
    showdown_order: ShowdownOrder = ShowdownOrder.LAST_AGGRESSOR
    uncap_heads_up: bool = False
    burn_cards: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "variant", _choice(Variant, "variant", self.variant))
        object.__setattr__(self, "board_tie", _choice(BoardTie, "board_tie", self.board_tie))
        order = _choice(ShowdownOrder, "showdown_order", self.showdown_order)
        object.__setattr__(self, "showdown_order", order)
        if self.low_qualifier is not None and not 5 <= self.low_qualifier <= 13:
            raise Refused(
                "low_qualifier must be 5..13 or None, not {value} (8 is usual)",
                value=repr(self.low_qualifier),
            )

    @property
    def plays_high(self) -> bool:
        """Whether a high hand wins all or half of the pot."""
        return self.variant is not Variant.RAZZ

    @property
    def plays_low(self) -> bool:
        """Whether a low hand wins all or half of the pot."""
        return self.variant is not Variant.STUD_HI

    @property
    def low_boards_lead(self) -> bool:
        """In razz the lowest board acts first and the highest card brings in."""
        return self.variant is Variant.RAZZ

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        values = ((f.name, getattr(self, f.name)) for f in fields(self))
        return {key: str(value) if isinstance(value, StrEnum) else value for key, value in values}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Rules:
        """The inverse of :meth:`to_dict`."""
        return cls(**data)


_AMOUNTS: Final = ("ante", "bring_in", "small_bet", "big_bet")
"""The stakes' amounts, each a multiple of the smallest chip in play."""


@dataclass(frozen=True, slots=True)
class Stakes:
    """One limit level: ante, bring-in, small bet and big bet; ``unit`` is the smallest chip
    in play, the unit tied pots and hi/lo halves are broken down to (docs/rules.md 8), and every
    amount is a multiple of it."""

    ante: int
    bring_in: int
    small_bet: int
    big_bet: int
    unit: int = 1

    def __post_init__(self) -> None:
        for name in (*_AMOUNTS, "unit"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise Refused(
                    "stakes: {name} must be a whole number of chips >= 0, not {value}",
                    name=name,
                    value=repr(value),
                )
        if self.unit < 1:
            raise Refused("stakes: the unit (the smallest chip in play) must be at least 1")
        for name in _AMOUNTS:
            if getattr(self, name) % self.unit:
                raise Refused(
                    "stakes: {name} {amount} is not a multiple of the smallest chip in play, "
                    "{unit}",
                    name=name,
                    amount=getattr(self, name),
                    unit=self.unit,
                )
        if not 0 < self.bring_in < self.small_bet <= self.big_bet:
            raise Refused(
                "stakes: need 0 < bring_in < small_bet <= big_bet (got bring_in {bring_in}, "
                "small_bet {small_bet}, big_bet {big_bet})",
                bring_in=self.bring_in,
                small_bet=self.small_bet,
                big_bet=self.big_bet,
            )

    def to_dict(self) -> dict[str, int]:
        """A JSON-ready dict."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_dict(cls, data: dict[str, int]) -> Stakes:
        """The inverse of :meth:`to_dict`."""
        return cls(**data)


@dataclass(frozen=True, slots=True)
class Street:
    """One street and the rules that are its own (docs/rules.md 2-5).

    ``faces``: the cards each player gets (True = face up); ``big``: the big bet is the unit.
    ``bring_in``: the lowest (razz: highest) up-card brings in and the first full bet is a
    completion (third street). ``open_pair``: an open pair allows the big bet (fourth street,
    with ``Rules.open_pair_double``). ``hidden``: the new card is dealt down, so the boards
    are as on the street before and its first actor acts first again (seventh).
    ``last``: the showdown follows, and a deck too short for everyone deals one community
    card instead.
    """

    name: str
    faces: tuple[bool, ...]
    big: bool
    bring_in: bool = False
    open_pair: bool = False
    hidden: bool = False
    last: bool = False


STREETS: Final = (
    Street("third", (False, False, True), big=False, bring_in=True),
    Street("fourth", (True,), big=False, open_pair=True),
    Street("fifth", (True,), big=True),
    Street("sixth", (True,), big=True),
    Street("seventh", (False,), big=True, hidden=True, last=True),
)
