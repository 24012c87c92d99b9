"""Cards and the deck.

A card is a small immutable integer in ``0..51``: ``(rank - 2) * 4 + suit``, ranks 2..14
(ace high), suits clubs, diamonds, hearts, spades (the order that breaks bring-in ties).
Being an ``int`` keeps hand evaluation fast; its text form is the usual two characters.

>>> Card.parse("As")
As
>>> Card.parse("As").rank, Card.parse("As").suit
(14, 3)
>>> parse_cards("Td2c")
[Td, 2c]
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final, Protocol

RANKS: Final = "23456789TJQKA"
SUITS: Final = "cdhs"
ACE: Final = 14
DECK_SIZE: Final = 52


class Card(int):
    """One playing card; an ``int`` in 0..51 with a two-character text form."""

    __slots__ = ()

    def __new__(cls, index: int) -> Card:
        if not 0 <= index < DECK_SIZE:
            raise ValueError(f"a card index is 0..51, not {index}")
        if len(_CARDS) == DECK_SIZE:
            return _CARDS[index]
        return super().__new__(cls, index)

    @classmethod
    def of(cls, rank: int, suit: int) -> Card:
        """The card of ``rank`` (2..14) and ``suit`` (0 clubs .. 3 spades)."""
        return _CARDS[(rank - 2) * 4 + suit]

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read ``As``, ``Td``, ``2c`` (rank letter, then suit letter)."""
        if len(text) != 2 or text[0].upper() not in RANKS or text[1].lower() not in SUITS:
            raise ValueError(f"not a card: {text!r} (write rank then suit, like 'As', 'Td', '2c')")
        return _CARDS[RANKS.index(text[0].upper()) * 4 + SUITS.index(text[1].lower())]

    @property
    def rank(self) -> int:
        """2..14, ace high."""
        return int(self) // 4 + 2

    @property
    def suit(self) -> int:
        """0 clubs, 1 diamonds, 2 hearts, 3 spades."""
        return int(self) % 4

    @property
    def low_rank(self) -> int:
        """1..13 with the ace as 1, for ace-to-five low."""
        rank = int(self) // 4 + 2
        return 1 if rank == ACE else rank

    def __repr__(self) -> str:
        return RANKS[int(self) // 4] + SUITS[int(self) % 4]

    __str__ = __repr__

    def __reduce__(self) -> tuple[type[Card], tuple[int]]:
        return (Card, (int(self),))


_CARDS: list[Card] = []
_CARDS.extend(Card(index) for index in range(DECK_SIZE))
FULL_DECK: Final[tuple[Card, ...]] = tuple(_CARDS)


def parse_cards(text: str) -> list[Card]:
    """Read a run of cards written together or apart: ``"AsKd"``, ``"As Kd"``."""
    compact = "".join(text.split())
    if len(compact) % 2:
        raise ValueError(f"not a list of cards: {text!r} (two characters a card, like 'AsKd')")
    return [Card.parse(compact[i : i + 2]) for i in range(0, len(compact), 2)]


def format_cards(cards: Iterable[Card]) -> str:
    """The cards written together, ``"AsKd"``."""
    return "".join(map(repr, cards))


class Shuffler(Protocol):
    """Anything that shuffles a list in place: ``random.Random``, ``secrets.SystemRandom``,
    or :class:`games.engine.fairness.SeededShuffler`."""

    def shuffle(self, x: list[Card], /) -> None: ...


def shuffled_deck(rng: Shuffler) -> list[Card]:
    """A fresh 52-card deck shuffled by ``rng`` (the only source of chance in the engine)."""
    deck = list(FULL_DECK)
    rng.shuffle(deck)
    return deck


def find_repeated(cards: Iterable[Card]) -> list[Card]:
    """The cards that appear more than once (empty when all are distinct)."""
    seen: set[Card] = set()
    repeated: list[Card] = []
    for card in cards:
        if card in seen:
            repeated.append(card)
        seen.add(card)
    return repeated
