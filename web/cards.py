"""How a card is drawn: rank, suit symbol, a colour per suit and a name for screen readers.

Presentation only: the text form ("As", "??" for a card the viewer may not see) comes from
the engine's view builder. The rank and suit on the card stay the symbols every room reads
("A♠"); the name screen readers say is in the page's language.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

HIDDEN = "??"
RANK_NAMES = {
    "2": gettext_lazy("Two"), "3": gettext_lazy("Three"), "4": gettext_lazy("Four"),
    "5": gettext_lazy("Five"), "6": gettext_lazy("Six"), "7": gettext_lazy("Seven"),
    "8": gettext_lazy("Eight"), "9": gettext_lazy("Nine"), "T": gettext_lazy("Ten"),
    "J": gettext_lazy("Jack"), "Q": gettext_lazy("Queen"), "K": gettext_lazy("King"),
    "A": gettext_lazy("Ace"),
}  # fmt: skip
SUITS = {
    "c": ("♣", "clubs", gettext_lazy("clubs")),
    "d": ("♦", "diamonds", gettext_lazy("diamonds")),
    "h": ("♥", "hearts", gettext_lazy("hearts")),
    "s": ("♠", "spades", gettext_lazy("spades")),
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
    where = _("down card") if down else _("up card")
    if code == HIDDEN:
        return CardFace(HIDDEN, "", "", "", _("face-down card, %(where)s") % {"where": where}, down)
    rank, suit = code[0], code[1]
    symbol, suit_class, suit_name = SUITS[suit]
    label = _("%(rank)s of %(suit)s, %(where)s") % {
        "rank": RANK_NAMES[rank],
        "suit": suit_name,
        "where": where,
    }
    return CardFace(code, "10" if rank == "T" else rank, symbol, suit_class, label, down)
