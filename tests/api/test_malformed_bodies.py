"""Malformed bodies, beside the schemathesis fuzzing (test_api_schemathesis.py): bodies
nested 5,000 deep, lone surrogates, numbers no float or column holds, bytes that are not
UTF-8 and values of the wrong JSON type, sent to every POST, PUT and PATCH of the OpenAPI
schema as staff (with an object for each id in the path, so the body is read): never a 5xx,
never a change, and the parser's refusals carry their own codes (config.json_body)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from rest_framework.throttling import SimpleRateThrottle

from integrations.models import Subscription
from tests.api.walk import Operation, World, body_operations, database_digest, make_body_world

pytestmark = pytest.mark.django_db

OPERATIONS = body_operations()

WHOLE_BODIES: dict[str, tuple[bytes, str | None]] = {
    # what is sent: (the body, the error code expected of every operation, if one)
    "5,000 nested [": (b"[" * 5000, "too_deep"),
    "33 nested objects, closed": (b'{"a":' * 33 + b"1" + b"}" * 33, "too_deep"),
    "a lone surrogate": (b'{"a": ["\\ud800x"]}', "lone_surrogate"),
    "1e400": (b'{"a": 1e400}', "number_out_of_range"),
    "5,000 digits": (b'{"a": ' + b"9" * 5000 + b"}", "parse_error"),
    "not UTF-8": (b'{"a": "\xff\xfe"}', "parse_error"),
    "an array": (b"[]", "invalid"),
    "null": (b"null", None),
}

WRONG_TYPES: dict[str, list[Any]] = {
    "integer": ["12", 10**30, True],
    "number": ["x", True],
    "string": [12, ["x"]],
    "boolean": ["yes", 1],
    "array": ["x", {}],
    "object": ["x", []],
}


@pytest.fixture
def world() -> World:
    return make_body_world()


def _send(world: World, operation: Operation, body: bytes) -> Any:
    SimpleRateThrottle.cache.clear()  # the sign-in endpoint would answer 429 after ten
    call = getattr(world.client(), operation.method)
    return call(world.url(operation), data=body, content_type="application/json")


def _value_text(value: Any) -> bytes:
    return json.dumps(value).encode()


def test_malformed_bodies_are_4xx_with_their_code_on_every_operation(world: World) -> None:
    before = database_digest()
    wrong = {}
    for operation in OPERATIONS:
        for name, (body, code) in WHOLE_BODIES.items():
            response = _send(world, operation, body)
            got = response.json()["error"]["code"] if response.status_code >= 400 else None
            if response.status_code != 400 or (code is not None and got != code):
                wrong[f"{operation} {name}"] = (response.status_code, got)

    assert wrong == {}
    assert database_digest() == before


def test_every_field_with_a_huge_number_or_a_wrong_type_is_a_4xx(
    world: World,
) -> None:
    before = database_digest()
    wrong = {}
    sent = 0
    for operation in OPERATIONS:
        for name, node in operation.properties.items():
            field = json.dumps(name).encode()
            bodies = [
                b"{%s: %s}" % (field, _value_text(v))
                for v in WRONG_TYPES.get(node.get("type", ""), [])
            ]
            for body in bodies:
                response = _send(world, operation, body)
                sent += 1
                if not 400 <= response.status_code < 500:
                    wrong[f"{operation} {body[:80]!r}"] = response.status_code

    assert sent > 250
    assert wrong == {}
    assert database_digest() == before


# The audit's reproductions, one by one.


def test_a_lone_surrogate_in_a_tables_variant_is_a_400(world: World) -> None:
    body = b'{"name": "T", "variant": "\\ud800", "ante": 1, "small_bet": 5, "big_bet": 10}'

    response = world.client().post("/api/v1/tables/", data=body, content_type="application/json")

    assert response.status_code == 400
    assert response.json()["error"]["code"] == "lone_surrogate"


def test_a_lone_surrogate_in_a_points_formula_is_a_400(world: World) -> None:
    body = b'{"formula": "expression", "formula_params": {"expression": "\\ud800"}, "n": 9}'

    response = world.client().post(
        "/api/v1/points-preview/", data=body, content_type="application/json"
    )

    assert response.status_code == 400
    assert response.json()["error"]["code"] == "lone_surrogate"


@pytest.mark.parametrize("port", ["99999", "0", "65536", "-1", "x"])
def test_a_webhook_url_with_a_port_out_of_range_is_a_bad_url(world: World, port: str) -> None:
    url = f"https://example.org:{port}/hooks"

    response = world.client().post(
        "/api/v1/webhooks/subscriptions/", {"url": url, "event_types": ["payout"]}
    )

    assert response.status_code == 400
    assert response.json()["error"]["code"] in {"bad_url", "invalid"}
    assert not Subscription.objects.filter(url=url).exists()


def test_a_body_not_in_its_declared_charset_is_a_400(world: World) -> None:
    response = world.client().post(
        "/api/v1/points-preview/",
        data=b'{"formula": "table", "n": 10}',  # 29 bytes: no UTF-16 text
        content_type="application/json; charset=utf-16",
    )

    assert response.status_code == 400
    assert response.json()["error"]["code"] == "parse_error"


def test_a_form_body_is_a_415(world: World) -> None:
    response = world.client().post(
        f"/api/v1/players/{world.ids['player_id']}/deposit/", {"amount": 5}, format="multipart"
    )

    assert response.status_code == 415
    assert response.json()["error"]["code"] == "unsupported_media_type"
