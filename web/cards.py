"""How a card is drawn: rank, suit symbol, a colour per suit and a name for screen readers.

Presentation only: the text form ("As", "??" for a card the viewer may not see) comes from
the engine's view builder.
"""

from __future__ import annotations

from dataclasses import dataclass

HIDDEN = "??"
RANK_NAMES = {
    "2": "Two", "3": "Three", "4": "Four", "5": "Five", "6": "Six", "7": "Seven",
    "8": "Eight", "9": "Nine", "T": "Ten", "J": "Jack", "Q": "Queen", "K": "King", "A": "Ace",
}  # fmt: skip
SUITS = {
    "c": ("♣", "clubs"),
    "d": ("♦", "diamonds"),
    "h": ("♥", "hearts"),
    "s": ("♠", "spades"),
}


@dataclass(frozen=True)
class CardFace:
    """One card as the page draws it."""

    code: str  # "As", or "??" when the viewer may not see it
    rank: str  # "A", "10", ... ("" when hidden)
    symbol: str  # "♠" ("" when hidden)
    suit: str  # "spades" ("" when hidden): the CSS class that colours it
    label: str  # "Ace of spades, down card"
    down: bool

    @property
    def hidden(self) -> bool:
        return self.code == HIDDEN


def card_face(code: str, *, down: bool) -> CardFace:
    """The face of card ``code`` ("As", "Td" or "??"), marked as a down card if ``down``."""
    where = "down card" if down else "up card"
    if code == HIDDEN:
        return CardFace(HIDDEN, "", "", "", f"face-down card, {where}", down)
    rank, suit = code[0], code[1]
    symbol, suit_name = SUITS[suit]
    label = f"{RANK_NAMES[rank]} of {suit_name}, {where}"
    return CardFace(code, "10" if rank == "T" else rank, symbol, suit_name, label, down)
