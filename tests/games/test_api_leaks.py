"""Leak test: through a multi-hand session, no response a player receives (errors included)
contains another player's unshown down card, a hand's server seed or the salt of a card
nobody showed (the seed stays with staff while the table is open)."""

from __future__ import annotations

import re

import pytest

from games import selectors
from games.engine.events import to_dicts
from games.engine.fairness import card_salt, dealt_positions
from games.models import Hand, HandStatus
from games.services import hands
from tests.games.factories import make_player, make_table
from tests.games.test_api_support import (
    RecordingClient,
    Session,
    calling_down,
    client_for,
    table_url,
)

pytestmark = pytest.mark.django_db

HEX_RUN = re.compile(r"[0-9a-f]{40,}")  # tokens, commitments, seeds: not card text


def _without_hex(body: str) -> str:
    return HEX_RUN.sub("<hex>", body)


def _mentions(text: str, card: str) -> bool:
    """Whether ``card`` appears as a card: in JSON ("Th") or PHH ("????Th7c"), not as the start
    of a word ("The")."""
    return re.search(rf"(?<![abe-gi-rt-zA-Z]){re.escape(card)}(?![a-z])", text) is not None


def _probe(client: RecordingClient, table, hand_id: int, after: int) -> None:
    """Requests that must be refused or answered without secrets, mid-hand."""
    client.post(table_url(table, "act"), {"action": "fold", "seq": 0}, format="json")  # stale
    client.post(table_url(table, "act"), {"action": "raise", "amount": 999999}, format="json")
    client.post(table_url(table, "act"), "{bad json", content_type="application/json")
    client.get(table_url(table, "events"), {"after": "x"})
    client.get(table_url(table, "events"), {"after": after})
    client.get(f"/api/v1/hands/{hand_id}/")
    client.get(f"/api/v1/hands/{hand_id}/history/")
    client.get(f"/api/v1/hands/{hand_id}/history/", {"format": "phh"})
    client.get(f"/api/v1/hands/{hand_id}/verify/")
    client.get(f"/api/v1/hands/{hand_id}/audit/")
    client.get(f"/api/v1/hands/{hand_id}/audit/", {"format": "phh"})
    client.get("/api/v1/hands/audits/", {"hand": hand_id})


def test_card_mentions_are_told_from_words():
    assert _mentions('{"down": ["Th", "??"]}', "Th")
    assert _mentions("actions = ['d dh p1 ????Th', 'd dh p2 AsTh7c']", "Th")
    assert not _mentions('{"message": "The request is not valid."}', "Th")


def test_no_response_reveals_another_players_down_cards_or_an_early_seed():
    table = make_table()
    alice, bob, carol = make_player("alice"), make_player("bob"), make_player("carol")
    staff = make_player("boss", staff=True)
    clients = {name: client_for(p) for name, p in (("alice", alice), ("bob", bob))}
    watcher = client_for(carol)  # not seated: an observer
    for n, client in enumerate(clients.values(), start=1):
        assert (
            client.post(
                table_url(table, "sit"), {"seat": n, "buy_in": 500}, format="json"
            ).status_code
            == 200
        )
    bot = make_player(bot="station")
    client_for(staff).post(
        table_url(table, "sit"), {"seat": 3, "buy_in": 500, "player": bot.id}, format="json"
    )
    everyone = {**clients, "carol": watcher}
    current: dict[str, int] = {}

    def bob_mucks_or_folds(name, options):
        """alice calls down and shows, betting in even hands; bob mucks when he may, and
        folds to a bet in even hands."""
        actions = [o["action"] for o in options]
        even = current["number"] % 2 == 0
        for aggressive in ("complete", "bet", "raise"):
            if name == "alice" and even and aggressive in actions:
                return options[actions.index(aggressive)]
        if name == "bob" and "muck" in actions:
            return options[actions.index("muck")]
        if name == "bob" and "fold" in actions and even:
            return options[actions.index("fold")]
        return calling_down(name, options)

    session = Session(table, clients, choose=bob_mucks_or_folds)
    hidden_from_carol: list[int] = []

    def probe_everyone(name: str, detail: dict) -> None:
        for client in everyone.values():
            _probe(client, table, current["hand"], current["after"])

    session.on_decision.append(probe_everyone)
    seen = {name: len(client.bodies) for name, client in everyone.items()}
    checked_hands = 0
    for _ in range(4):
        table.refresh_from_db()
        current["after"] = table.seq  # events polled from here belong to this hand
        hands.table_advance(table.id)  # starts the hand (and lets the bot act)
        hand = Hand.objects.filter(table=table).latest("number")
        current["hand"] = hand.id
        current["number"] = hand.number
        for c in everyone.values():
            c.get(table_url(table))
        if hand.status == HandStatus.RUNNING:
            while hands.table_advance(table.id) != "hand finished":
                session.decide_once()
        hand.refresh_from_db()
        for c in everyone.values():  # after the hand: history, verify, events of the hand
            c.get(table_url(table))
            c.get(table_url(table, "events"), {"after": current["after"]})
            c.get(f"/api/v1/hands/{hand.id}/history/")
            c.get(f"/api/v1/hands/{hand.id}/history/", {"format": "phh"})
            c.get(f"/api/v1/hands/{hand.id}/verify/")
            c.get(f"/api/v1/hands/{hand.id}/")
            c.get(f"/api/v1/hands/{hand.id}/audit/")
            c.get(f"/api/v1/hands/{hand.id}/audit/", {"format": "phh"})
        state = selectors.hand_state(hand)
        positions = dict(dealt_positions(state.log))
        seed = bytes(hand.seed).hex()
        lineup = [e["player"] for e in hand.lineup]
        players = {"alice": alice.id, "bob": bob.id, "carol": carol.id}
        for name, client in everyone.items():
            me = lineup.index(players[name]) if players[name] in lineup else None
            hidden = {
                repr(c)
                for i, p in enumerate(state.players)
                if i != me and not p.shown
                for c in p.down
            }
            # Every answer since the previous hand ended is about this hand only (cards are
            # reused across hands, so each hand is checked against its own window).
            for k, body in enumerate(client.bodies[seen[name] :]):
                text = _without_hex(body)
                leaked = [card for card in hidden if _mentions(text, card)]
                assert not leaked, (name, hand.number, k, leaked, text)
            salts = {
                card_salt(bytes(hand.seed), positions[k]).hex()
                for k, e in enumerate(to_dicts(state.log))
                if e["type"] == "deal" and e["card"] in hidden
            }
            for body in client.bodies[seen[name] :]:
                assert seed not in body, (name, hand.number)
                assert not [salt for salt in salts if salt in body], (name, hand.number)
            seen[name] = len(client.bodies)
            if name == "carol":
                hidden_from_carol.append(len(hidden))
        checked_hands += 1
    assert checked_hands == 4
    # there were cards to leak: bob folded (even hands) or mucked, hiding his down cards
    assert all(hidden_from_carol[k] > 0 for k in (1, 3)), hidden_from_carol
    assert session.decisions > 0
