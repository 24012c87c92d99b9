"""Regressions found by fuzzing the API against its own OpenAPI schema (schemathesis).

Each test replays what the fuzzer found: a response the schema did not describe.
"""

from __future__ import annotations

from typing import Any

import pytest
from jsonschema import Draft7Validator
from rest_framework.test import APIClient

from games.models import Hand, HandStatus
from games.services import hands
from tests.games.factories import make_player, make_table
from tests.games.test_api_support import client_for, table_url

pytestmark = pytest.mark.django_db


def _openapi() -> dict[str, Any]:
    response = APIClient().get("/api/schema/", {"format": "json"})
    assert response.status_code == 200
    return response.json()


def _as_json_schema(node: Any) -> Any:
    """OpenAPI 3.0 to JSON Schema: ``nullable: true`` becomes "or null"."""
    if isinstance(node, list):
        return [_as_json_schema(item) for item in node]
    if not isinstance(node, dict):
        return node
    converted = {key: _as_json_schema(value) for key, value in node.items() if key != "nullable"}
    if node.get("nullable"):
        return {"anyOf": [converted, {"type": "null"}]}
    return converted


def _response_validator(openapi: dict[str, Any], path: str) -> Draft7Validator:
    """A validator for the 200 response of ``GET path`` (components resolved from the root)."""
    body = openapi["paths"][path]["get"]["responses"]["200"]["content"]["application/json"]
    root = {**_as_json_schema(body["schema"]), "components": _as_json_schema(openapi["components"])}
    return Draft7Validator(root)


@pytest.fixture
def running_hand() -> Hand:
    """alice and bob on third street: nobody has five cards, so no hand names yet."""
    table = make_table()
    for seat, name in ((1, "alice"), (2, "bob")):
        client_for(make_player(name)).post(
            table_url(table, "sit"), {"seat": seat, "buy_in": 100}, format="json"
        )
    hands.table_advance(table.id)
    return Hand.objects.get(table=table, status=HandStatus.RUNNING)


@pytest.mark.parametrize(
    ("path", "url"),
    [
        ("/api/v1/tables/{table_id}/", "/api/v1/tables/{table}/"),
        ("/api/v1/hands/{hand_id}/", "/api/v1/hands/{hand}/"),
    ],
)
def test_an_observers_view_of_a_running_hand_matches_the_schema(running_hand, path, url):
    # Found by schemathesis: an observer's view has no "you", and players without five
    # visible cards have no "hand"; the schema listed both as required.
    observer = client_for(make_player("carol"))

    response = observer.get(url.format(table=running_hand.table_id, hand=running_hand.id))

    assert response.status_code == 200
    errors = [e.message for e in _response_validator(_openapi(), path).iter_errors(response.json())]
    assert errors == []


@pytest.mark.parametrize(
    ("component", "field"),
    [("HandView", "you"), ("ViewPlayer", "hand"), ("Award", "note")],
)
def test_a_sometimes_absent_output_field_is_not_required_in_the_schema(component, field):
    schema = _openapi()["components"]["schemas"][component]

    assert field in schema["properties"]
    assert field not in schema.get("required", [])
