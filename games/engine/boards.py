"""Exposed boards: who brings in on third street and who acts first from fourth street on.

On a board of 1 to 4 up-cards only pairs, two pair, trips, quads and high cards count;
straights and flushes of up-cards never do. Board keys are tuples where LARGER is the
stronger board (for the low keys: the better ace-to-five low); equal keys are ties, which
the table breaks by seat or, with ``board_tie = suit``, by the card keys below.

>>> from games.engine.cards import parse_cards
>>> high_board_key(parse_cards("7c 7d")) > high_board_key(parse_cards("As Ks"))
True
>>> min(parse_cards("2s 2h 2d"), key=lambda card: bring_in_key(card, razz=False))
2d
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import cache

from games.engine.cards import FULL_DECK, Card

_MOST_UP_CARDS = 4
_RANK_INDEX = tuple(card >> 2 for card in range(52))  # 0 = deuce .. 12 = ace, read in C by map
ACE_INDEX = 12


def high_board_key(upcards: Sequence[Card]) -> tuple[int, ...]:
    """How strong a board is for high (stud_hi, stud_8): larger acts first.

    The key is ``(shape, group ranks...)``: shape 0 high cards, 1 a pair, 2 two pair,
    3 trips, 4 quads; then the ranks of the bigger groups first, then the kickers, each
    from the highest down (ace high). Boards of fewer cards compare what is there.

    >>> from games.engine.cards import parse_cards
    >>> high_board_key(parse_cards("9c 9d Ah"))
    (1, 9, 14)
    """
    return _high_key(tuple(sorted(map(_RANK_INDEX.__getitem__, upcards))))


def low_board_key(upcards: Sequence[Card]) -> tuple[int, ...]:
    """How good a board is as an ace-to-five low (razz, and "leads low" in stud_8): larger
    acts first. Aces are low and pairs are bad: any unpaired board beats any paired one,
    then the highest card decides, and so on down.

    >>> from games.engine.cards import parse_cards
    >>> low_board_key(parse_cards("7c 2d Ah")) > low_board_key(parse_cards("8c 3d 2h"))
    True
    """
    return _low_key(tuple(sorted(map(_RANK_INDEX.__getitem__, upcards))))


def bring_in_key(card: Card, razz: bool) -> int:
    """Order third-street up-cards for the bring-in: the SMALLEST key brings in.

    stud_hi and stud_8: the lowest rank (ace high), ties to the lowest suit (clubs, then
    diamonds, hearts, spades). razz: the highest rank (ace low, king highest), ties to the
    highest suit.

    >>> from games.engine.cards import parse_cards
    >>> min(parse_cards("Kc Kh 5d"), key=lambda card: bring_in_key(card, razz=True))
    Kh
    """
    return _BRING_IN_KEYS[razz][card]


_BRING_IN_KEYS = (
    tuple(range(52)),  # a card's int is (rank - 2) * 4 + suit: rank first, then suit
    tuple(-(card.low_rank * 4 + card.suit) for card in FULL_DECK),
)
"""Every card's bring-in key, read once per player and hand: ``[razz][card]``."""


def high_card_by_suit_key(cards: Sequence[Card]) -> tuple[int, int]:
    """``(rank, suit)`` of the highest card by rank (ace high), then suit (spades highest).

    Used for the odd chip (TDA 20-B) and for ``board_tie = suit`` (TDA RP-10-D) in stud_hi
    and stud_8: the larger key wins.

    >>> from games.engine.cards import parse_cards
    >>> high_card_by_suit_key(parse_cards("Kc Kh 5d"))
    (13, 2)
    """
    top = max(cards)
    return (top.rank, top.suit)


def low_card_by_suit_key(cards: Sequence[Card]) -> tuple[int, int]:
    """``board_tie = suit`` in razz, the mirror of :func:`high_card_by_suit_key`: the key
    of the lowest card by rank (ace low), then suit (clubs lowest); the LARGER key wins.

    Chosen as the mirror of the razz bring-in (highest card, highest suit brings in): the
    best razz card is the lowest rank, and of equal ranks the lowest suit. The key is
    ``(-low_rank, -suit)`` of that card.

    >>> from games.engine.cards import parse_cards
    >>> low_card_by_suit_key(parse_cards("Kc Ah 5d"))
    (-1, -2)
    """
    lowest = min(cards, key=lambda card: (card.low_rank, card.suit))
    return (-lowest.low_rank, -lowest.suit)


# Boards are keyed by their rank indexes (a card's int // 4: 0 for a deuce .. 12 for an ace),
# sorted, so that every board of the same ranks is worked out once (there are 2,379).


@cache
def _high_key(rank_indexes: tuple[int, ...]) -> tuple[int, ...]:
    return _board_key([index + 2 for index in rank_indexes])


@cache
def _low_key(rank_indexes: tuple[int, ...]) -> tuple[int, ...]:
    ranks = [1 if index == ACE_INDEX else index + 2 for index in rank_indexes]
    return tuple(-part for part in _board_key(ranks))


def _board_key(ranks: Sequence[int]) -> tuple[int, ...]:
    if not 1 <= len(ranks) <= _MOST_UP_CARDS:
        raise ValueError(f"a board has 1 to 4 up-cards, not {len(ranks)}")
    counts = Counter(ranks)
    groups = sorted(counts, key=lambda rank: (counts[rank], rank), reverse=True)
    return (_shape(sorted(counts.values(), reverse=True)), *groups)


def _shape(group_sizes: list[int]) -> int:
    """0 high cards, 1 a pair, 2 two pair, 3 trips, 4 quads."""
    if group_sizes[0] == 1:
        return 0
    if group_sizes[0] == 2:
        return 2 if group_sizes[1:2] == [2] else 1
    return group_sizes[0]
