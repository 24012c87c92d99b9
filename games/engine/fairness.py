"""Provably fair dealing that discloses nothing: a committed server seed, players' client
seeds, and a Merkle tree over every card position.

The scheme (``stud-merkle-v1``), step by step:

1. **Server seed, committed early.** The service draws a secret 32-byte *server seed* for a
   hand before that hand's client seeds are sent (it is drawn when the table is created, then
   at each hand's start for the next hand) and publishes ``commitment(seed) = SHA-256(seed)``
   at once (the ``next_commitment`` of the table and of the previous ``hand_start`` event).
   Having published it, the service cannot pick a seed to suit the client seeds.
2. **Client seeds.** Each person dealt in may send a *client seed* for the hand (any text up
   to 64 characters) that names the hand's commitment, so it was chosen after the server
   seed was fixed; bots send none. The seeds, in lineup order (empty for a bot or a player
   who sent none), are mixed in:
   ``mix = SHA-256("stud-client-seeds-v1" || for each seed: len(utf8) as 4 bytes || utf8)``.
3. **The deck.** ``deck_key = HMAC-SHA256(key=server_seed, "stud-deck-v1" || mix)``; the deck
   is :func:`deck_from_seed(deck_key) <deck_from_seed>` (Fisher-Yates driven by SHA-256 in
   counter mode) and cards are dealt from its end. *Position* ``p`` (0..51) is the ``p``-th
   card off the deck, burn cards included. (With eight players and burn cards the deck can run
   out before the community card; that card is then the first burned card again, and its
   position is that burn's.)
4. **One commitment per position.** ``salt_p = HMAC-SHA256(key=server_seed, "stud-salt-v1" ||
   p as 1 byte)``; ``leaf_p = SHA-256(0x00 || "stud-card-v1" || p as 1 byte || card index
   (0..51) as 1 byte || salt_p)``. The *card root* is the RFC 9162 Merkle tree hash over the
   52 leaves (interior nodes ``SHA-256(0x01 || left || right)``). The service publishes the
   root, the client seeds and the seed commitment in the ``hand_start`` event, before the
   first card.
5. **Card proofs.** After the hand a player gets, for each card they may see (their own, every
   up card, every card shown at showdown, the community card), its position, card, salt and
   RFC 9162 audit path; :func:`verify_card` recomputes the root from them. A salt is a keyed
   hash of one position: it gives away neither the seed nor any other card, and without it a
   leaf (which neighbouring proofs carry as a sibling) hides its card.
6. **The full seed** goes to staff and auditors, and to everyone once it no longer matters
   (the service's reveal policy). :func:`verify_seed` then checks ``SHA-256(seed)`` against
   the seed commitment and rebuilds the card root from the seed and the client seeds, which
   checks every position at once.

>>> deck = commit_deck(bytes(32), ["alice's seed", ""])
>>> proof = deck.proof(3)
>>> verify_card(deck.root.hex(), proof), proof.card == deck.order[3]
(True, True)
>>> verify_seed(bytes(32), commitment(bytes(32)), ["alice's seed", ""], deck.root.hex())
True
"""

from __future__ import annotations

import hashlib
import hmac
import struct
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, TypeVar

from games.engine.cards import DECK_SIZE, Card, shuffled_deck
from games.engine.events import Burn, Deal, Event

T = TypeVar("T")

SCHEME: Final = "stud-merkle-v1"
SEED_BYTES: Final = 32
CLIENT_SEED_MAX: Final = 64
"""Longest client seed, in characters."""

_CLIENT_SEEDS_TAG: Final = b"stud-client-seeds-v1"
_DECK_TAG: Final = b"stud-deck-v1"
_SALT_TAG: Final = b"stud-salt-v1"
_LEAF_TAG: Final = b"stud-card-v1"
_BLOCK_WORDS: Final = struct.Struct(">4Q")


class SeededShuffler:
    """A deterministic, unbiased Fisher-Yates shuffle driven by SHA-256(seed, counter).

    Each block ``SHA-256(seed || counter as 8 bytes)`` gives four 64-bit big-endian words,
    used in order."""

    def __init__(self, seed: bytes) -> None:
        self._seed = seed
        self._counter = 0
        self._words: list[int] = []  # the current block's unused words, the next one last

    def _next_word(self) -> int:
        if not self._words:
            block = hashlib.sha256(self._seed + self._counter.to_bytes(8, "big")).digest()
            self._counter += 1
            self._words = list(_BLOCK_WORDS.unpack(block))[::-1]
        return self._words.pop()

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
    """The shuffled deck that ``seed`` gives; the same seed always gives the same deck.

    >>> deck = deck_from_seed(bytes(32))
    >>> len(set(deck)), deck == deck_from_seed(bytes(32))
    (52, True)
    """
    return shuffled_deck(SeededShuffler(seed))


def commitment(seed: bytes) -> str:
    """The SHA-256 hex digest of a server seed, published before the seed is used."""
    return hashlib.sha256(seed).hexdigest()


def verify_commitment(seed: bytes, published: str) -> bool:
    """True when ``seed`` is the one ``published`` committed to."""
    return hmac.compare_digest(commitment(seed), published.lower())


def mix_client_seeds(client_seeds: Sequence[str]) -> bytes:
    """The players' client seeds, in lineup order, hashed into 32 bytes (step 2)."""
    digest = hashlib.sha256(_CLIENT_SEEDS_TAG)
    for seed in client_seeds:
        data = seed.encode("utf-8")
        digest.update(len(data).to_bytes(4, "big"))
        digest.update(data)
    return digest.digest()


def deck_for_hand(server_seed: bytes, client_seeds: Sequence[str]) -> list[Card]:
    """The hand's shuffled deck (dealt from the end): ``f(server seed, client seeds)``."""
    key = hmac.digest(server_seed, _DECK_TAG + mix_client_seeds(client_seeds), "sha256")
    return deck_from_seed(key)


def card_salt(server_seed: bytes, position: int) -> bytes:
    """The secret salt of one card position (step 4)."""
    return hmac.digest(server_seed, _SALT_TAG + bytes([position]), "sha256")


def card_salts(server_seed: bytes) -> tuple[bytes, ...]:
    """Every position's salt, as :func:`card_salt` gives it: the HMAC's keyed state is set
    up once and copied for each position (half the time of 52 separate HMACs)."""
    keyed = hmac.new(server_seed, _SALT_TAG, "sha256")
    salts = []
    for position in range(DECK_SIZE):
        mac = keyed.copy()
        mac.update(bytes([position]))
        salts.append(mac.digest())
    return tuple(salts)


def leaf_hash(position: int, card: int, salt: bytes) -> bytes:
    """The Merkle leaf committing ``card`` at ``position`` under ``salt``."""
    return hashlib.sha256(b"\x00" + _LEAF_TAG + bytes([position, card]) + salt).digest()


def _node(left: bytes, right: bytes) -> bytes:
    return hashlib.sha256(b"\x01" + left + right).digest()


def _split(n: int) -> int:
    """The largest power of two smaller than ``n`` (n > 1), where RFC 9162 splits a tree."""
    return 1 << ((n - 1).bit_length() - 1)


def merkle_root(leaves: Sequence[bytes]) -> bytes:
    """RFC 9162 Merkle tree hash of leaf hashes (at least one).

    Built level by level: pairing neighbours and lifting an odd last node unchanged gives the
    RFC's tree, which splits at the largest power of two below the size (the test checks it
    against the recursive definition)."""
    level = list(leaves)
    while len(level) > 1:
        lifted = level[-1:] if len(level) % 2 else []
        level = [_node(level[i], level[i + 1]) for i in range(0, len(level) - 1, 2)] + lifted
    return level[0]


def merkle_path(leaves: Sequence[bytes], index: int) -> list[bytes]:
    """RFC 9162 audit path of leaf ``index``: the sibling hashes from the leaf up."""
    if len(leaves) == 1:
        return []
    k = _split(len(leaves))
    if index < k:
        return [*merkle_path(leaves[:k], index), merkle_root(leaves[k:])]
    return [*merkle_path(leaves[k:], index - k), merkle_root(leaves[:k])]


def root_from_path(index: int, size: int, leaf: bytes, path: Sequence[bytes]) -> bytes | None:
    """The root that ``path`` leads to from ``leaf`` at ``index`` in a tree of ``size`` leaves
    (RFC 9162 section 2.1.3.2), or None when the path has the wrong shape for the index."""
    if not 0 <= index < size:
        return None
    fn, sn, node = index, size - 1, leaf
    for sibling in path:
        if sn == 0:
            return None
        if fn & 1 or fn == sn:
            node = _node(sibling, node)
            while not fn & 1 and fn != 0:
                fn >>= 1
                sn >>= 1
        else:
            node = _node(node, sibling)
        fn >>= 1
        sn >>= 1
    return node if sn == 0 else None


@dataclass(frozen=True)
class CardProof:
    """What proves one card at one position against a published card root."""

    position: int
    card: Card
    salt: bytes
    path: tuple[bytes, ...]

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: ``{"position", "card", "salt", "path"}`` (hex strings)."""
        return {
            "position": self.position,
            "card": repr(self.card),
            "salt": self.salt.hex(),
            "path": [node.hex() for node in self.path],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> CardProof:
        """Read :meth:`to_dict`'s form; a ValueError names the field that is wrong."""
        try:
            position, card, salt, path = (data[k] for k in ("position", "card", "salt", "path"))
        except (KeyError, TypeError) as error:
            raise ValueError(f"a card proof needs position, card, salt and path: {error}") from None
        if not isinstance(position, int) or not 0 <= position < DECK_SIZE:
            raise ValueError(f"position must be a whole number 0..51, not {position!r}")
        if not isinstance(card, str):
            raise ValueError(f"card must be text like 'As', not {card!r}")
        if not isinstance(path, list):
            raise ValueError("path must be a list of hex hashes")
        return cls(
            position, Card.parse(card), _hex(salt, "salt"), tuple(_hex(h, "path") for h in path)
        )


def _hex(value: Any, name: str) -> bytes:
    if not isinstance(value, str) or len(value) != 64:
        raise ValueError(f"{name} must be 64 hex digits (32 bytes), not {value!r}")
    try:
        return bytes.fromhex(value)
    except ValueError:
        raise ValueError(f"{name} must be 64 hex digits (32 bytes), not {value!r}") from None


@dataclass(frozen=True)
class DeckCommitment:
    """A hand's committed deck, as the server holds it: the cards in dealing order, a leaf per
    position and their root. Only proofs and the root leave the server."""

    order: tuple[Card, ...]
    salts: tuple[bytes, ...]
    leaves: tuple[bytes, ...]
    root: bytes

    def proof(self, position: int) -> CardProof:
        """The proof of the card at ``position``."""
        path = tuple(merkle_path(self.leaves, position))
        return CardProof(position, self.order[position], self.salts[position], path)


def commit_deck(server_seed: bytes, client_seeds: Sequence[str]) -> DeckCommitment:
    """Shuffle the hand's deck and commit to every position (steps 3 and 4)."""
    order = tuple(reversed(deck_for_hand(server_seed, client_seeds)))
    salts = card_salts(server_seed)
    leaves = tuple(leaf_hash(p, card, salts[p]) for p, card in enumerate(order))
    return DeckCommitment(order, salts, leaves, merkle_root(leaves))


def verify_card(root_hex: str, proof: CardProof) -> bool:
    """True when ``proof`` shows its card at its position under the published root."""
    leaf = leaf_hash(proof.position, proof.card, proof.salt)
    root = root_from_path(proof.position, DECK_SIZE, leaf, proof.path)
    return root is not None and hmac.compare_digest(root.hex(), root_hex.lower())


def verify_seed(
    server_seed: bytes, seed_commitment: str, client_seeds: Sequence[str], root_hex: str
) -> bool:
    """True when the revealed ``server_seed`` matches its commitment and, with the client
    seeds, rebuilds the published card root (so every position is as committed)."""
    root = commit_deck(server_seed, client_seeds).root.hex()
    return verify_commitment(server_seed, seed_commitment) and hmac.compare_digest(
        root, root_hex.lower()
    )


def dealt_positions(log: Iterable[Event]) -> list[tuple[int, int]]:
    """``(index in log, deck position)`` of every card dealt or burned, in order.

    The k-th card off the deck has position k; a community card dealt after the deck ran out
    is the first burned card again and has that card's position (see ``play.deal_pending``).
    """
    positions: list[tuple[int, int]] = []
    first_burn: int | None = None
    for index, event in enumerate(log):
        if not isinstance(event, Deal | Burn):
            continue
        position = len(positions)
        if position >= DECK_SIZE:
            if first_burn is None:
                raise ValueError("more cards dealt than the deck holds, and none was burned")
            position = first_burn
        elif isinstance(event, Burn) and first_burn is None:
            first_burn = position
        positions.append((index, position))
    return positions
