"""Checking a saved verify (or audit) answer without trusting it.

A verify answer carries card proofs, each labelled with a position, a player and face up or
down, and the card root they lead to. None of that can be taken from the file: a file made
from another seed carries its own, self-consistent root; a file with every proof removed has
nothing to fail; a proof relabelled as another player's card still leads to the root. So
:func:`check_answer` checks a saved answer

* against a card root the caller trusts (the one the player saw in the ``hand_start`` event
  at the hand's start), never the file's own;
* against the dealing order: which deck position went to which player, face up or down, on
  which street. :func:`dealing_order` computes it by replaying the hand's header and log with
  the engine, which deals its cards in its own order (round by round from seat 1, to the
  players still in): a log whose deal labels differ from the engine's does not replay;
* for every card the player must be able to prove: their own, every up card, the community
  card, and every other card the answer's log shows.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.engine.cards import Card
from games.engine.events import Burn, Deal, StreetStart
from games.engine.fairness import (
    CardProof,
    commit_deck,
    dealt_positions,
    verify_card,
    verify_commitment,
)
from games.engine.replay import ReplayError, replay
from games.engine.views import HIDDEN


@dataclass(frozen=True)
class DealtCard:
    """One deck position as the engine dealt it: to ``player`` (None: the community card or
    a burn), face ``up`` or down, on ``street``; ``card`` as the log tells it (None: hidden)."""

    position: int
    player: int | None
    up: bool
    burn: bool
    street: str
    card: Card | None

    @property
    def kind(self) -> str:
        """The proof's ``kind`` label for this position: ``deal`` or ``burn``."""
        return "burn" if self.burn else "deal"


class AnswerError(ValueError):
    """The file is not a verify or audit answer this check can read (names what is wrong)."""


def dealing_order(header: Mapping[str, Any], log: Sequence[Mapping[str, Any]]) -> list[DealtCard]:
    """Every position the hand dealt or burned, as the engine deals it from ``header`` and the
    log's decisions. Cards the log hides (``??``) replay as unknown; a log the rules do not
    produce (a deal labelled with another player or face, a decision out of turn) raises
    :class:`~games.engine.replay.ReplayError`."""
    unknown = [{**e, "card": None} if e.get("card") == HIDDEN else dict(e) for e in log]
    state = replay({**header, "recorded": True}, unknown)  # recorded: hidden cards allowed
    streets = {}
    street = ""
    for index, event in enumerate(state.log):
        if isinstance(event, StreetStart):
            street = event.street
        streets[index] = street
    order = []
    for index, position in dealt_positions(state.log):
        event = state.log[index]
        if isinstance(event, Burn):
            order.append(DealtCard(position, None, False, True, streets[index], event.card))
        elif isinstance(event, Deal):
            dealt = DealtCard(position, event.player, event.up, False, streets[index], event.card)
            order.append(dealt)
    return order


def check_answer(answer: Mapping[str, Any], root_hex: str) -> dict[str, Any]:
    """Check a saved answer against the trusted ``root_hex``; every ``*_ok`` key of the result
    must be true. Raises :class:`AnswerError` for a file that is no verify or audit answer
    with the hand's header and log."""
    try:
        header, log = answer["header"], answer["log"]
        proofs = [(CardProof.from_dict(card), card) for card in answer.get("cards") or []]
        you = answer.get("you")
        if not isinstance(header, Mapping) or not isinstance(log, list):
            raise TypeError("header must be an object and log a list")
        if not all(isinstance(event, Mapping) for event in log):
            raise TypeError("every event of the log must be an object")
        if you is not None and (not isinstance(you, int) or isinstance(you, bool)):
            raise TypeError(f"you must be a lineup index or null, not {you!r}")
    except (KeyError, TypeError, ValueError) as error:
        raise AnswerError(
            f"not a verify or audit answer with the hand's header and log ({error}): save the "
            "answer of GET /api/v1/hands/{id}/verify/ again"
        ) from error
    result: dict[str, Any] = {"hand": answer.get("hand"), "you": you}
    if "card_root" in answer:
        result["file_root_ok"] = _same_hex(str(answer["card_root"]), root_hex)
    try:
        order = dealing_order(header, log)
    except (ReplayError, AttributeError, KeyError, TypeError, ValueError) as error:
        return {**result, "log_ok": False, "log_problem": str(error)}  # not replayable
    failed = [proof.position for proof, _ in proofs if not verify_card(root_hex, proof)]
    misplaced = [m for proof, labels in proofs if (m := _misplaced(proof, labels, order))]
    proven = {proof.position for proof, _ in proofs}
    missing = sorted({d.position for d in order if _must_prove(d, you)} - proven)
    mine = [_described(d) for d in order if you is not None and d.player == you]
    result.update(
        cards_checked=len(proofs),
        cards_ok=not failed,
        deal_order_ok=not misplaced,
        required_ok=not missing,
        your_cards=mine,
    )
    if failed:
        result["failed_positions"] = failed
    if misplaced:
        result["misplaced"] = misplaced
    if missing:
        result["missing_positions"] = missing
    if answer.get("seed"):
        result.update(_seed_check(answer, root_hex, order))
    return result


def _must_prove(dealt: DealtCard, you: int | None) -> bool:
    """Whether an answer for ``you`` must prove this position: the viewer's own cards, every
    up card and the community card, and any other card the log shows."""
    own = you is not None and dealt.player == you
    public = not dealt.burn and (dealt.up or dealt.player is None)
    return own or public or dealt.card is not None


def _misplaced(
    proof: CardProof, labels: Mapping[str, Any], order: Sequence[DealtCard]
) -> dict[str, Any] | None:
    """Why a proof's labels or card disagree with the dealing order (None when they agree).
    A position is dealt twice only when the deck ran out: the first burn card came back as
    the community card, and either may be proven."""
    at = [dealt for dealt in order if dealt.position == proof.position]
    if not at:
        return {"position": proof.position, "problem": "no card was dealt from this position"}
    said = {key: labels.get(key) for key in ("kind", "player", "up")}
    dealt = next((d for d in at if said == _labels(d)), None)
    if dealt is None:
        due = _labels(at[-1])
        return {"position": proof.position, "problem": "labels differ", "file": said, "deal": due}
    if dealt.card is not None and dealt.card != proof.card:
        problem = f"the log deals {dealt.card!r} here, the proof {proof.card!r}"
        return {"position": proof.position, "problem": problem}
    return None


def _labels(dealt: DealtCard) -> dict[str, Any]:
    return {"kind": dealt.kind, "player": dealt.player, "up": dealt.up}


def _described(dealt: DealtCard) -> dict[str, Any]:
    card = None if dealt.card is None else repr(dealt.card)
    return {"position": dealt.position, "street": dealt.street, "up": dealt.up, "card": card}


def _seed_check(
    answer: Mapping[str, Any], root_hex: str, order: Sequence[DealtCard]
) -> dict[str, Any]:
    """With the server seed: its commitment, the trusted root it rebuilds, and every card
    the log shows against the deck it makes."""
    try:
        seed = bytes.fromhex(str(answer["seed"]))
        client_seeds = [str(s) for s in answer.get("client_seeds") or []]
    except ValueError as error:
        raise AnswerError("the seed is not hex") from error
    deck = commit_deck(seed, client_seeds)
    known = [dealt for dealt in order if dealt.card is not None]
    return {
        "commitment_ok": verify_commitment(seed, str(answer.get("commitment", ""))),
        "seed_root_ok": _same_hex(deck.root.hex(), root_hex),
        "seed_cards_ok": all(deck.order[dealt.position] == dealt.card for dealt in known),
    }


def _same_hex(a: str, b: str) -> bool:
    return a.lower() == b.lower()  # public roots: no secret to time
