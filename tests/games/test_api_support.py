"""Helpers shared by the API tests (no tests here): clients, a recorder of every response a
player receives, and a driver that plays hands through the API, calling the worker's
``table_advance`` directly where a Celery worker would (on_commit never fires in a test
transaction)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games.models import Hand, Player, Seat, Table, TableEvent
from games.services import hands


class RecordingClient(APIClient):
    """An APIClient authenticated as one player that keeps every response body it got."""

    def __init__(self, player: Player | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.bodies: list[str] = []
        if player is not None:
            token, _ = Token.objects.get_or_create(user=player.user)
            self.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")

    def request(self, **kwargs: Any) -> Any:  # type: ignore[override]
        response = super().request(**kwargs)
        self.bodies.append(response.content.decode())
        return response


def client_for(player: Player | None) -> RecordingClient:
    """A client with the player's token (None: not signed in)."""
    return RecordingClient(player)


def table_url(table: Table, action: str = "") -> str:
    return f"/api/v1/tables/{table.id}/{action + '/' if action else ''}"


def table_state(table_id: int) -> tuple[Any, ...]:
    """Everything a refused request must leave unchanged."""
    table = Table.objects.get(pk=table_id)
    seats = tuple(
        Seat.objects.filter(table_id=table_id).values_list(
            "player", "stack", "sitting_out", "leaving"
        )
    )
    snapshots = tuple(
        Hand.objects.filter(table_id=table_id).order_by("id").values_list("snapshot", "status")
    )
    events = TableEvent.objects.filter(table_id=table_id).count()
    return (table.seq, table.status, events, seats, snapshots)


Chooser = Callable[[str, list[dict[str, Any]]], dict[str, Any]]


def calling_down(name: str, options: list[dict[str, Any]]) -> dict[str, Any]:
    """Check or call everything (bring in when forced, show at showdown)."""
    for action in ("bring_in", "check", "call", "show"):
        for option in options:
            if option["action"] == action:
                return option
    return options[0]


@dataclass
class Session:
    """Humans (by name) playing at one table through the API."""

    table: Table
    clients: dict[str, RecordingClient]
    choose: Chooser = calling_down
    decisions: int = 0
    on_decision: list[Callable[[str, dict[str, Any]], None]] = field(default_factory=list)

    def play_hand(self, max_steps: int = 200) -> int:
        """Start a hand and play it to the end; returns the hand's id."""
        outcome = hands.table_advance(self.table.id)
        hand_id = Hand.objects.filter(table=self.table).latest("number").id
        for _ in range(max_steps):
            if outcome == "hand finished":
                return hand_id
            assert outcome == "waiting for a player", outcome
            self.decide_once()
            outcome = hands.table_advance(self.table.id)
        raise AssertionError("the hand did not finish")

    def decide_once(self) -> None:
        """The one human whose turn it is (per GET table) acts with the seq they saw."""
        turns = []
        for name, client in self.clients.items():
            detail = client.get(table_url(self.table)).json()
            options = detail["hand"]["view"]["legal_actions"]
            if options:
                turns.append((name, detail, options))
        assert len(turns) == 1, [t[0] for t in turns]
        name, detail, options = turns[0]
        for hook in self.on_decision:
            hook(name, detail)
        option = self.choose(name, options)
        body = {"action": option["action"], "seq": detail["seq"]}
        if option["action"] not in ("show", "muck"):  # showdown decisions take no amount
            body["amount"] = option["to"]
        response = self.clients[name].post(table_url(self.table, "act"), body, format="json")
        assert response.status_code == 200, response.json()
        assert response.json()["action"] == option["action"]
        self.decisions += 1
