"""Proofs of a hand's dealing, and when its server seed may be disclosed.

The scheme is the engine's (``games.engine.fairness``); this module applies it to stored
hands. A player gets a Merkle proof for each card they may see (the engine's view builder
decides which: their own, up cards, shown cards, the community card) and never a salt or a
proof of anyone else's unshown card; the server seed goes to players only when the reveal
policy (``settings.STUD_SEED_REVEAL``) says it no longer matters (and no receiver of
``games.signals.seed_reveal_asked`` objects), and to staff through the logged audit endpoint.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.utils import timezone

from games.engine.cards import Card
from games.engine.fairness import (
    SCHEME,
    CardProof,
    commit_deck,
    dealt_positions,
    verify_card,
    verify_commitment,
)
from games.engine.state import HandState
from games.engine.views import HIDDEN, event_for
from games.models import Hand, HandStatus, TableStatus
from games.signals import seed_reveal_asked

NEVER = "never"
TABLE_CLOSED = "table_closed"


def seed_reveal_policy() -> str:
    """``never``, ``table_closed`` or a number of seconds after the hand (``"3600"``)."""
    return str(getattr(settings, "STUD_SEED_REVEAL", TABLE_CLOSED))


def seed_public_from(hand: Hand) -> datetime | None:
    """When a finished hand's seed becomes public under a delay policy (else None)."""
    policy = seed_reveal_policy()
    if hand.finished_at is None or not policy.isdigit():
        return None
    return hand.finished_at + timedelta(seconds=int(policy))


def seed_is_public(hand: Hand) -> bool:
    """Whether every player (and observer) may now see the hand's server seed."""
    if hand.status != HandStatus.FINISHED or not hand.card_root:
        return False
    policy = seed_reveal_policy()
    if policy == TABLE_CLOSED:
        due = hand.table.status == TableStatus.CLOSED
    else:
        public_from = seed_public_from(hand)
        due = public_from is not None and timezone.now() >= public_from
    # A higher layer may know that the seed still matters (a tournament still running).
    return due and all(
        answer is not False for _, answer in seed_reveal_asked.send(sender=Hand, hand=hand)
    )


def seed_disclosure(hand: Hand) -> dict[str, Any]:
    """The seed fields every hand answer carries: the seed (hex) or None, and when it goes
    public."""
    policy = seed_reveal_policy()
    return {
        "seed": bytes(hand.seed).hex() if seed_is_public(hand) else None,
        "seed_reveal": "delay" if policy.isdigit() else policy,
        "seed_public_from": seed_public_from(hand),
    }


def card_proofs(
    hand: Hand, state: HandState, viewer: int | None, *, every_card: bool = False
) -> list[dict[str, Any]]:
    """A proof for each card ``viewer`` may see (``every_card``: also burns and unshown
    down cards, for staff), each checked against the published root (``ok``)."""
    deck = commit_deck(bytes(hand.seed), hand.client_seeds)
    proofs = []
    for index, position in dealt_positions(state.log):
        event = state.log[index].to_dict()
        if not every_card and event_for(state.log[index], viewer, state)["card"] == HIDDEN:
            continue
        committed = deck.proof(position)
        # The proof is of the card the log says was dealt: a wrong log entry fails it.
        logged = CardProof(position, Card.parse(str(event["card"])), committed.salt, committed.path)
        proofs.append(
            {
                **logged.to_dict(),
                "kind": event["type"],
                "player": event.get("player"),
                "up": bool(event.get("up", False)),
                "ok": verify_card(hand.card_root, logged),
            }
        )
    return proofs


def seed_check(hand: Hand, state: HandState) -> dict[str, Any]:
    """The full check with the server seed: its commitment, the card root it rebuilds, and
    every card dealt or burned against the deck it makes."""
    seed = bytes(hand.seed)
    deck = commit_deck(seed, hand.client_seeds)
    mismatches = []
    positions = dealt_positions(state.log)
    for index, position in positions:
        dealt = str(state.log[index].to_dict()["card"])
        if dealt != repr(deck.order[position]):
            mismatches.append(
                {"position": position, "dealt": dealt, "deck": repr(deck.order[position])}
            )
    commitment_ok = verify_commitment(seed, hand.commitment)
    root_ok = deck.root.hex() == hand.card_root
    return {
        "commitment_ok": commitment_ok,
        "root_ok": root_ok,
        "cards_checked": len(positions),
        "mismatches": mismatches,
        "ok": commitment_ok and root_ok and not mismatches,
    }


def scheme_fields(hand: Hand) -> dict[str, Any]:
    """What was published at the hand's start: the scheme, the seed's commitment, the client
    seeds and the card root."""
    return {
        "scheme": SCHEME,
        "commitment": hand.commitment,
        "client_seeds": hand.client_seeds,
        "card_root": hand.card_root,
    }
