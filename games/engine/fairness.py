"""Provably fair shuffles: a deck that a revealed seed rebuilds, and its commitment.

Before the first card the service publishes ``commitment(seed)``; after the hand it reveals
the seed, and anyone can call :func:`deck_from_seed` to check every dealt card. The stream of
random numbers is SHA-256 in counter mode over the seed, so no ``random`` module (and no
Mersenne Twister state) is involved.

>>> deck = deck_from_seed(bytes(32))
>>> len(set(deck)), deck == deck_from_seed(bytes(32))
(52, True)
"""

from __future__ import annotations

import hashlib
import hmac
from typing import TypeVar

from games.engine.cards import Card, shuffled_deck

T = TypeVar("T")


class SeededShuffler:
    """A deterministic, unbiased Fisher-Yates shuffle driven by SHA-256(seed, counter)."""

    def __init__(self, seed: bytes) -> None:
        self._seed = seed
        self._counter = 0
        self._pool = b""

    def _next_word(self) -> int:
        if len(self._pool) < 8:
            block = self._counter.to_bytes(8, "big")
            self._pool += hashlib.sha256(self._seed + block).digest()
            self._counter += 1
        word, self._pool = self._pool[:8], self._pool[8:]
        return int.from_bytes(word, "big")

    def randbelow(self, n: int) -> int:
        """A uniform integer in ``0..n-1`` (rejection sampling, no modulo bias)."""
        limit = (1 << 64) - (1 << 64) % n
        while True:
            word = self._next_word()
            if word < limit:
                return word % n

    def shuffle(self, x: list[T], /) -> None:
        """Shuffle ``x`` in place."""
        for i in range(len(x) - 1, 0, -1):
            j = self.randbelow(i + 1)
            x[i], x[j] = x[j], x[i]


def deck_from_seed(seed: bytes) -> list[Card]:
    """The shuffled deck that ``seed`` gives; the same seed always gives the same deck."""
    return shuffled_deck(SeededShuffler(seed))


def commitment(seed: bytes) -> str:
    """The SHA-256 hex digest published before the hand."""
    return hashlib.sha256(seed).hexdigest()


def verify_commitment(seed: bytes, published: str) -> bool:
    """True when ``seed`` is the one ``published`` committed to."""
    return hmac.compare_digest(commitment(seed), published)
