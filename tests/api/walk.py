"""The operations of the OpenAPI schema that read a request body, and a world with one
object for each id their paths name, so a call reaches the body (no tests here)."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import date
from typing import Any

from django.apps import apps
from drf_spectacular.generators import SchemaGenerator
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games.services.waitlist import entry_join
from integrations.models import Subscription
from leagues.models import EventKind, EventStatus, SeasonEvent
from tests.games.factories import make_player, make_table
from tests.games.floor import make_game
from tests.leagues.world import make_world
from tests.tourney.director import started
from tourney.models import Entry


@dataclass(frozen=True)
class Operation:
    method: str
    path: str
    properties: dict[str, dict[str, Any]]
    """The body's top-level properties, each schema with its ``$ref`` resolved."""

    def __str__(self) -> str:
        return f"{self.method.upper()} {self.path}"


def _resolved(node: dict[str, Any], components: dict[str, Any]) -> dict[str, Any]:
    if "$ref" in node:
        return _resolved(components[node["$ref"].rpartition("/")[2]], components)
    if len(node.get("allOf", ())) == 1:
        return {**_resolved(node["allOf"][0], components), **node, "allOf": []}
    return node


def body_operations() -> list[Operation]:
    """Every POST, PUT and PATCH of the generated schema that documents a JSON body."""
    schema = SchemaGenerator().get_schema(request=None, public=True)
    components = schema["components"]["schemas"]
    operations = []
    for path, item in schema["paths"].items():
        for method, operation in item.items():
            content = operation.get("requestBody", {}).get("content", {})
            if method not in ("post", "put", "patch") or "application/json" not in content:
                continue
            body = _resolved(content["application/json"]["schema"], components)
            properties = {
                name: _resolved(node, components)
                for name, node in body.get("properties", {}).items()
                if not node.get("readOnly")
            }
            operations.append(Operation(method, path, properties))
    return operations


def integer_properties(operation: Operation) -> list[str]:
    return [name for name, node in operation.properties.items() if node.get("type") == "integer"]


@dataclass
class World:
    ids: dict[str, int]
    token: str

    def url(self, operation: Operation) -> str:
        """The operation's path with the world's ids (a tournament's entry under
        ``/tournaments/``, a wait-list entry elsewhere)."""
        ids = dict(self.ids)
        if operation.path.startswith("/api/v1/tournaments/"):
            ids["entry_id"] = ids["tournament_entry_id"]
        return operation.path.format(**ids)

    def client(self) -> APIClient:
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {self.token}")
        return client


def make_body_world() -> World:
    """Staff's token and an object of each kind: club A with its league and season, a
    live season event, a table, a game with a wait-list entry, a started tournament with
    entries, a webhook subscription."""
    leagues = make_world()
    staff = leagues.players["staff"]
    table = make_table()
    game = make_game()
    entry = entry_join(game_id=game.id, player=make_player(), table_id=None)
    tournament = started(4)
    event = SeasonEvent.objects.create(
        season=leagues.season_a,
        kind=EventKind.LIVE,
        status=EventStatus.ENTERED,
        name="Live night",
        played_on=date(2026, 3, 1),
    )
    subscription = Subscription.objects.create(
        url="https://example.org/hooks", event_types=["payout"], secret="whsec_test"
    )
    ids = {
        "club_id": leagues.club_a.id,
        "member_id": leagues.club_a.memberships.get(role="member").id,
        "league_id": leagues.league_a.id,
        "season_id": leagues.season_a.id,
        "event_id": event.id,
        "player_id": staff.id,
        "table_id": table.id,
        "game_id": game.id,
        "entry_id": entry.id,
        "tournament_id": tournament.id,
        "tournament_entry_id": Entry.objects.filter(tournament=tournament).first().id,
        "schedule_id": tournament.schedule_id,
        "subscription_id": subscription.id,
    }
    return World(ids, Token.objects.get_or_create(user=staff.user)[0].key)


def database_digest() -> str:
    """A digest of every row of every model: equal digests, nothing changed."""
    digest = hashlib.sha256()
    for model in sorted(apps.get_models(), key=lambda m: m._meta.label):
        rows = model._default_manager.order_by("pk").values_list()
        digest.update(f"{model._meta.label}:{list(rows)!r}".encode())
    return digest.hexdigest()
