"""Fair dealing that discloses nothing (games.engine.fairness): the deck is f(server seed,
client seeds), a Merkle root commits every position, and a card's proof shows that card and
nothing else."""

from __future__ import annotations

import hashlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.cards import DECK_SIZE, FULL_DECK, Card
from games.engine.events import Ante, Burn, Deal, StreetStart, to_dicts
from games.engine.fairness import (
    CardProof,
    card_salt,
    commit_deck,
    commitment,
    dealt_positions,
    deck_for_hand,
    deck_from_seed,
    leaf_hash,
    merkle_path,
    merkle_root,
    root_from_path,
    verify_card,
    verify_seed,
)
from games.engine.play import first_not_fold, play_hand, random_choice_with
from games.engine.rules import Rules, Stakes

SEED = bytes(range(32))
CLIENTS = ["alice's lucky words", ""]

seeds = st.binary(min_size=32, max_size=32)
client_seeds = st.lists(st.text(max_size=64), max_size=8)


def test_the_deck_depends_on_the_server_seed_and_on_every_client_seed():
    deck = deck_for_hand(SEED, CLIENTS)

    assert sorted(deck) == list(FULL_DECK)
    assert deck == deck_for_hand(SEED, CLIENTS)
    assert deck != deck_for_hand(SEED, ["alice's lucky words!", ""])
    assert deck != deck_for_hand(SEED, ["", "alice's lucky words"])  # order matters
    assert deck != deck_for_hand(SEED, ["alice's lucky", " words"])  # lengths are framed
    assert deck != deck_for_hand(bytes(32), CLIENTS)


def test_positions_are_the_dealing_order_and_salts_are_per_position():
    deck = commit_deck(SEED, CLIENTS)

    assert list(deck.order) == deck_for_hand(SEED, CLIENTS)[::-1]  # dealt from the end
    assert len(set(deck.salts)) == DECK_SIZE
    assert deck.salts == tuple(card_salt(SEED, p) for p in range(DECK_SIZE))
    assert deck.leaves[5] == leaf_hash(5, deck.order[5], deck.salts[5])
    assert deck.root == merkle_root(deck.leaves)


def test_the_merkle_tree_is_rfc_9162s():
    """Pinned against the RFC's definition written out for three leaves."""
    a, b, c = (hashlib.sha256(bytes([n])).digest() for n in range(3))

    def node(left: bytes, right: bytes) -> bytes:
        return hashlib.sha256(b"\x01" + left + right).digest()

    assert merkle_root([a, b, c]) == node(node(a, b), c)
    assert merkle_path([a, b, c], 2) == [node(a, b)]
    assert merkle_path([a, b, c], 0) == [b, c]
    assert root_from_path(2, 3, c, [node(a, b)]) == node(node(a, b), c)


def test_the_scheme_is_pinned_by_known_answers():
    """A published hand is checked by players with their own code: the same seeds must give
    the same deck and root forever (values computed when the scheme was published)."""
    assert " ".join(map(repr, deck_from_seed(bytes(32)))) == (
        "Ac As 3s Kh 8c 5s 5c 8h 7c Qd Ks Js Ah 6s 4c 4d Td 6d Qh 6c 7s 3c 3h 9d Jh 5d "
        "5h 9h 3d 4s Jd 4h Th 9c Qc 7h 2h Ts 8d 2d 7d 2c 8s Tc Kd 6h Ad Kc 9s Qs 2s Jc"
    )
    deck = commit_deck(SEED, CLIENTS)
    assert " ".join(map(repr, deck.order)) == (
        "As 3c Js 9d 7d 5c Kh Jd Ks 2d Td 7h 2h 7c 3d 4c 6h 7s 2s 3h 5d 6d 5h 5s Qd Qh "
        "Th 8c Ac 4d Qs Ah 4h 3s 8h Jh 8d 6s Ad Jc 9h Ts 4s 2c 8s Tc 9s Qc 6c 9c Kd Kc"
    )
    assert deck.root.hex() == "436f7614918823997e23faee132dd4625b5db4d4c23f1ff7f1dae87bd2cf985f"


@pytest.mark.parametrize("size", range(1, 70))
def test_the_merkle_root_is_rfc_9162s_recursive_definition_at_every_size(size):
    """RFC 9162 section 2.1.1: MTH(D[n]) = HASH(0x01 || MTH(D[0:k]) || MTH(D[k:n])), k the
    largest power of two smaller than n."""

    def mth(leaves: list[bytes]) -> bytes:
        if len(leaves) == 1:
            return leaves[0]
        k = 1 << ((len(leaves) - 1).bit_length() - 1)
        return hashlib.sha256(b"\x01" + mth(leaves[:k]) + mth(leaves[k:])).digest()

    leaves = [hashlib.sha256(bytes([n])).digest() for n in range(size)]
    assert merkle_root(leaves) == mth(leaves)


def test_a_proof_verifies_its_card_and_fails_for_another_card_position_salt_or_root():
    deck = commit_deck(SEED, CLIENTS)
    proof = deck.proof(9)
    other = next(card for card in FULL_DECK if card != proof.card)

    assert verify_card(deck.root.hex(), proof)
    assert verify_card(deck.root.hex().upper(), proof)
    assert not verify_card(deck.root.hex(), CardProof(9, other, proof.salt, proof.path))
    assert not verify_card(deck.root.hex(), CardProof(8, proof.card, proof.salt, proof.path))
    assert not verify_card(deck.root.hex(), CardProof(9, proof.card, bytes(32), proof.path))
    assert not verify_card(deck.root.hex(), CardProof(9, proof.card, proof.salt, proof.path[1:]))
    assert not verify_card(
        deck.root.hex(), CardProof(9, proof.card, proof.salt, (*proof.path, bytes(32)))
    )
    assert not verify_card(commit_deck(bytes(32), CLIENTS).root.hex(), proof)


def test_a_proof_round_trips_through_its_json_form():
    proof = commit_deck(SEED, CLIENTS).proof(0)

    data = proof.to_dict()

    assert CardProof.from_dict(data) == proof
    assert data["card"] == repr(proof.card) and len(data["path"]) == 6  # 52 leaves: depth 6


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"position": 52}, "position must be a whole number 0..51"),
        ({"card": "Xx"}, "not a card"),
        ({"salt": "ab"}, "salt must be 64 hex digits"),
        ({"path": ["zz" * 32]}, "path must be 64 hex digits"),
        ({"path": "ab"}, "path must be a list"),
    ],
)
def test_a_malformed_proof_is_refused_with_the_field_named(change, message):
    data = {**commit_deck(SEED, CLIENTS).proof(0).to_dict(), **change}

    with pytest.raises(ValueError, match=message):
        CardProof.from_dict(data)


def test_the_full_seed_checks_its_commitment_and_the_card_root():
    root = commit_deck(SEED, CLIENTS).root.hex()

    assert verify_seed(SEED, commitment(SEED), CLIENTS, root)
    assert not verify_seed(SEED, commitment(bytes(32)), CLIENTS, root)
    assert not verify_seed(SEED, commitment(SEED), ["changed", ""], root)
    assert not verify_seed(bytes(32), commitment(bytes(32)), CLIENTS, root)


def test_dealt_positions_count_burns_and_reuse_the_first_burn_for_a_late_community_card():
    burn = Burn(Card.parse("2c"))
    deal = Deal(0, Card.parse("As"), up=True)
    log = [Ante(0, 1), burn, *[deal] * 50, burn, StreetStart("fourth"), deal]

    positions = dealt_positions(log)

    assert positions[:2] == [(1, 0), (2, 1)]
    assert positions[-2] == (52, 51)
    assert positions[-1] == (54, 0)  # the 53rd card is the first burned card again


@settings(max_examples=60, deadline=None)
@given(seed=seeds, clients=client_seeds, data=st.data())
def test_random_hands_the_root_commits_every_position_and_every_proof_verifies(seed, clients, data):
    deck = commit_deck(seed, clients)
    root = deck.root.hex()
    position = data.draw(st.integers(0, DECK_SIZE - 1))
    other = data.draw(st.sampled_from([c for c in FULL_DECK if c != deck.order[position]]))

    assert sorted(deck.order) == list(FULL_DECK)
    assert all(verify_card(root, deck.proof(p)) for p in range(DECK_SIZE))
    # Another card at any one position gives another root: each position is committed.
    changed = list(deck.leaves)
    changed[position] = leaf_hash(position, other, deck.salts[position])
    assert merkle_root(changed) != deck.root
    forged = CardProof(position, Card(other), deck.salts[position], deck.proof(position).path)
    assert not verify_card(root, forged)
    moved = (position + data.draw(st.integers(1, DECK_SIZE - 1))) % DECK_SIZE
    proof = deck.proof(position)
    assert not verify_card(root, CardProof(moved, proof.card, proof.salt, proof.path))
    assert verify_seed(seed, commitment(seed), clients, root)


class _CommittedDeck:
    """A Shuffler that lays out the committed deck (play_hand deals from its end)."""

    def __init__(self, deck: list[Card]) -> None:
        self.deck = deck

    def shuffle(self, x: list[Card], /) -> None:
        x[:] = self.deck


@settings(max_examples=40, deadline=None)
@given(
    seed=seeds,
    clients=client_seeds,
    players=st.integers(2, 8),
    burn_cards=st.booleans(),
    rng=st.randoms(use_true_random=False),
    calling=st.booleans(),
)
def test_random_played_hands_every_dealt_or_burned_card_is_proven_at_its_position(
    seed, clients, players, burn_cards, rng, calling
):
    deck = commit_deck(seed, clients)
    root = deck.root.hex()
    choose = first_not_fold if calling else random_choice_with(rng)
    state = play_hand(
        Rules(burn_cards=burn_cards),
        Stakes(1, 2, 5, 10),
        [200] * players,
        _CommittedDeck(deck_for_hand(seed, clients)),
        choose,
    )

    positions = dealt_positions(state.log)
    log = to_dicts(state.log)
    assert len(positions) == sum(e["type"] in ("deal", "burn") for e in log) >= 2 * players
    for index, position in positions:
        card = Card.parse(log[index]["card"])
        proof = deck.proof(position)
        assert proof.card == card, (index, position)
        assert verify_card(root, CardProof(position, card, proof.salt, proof.path))


def test_eight_players_with_burn_cards_the_community_card_is_proven_at_the_first_burn():
    deck = commit_deck(SEED, CLIENTS)
    state = play_hand(
        Rules(burn_cards=True),
        Stakes(1, 2, 5, 10),
        [200] * 8,
        _CommittedDeck(deck_for_hand(SEED, CLIENTS)),
        first_not_fold,
    )

    positions = dealt_positions(state.log)
    log = to_dicts(state.log)
    community = [p for k, p in positions if log[k]["type"] == "deal" and log[k]["player"] is None]
    first_burn = next(p for k, p in positions if log[k]["type"] == "burn")
    assert community == [first_burn]
    assert repr(deck.order[first_burn]) == repr(state.community)
    assert verify_card(deck.root.hex(), deck.proof(first_burn))
