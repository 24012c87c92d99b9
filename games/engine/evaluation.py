"""Hand values: best high five and best ace-to-five low of 5 to 7 cards, as plain ints.

Larger ints are better hands and equal ints are exact ties (suits never break a showdown
tie), so a showdown is ``max`` over ints.

How it is fast (pure Python, no per-hand loops over five-card subsets): every card maps to
one precomputed int, and the sum of a hand's ints packs

* per-rank counts, 3 bits a rank (13 ranks, bits 0..38), and
* per-suit counters, 4-bit nibbles from bit 40, each starting at 3 so that five cards of a
  suit set the nibble's top bit: a flush is one ``&``.

Without a flush, the rank-count part alone decides both the high and the low value, so it
keys two dicts filled on first sight (at most 73,775 rank multisets of 5 to 7 cards). With
a flush (rare), the suit's ranks key a third dict. With 7 cards or fewer a flush excludes
four of a kind and full houses, so the flush value is then the hand's value.

>>> from games.engine.cards import parse_cards
>>> describe_high(high_value(parse_cards("8c 8d 6h 6s Qc Jd 3h")))
'two pair, eights and sixes'
>>> describe_low(low_value(parse_cards("Ac 2d 4h 5s 7c 9d Kh")))
'7-5-4-2-A low'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Final

from games.engine.cards import ACE, FULL_DECK, RANKS, Card

# High categories, weakest first; a value is ``category << 20`` plus up to five 4-bit ranks
# (the ranks that decide ties, most significant first).
HIGH_CARD: Final = 0
PAIR: Final = 1
TWO_PAIR: Final = 2
THREE_OF_A_KIND: Final = 3
STRAIGHT: Final = 4
FLUSH: Final = 5
FULL_HOUSE: Final = 6
FOUR_OF_A_KIND: Final = 7
STRAIGHT_FLUSH: Final = 8

# Low "badness" categories (ace-to-five: straights and flushes ignored), best first.
_LOW_PATTERNS: Final = {
    (1, 1, 1, 1, 1): HIGH_CARD,
    (2, 1, 1, 1): PAIR,
    (2, 2, 1): TWO_PAIR,
    (3, 1, 1): THREE_OF_A_KIND,
    (3, 2): FULL_HOUSE,
    (4, 1): FOUR_OF_A_KIND,
}
# A low value is this ceiling minus the packed badness, so it is positive and larger is better.
_LOW_CEILING: Final = (FOUR_OF_A_KIND + 1) << 20

_CATEGORY_SHIFT: Final = 20
_RANK_BITS: Final = 3
_SUIT_SHIFT: Final = 40
_RANK_MASK: Final = (1 << _SUIT_SHIFT) - 1
_SUIT_BASE: Final = sum(3 << (_SUIT_SHIFT + 4 * suit) for suit in range(4))
_FLUSH_BITS: Final = sum(8 << (_SUIT_SHIFT + 4 * suit) for suit in range(4))
_FEWEST_CARDS: Final = 5
_MOST_CARDS: Final = 7
_WHEEL_TOP: Final = 5

_PACKED: Final[list[int]] = [
    (1 << (_RANK_BITS * (card.rank - 2))) + (1 << (_SUIT_SHIFT + 4 * card.suit))
    for card in FULL_DECK
]
_RANK_PART: Final[list[int]] = [packed & _RANK_MASK for packed in _PACKED]
# Bound once: ``_PACKED.__getitem__`` would build a bound method on every evaluation.
_packed_of: Final = _PACKED.__getitem__
_rank_part_of: Final = _RANK_PART.__getitem__

_HIGH_BY_RANK_COUNTS: dict[int, int] = {}
_LOW_BY_RANK_COUNTS: dict[int, int] = {}
_HIGH_BY_FLUSH_RANKS: dict[int, int] = {}


def high_value(cards: Sequence[Card]) -> int:
    """The value of the best five-card high hand among 5 to 7 cards; larger is better.

    Raises ``ValueError`` for fewer than 5 or more than 7 cards (the cards must be distinct;
    that is the deck's job and is not checked here).

    >>> from games.engine.cards import parse_cards
    >>> high_value(parse_cards("As 2d 3c 4h 5s")) < high_value(parse_cards("2d 3c 4h 5s 6s"))
    True
    """
    packed = sum(map(_packed_of, cards), _SUIT_BASE)
    if packed & _FLUSH_BITS:
        return _flush_value(cards, packed)
    key = packed & _RANK_MASK
    try:
        return _HIGH_BY_RANK_COUNTS[key]
    except KeyError:
        value = _HIGH_BY_RANK_COUNTS[key] = _high_from_counts(_counts_from_key(key))
        return value


def low_value(cards: Sequence[Card]) -> int:
    """The value of the best ace-to-five low among 5 to 7 cards; larger is better.

    Aces are low, straights and flushes do not count, and pairs make a low worse but are
    used when there is no choice (razz). Raises ``ValueError`` for fewer than 5 or more
    than 7 cards.

    >>> from games.engine.cards import parse_cards
    >>> low_value(parse_cards("6c 4d 3h 2s Ac")) > low_value(parse_cards("7c 5d 4h 3s 2c"))
    True
    """
    key = sum(map(_rank_part_of, cards))
    try:
        return _LOW_BY_RANK_COUNTS[key]
    except KeyError:
        value = _LOW_BY_RANK_COUNTS[key] = _low_from_counts(_counts_from_key(key))
        return value


def low8_value(cards: Sequence[Card], qualifier: int | None = 8) -> int | None:
    """The low value if five unpaired cards of rank ``qualifier`` or lower exist, else None.

    ``qualifier=None`` means every low counts ("hi-lo without qualifier"); the result is
    then ``low_value(cards)``.

    >>> from games.engine.cards import parse_cards
    >>> low8_value(parse_cards("9c 5d 4h 3s 2c Kd Ks")) is None
    True
    """
    value = low_value(cards)
    if qualifier is None:
        return value
    # An unpaired low's badness is its five ranks in nibbles, so its top nibble (bits 16..19)
    # is the highest card; any paired low has a category above them and fails this test.
    if (_LOW_CEILING - value) >> 16 <= qualifier:
        return value
    return None


def best_high_five(cards: Sequence[Card]) -> tuple[Card, ...]:
    """The five cards that make the best high hand, in the order given.

    Among equally good fives (suits aside), the one whose cards are highest by suit, so the
    odd-chip rule (highest card by suit in the winning hand) credits the player fully.
    """
    return max(combinations(cards, 5), key=lambda five: (high_value(five), sorted(five)[::-1]))


def best_low_five(cards: Sequence[Card]) -> tuple[Card, ...]:
    """The five cards that make the best ace-to-five low, in the order given.

    Among equally good fives, the one whose cards are highest by suit (as in
    :func:`best_high_five`).
    """
    return max(combinations(cards, 5), key=lambda five: (low_value(five), sorted(five)[::-1]))


@dataclass(frozen=True, slots=True)
class HandRank:
    """A hand value taken apart: its category and the ranks that name it, most significant
    first (a low's ranks run from its top card down, the ace played low as 1).

    The engine names hands in English (:func:`describe_high`, :func:`describe_low`); a
    presentation layer names them in other languages from this, never from the English.

    >>> from games.engine.cards import parse_cards
    >>> high_rank(high_value(parse_cards("8c 8d 6h 6s Qc Jd 3h")))
    HandRank(category=2, ranks=(8, 6, 12))
    >>> low_rank(low_value(parse_cards("Ac 2d 4h 5s 7c 9d Kh")))
    HandRank(category=0, ranks=(7, 5, 4, 2, 1))
    """

    category: int
    ranks: tuple[int, ...]


def high_rank(value: int) -> HandRank:
    """A high value's category (``HIGH_CARD`` .. ``STRAIGHT_FLUSH``) and deciding ranks."""
    ranks = tuple((value >> shift) & 15 for shift in (16, 12, 8, 4, 0))
    return HandRank(value >> _CATEGORY_SHIFT, tuple(rank for rank in ranks if rank))


def low_rank(value: int) -> HandRank:
    """A low value's category (``HIGH_CARD``: five unpaired cards; ``PAIR`` .. for a razz
    low with pairs) and its ranks: the paired ranks first, then the rest from the top."""
    badness = _LOW_CEILING - value
    ranks = tuple((badness >> shift) & 15 for shift in (16, 12, 8, 4, 0))
    return HandRank(badness >> _CATEGORY_SHIFT, tuple(rank for rank in ranks if rank))


def describe_high(value: int) -> str:
    """Name a high value the way a dealer says it: ``"two pair, eights and sixes"``."""
    hand = high_rank(value)
    category, first = hand.category, hand.ranks[0]
    second = hand.ranks[1] if len(hand.ranks) > 1 else 0
    if category == STRAIGHT_FLUSH:
        return "a royal flush" if first == ACE else f"a straight flush, {_ONE[first]} high"
    if category == FOUR_OF_A_KIND:
        return f"four of a kind, {_MANY[first]}"
    if category == FULL_HOUSE:
        return f"a full house, {_MANY[first]} full of {_MANY[second]}"
    if category == FLUSH:
        return f"a flush, {_ONE[first]} high"
    if category == STRAIGHT:
        return f"a straight, {_ONE[first]} high"
    if category == THREE_OF_A_KIND:
        return f"three of a kind, {_MANY[first]}"
    if category == TWO_PAIR:
        return f"two pair, {_MANY[first]} and {_MANY[second]}"
    if category == PAIR:
        return f"a pair of {_MANY[first]}"
    return f"high card {_ONE[first]}"


def describe_low(value: int) -> str:
    """Name a low value: ``"7-5-4-2-A low"``; a paired (razz) low names its pairs first,
    ``"a pair of fours, K-Q-J low"``."""
    hand = low_rank(value)
    category, ranks = hand.category, list(hand.ranks)
    if category == HIGH_CARD:
        return f"{low_run(ranks)} low"
    if category == PAIR:
        return f"a pair of {_MANY[ranks[0]]}, {low_run(ranks[1:4])} low"
    if category == TWO_PAIR:
        return f"two pair, {_MANY[ranks[0]]} and {_MANY[ranks[1]]}, {low_run(ranks[2:3])} low"
    if category == THREE_OF_A_KIND:
        return f"three of a kind, {_MANY[ranks[0]]}, {low_run(ranks[1:3])} low"
    if category == FULL_HOUSE:
        return f"a full house, {_MANY[ranks[0]]} full of {_MANY[ranks[1]]}"
    return f"four of a kind, {_MANY[ranks[0]]}, {low_run(ranks[1:2])} low"


# Names by rank; index 1 is the ace played low, 14 the ace played high.
_ONE: Final = ("", "ace", "two", "three", "four", "five", "six", "seven", "eight", "nine",
               "ten", "jack", "queen", "king", "ace")  # fmt: skip
_MANY: Final = ("", "aces", "twos", "threes", "fours", "fives", "sixes", "sevens", "eights",
                "nines", "tens", "jacks", "queens", "kings", "aces")  # fmt: skip


def low_run(ranks: Sequence[int]) -> str:
    """Ranks as a low is written, the ace as ``A``: ``low_run([7, 5, 4, 2, 1]) == "7-5-4-2-A"``."""
    return "-".join("A" if rank == 1 else RANKS[rank - 2] for rank in ranks)


def _pack(category: int, ranks: Sequence[int]) -> int:
    value = category
    for position in range(5):
        value = (value << 4) | (ranks[position] if position < len(ranks) else 0)
    return value


def _counts_from_key(key: int) -> dict[int, int]:
    """Rank (2..14) -> count from the rank-count part of a packed hand, checking 5..7 cards."""
    counts = {rank: (key >> (_RANK_BITS * (rank - 2))) & 7 for rank in range(2, ACE + 1)}
    cards = sum(counts.values())
    if not _FEWEST_CARDS <= cards <= _MOST_CARDS:
        raise ValueError(f"a hand value needs 5 to 7 cards, not {cards}")
    return {rank: count for rank, count in counts.items() if count}


def _straight_top(rank_bits: int) -> int:
    """The top rank of the highest straight in a rank bitmask (bit r = rank r), else 0."""
    if rank_bits >> ACE & 1:
        rank_bits |= 1 << 1  # the ace also plays low, for the wheel
    for top in range(ACE, _WHEEL_TOP - 1, -1):
        run = 0b11111 << (top - 4)
        if rank_bits & run == run:
            return top
    return 0


def _high_from_counts(counts: dict[int, int]) -> int:
    """The best high value of a flushless hand given rank -> count."""
    by_rank = sorted(counts, reverse=True)
    quads = [rank for rank in by_rank if counts[rank] == 4]
    trips = [rank for rank in by_rank if counts[rank] == 3]
    pairs = [rank for rank in by_rank if counts[rank] == 2]
    if quads:
        return _pack(FOUR_OF_A_KIND, [quads[0], max(r for r in by_rank if r != quads[0])])
    if trips and (len(trips) > 1 or pairs):
        return _pack(FULL_HOUSE, [trips[0], max(trips[1:] + pairs)])
    straight_top = _straight_top(sum(1 << rank for rank in by_rank))
    if straight_top:
        return _pack(STRAIGHT, [straight_top])
    if trips:
        return _pack(THREE_OF_A_KIND, [trips[0], *[r for r in by_rank if r != trips[0]][:2]])
    if len(pairs) >= 2:
        kicker = max(r for r in by_rank if r not in pairs[:2])
        return _pack(TWO_PAIR, [pairs[0], pairs[1], kicker])
    if pairs:
        return _pack(PAIR, [pairs[0], *[r for r in by_rank if r != pairs[0]][:3]])
    return _pack(HIGH_CARD, by_rank[:5])


def _flush_value(cards: Sequence[Card], packed: int) -> int:
    if not _FEWEST_CARDS <= len(cards) <= _MOST_CARDS:
        raise ValueError(f"a hand value needs 5 to 7 cards, not {len(cards)}")
    flush_suit = next(s for s in range(4) if packed >> (_SUIT_SHIFT + 4 * s + 3) & 1)
    rank_bits = 0
    for card in cards:
        if card & 3 == flush_suit:
            rank_bits |= 1 << ((card >> 2) + 2)
    try:
        return _HIGH_BY_FLUSH_RANKS[rank_bits]
    except KeyError:
        straight_top = _straight_top(rank_bits)
        if straight_top:
            value = _pack(STRAIGHT_FLUSH, [straight_top])
        else:
            value = _pack(FLUSH, [r for r in range(ACE, 1, -1) if rank_bits >> r & 1][:5])
        _HIGH_BY_FLUSH_RANKS[rank_bits] = value
        return value


def _low_from_counts(counts: dict[int, int]) -> int:
    """The best ace-to-five low value given rank (ace 14) -> count: the least bad five."""
    distinct = sorted(1 if rank == ACE else rank for rank in counts)
    if len(distinct) >= 5:
        return _LOW_CEILING - _pack(HIGH_CARD, distinct[4::-1])
    # Pairs are forced: few enough multisets that trying every five is the plain way.
    low_ranks = [1 if rank == ACE else rank for rank, count in counts.items() for _ in range(count)]
    return _LOW_CEILING - min(map(_low_badness, combinations(low_ranks, 5)))


def _low_badness(five: tuple[int, ...]) -> int:
    """How bad five ace-low ranks are as a low: pairs first, then ranks from the top down."""
    counts = Counter(five)
    groups = sorted(counts, key=lambda rank: (counts[rank], rank), reverse=True)
    pattern = tuple(counts[rank] for rank in groups)
    return _pack(_LOW_PATTERNS[pattern], groups)
