"""Every body is read strictly (api_conventions.bodies.BodySerializer): a field the endpoint
does not know is a 400 naming it, and an integer is a JSON integer, never ``"100"`` or
full-width digits. Walked over every operation of the OpenAPI schema that reads a body, so
a new endpoint is covered the day it is added."""

from __future__ import annotations

from typing import Any

import pytest

from integrations.models import Subscription
from money.models import Posting
from tests.api.walk import (
    World,
    body_operations,
    database_digest,
    integer_properties,
    make_body_world,
)

pytestmark = pytest.mark.django_db

OPERATIONS = body_operations()
UNKNOWN = "is_staff"


@pytest.fixture
def world() -> World:
    return make_body_world()


def _detail(response: Any) -> dict[str, Any]:
    detail = response.json()["error"]["detail"]
    return detail if isinstance(detail, dict) else {}


def test_the_walk_covers_the_bodies_the_audit_found_lenient() -> None:
    walked = {str(operation) for operation in OPERATIONS}

    assert len(OPERATIONS) > 40
    assert {
        "POST /api/v1/players/{player_id}/deposit/",
        "POST /api/v1/clubs/",
        "POST /api/v1/clubs/{club_id}/members/",
        "POST /api/v1/leagues/",
        "POST /api/v1/leagues/{league_id}/seasons/",
        "POST /api/v1/webhooks/subscriptions/",
        "PATCH /api/v1/webhooks/subscriptions/{subscription_id}/",
    } <= walked


def test_an_unknown_field_is_refused_by_name_on_every_body(world: World) -> None:
    client = world.client()
    before = database_digest()
    lenient = {}
    for operation in OPERATIONS:
        assert UNKNOWN not in operation.properties, operation
        response = getattr(client, operation.method)(world.url(operation), {UNKNOWN: True})
        if response.status_code != 400 or UNKNOWN not in _detail(response):
            lenient[str(operation)] = (response.status_code, response.content[:300])

    assert lenient == {}
    assert database_digest() == before


def test_an_integer_as_a_string_is_refused_by_name_on_every_body(world: World) -> None:
    client = world.client()
    before = database_digest()
    lenient = {}
    checked = 0
    for operation in OPERATIONS:
        for name in integer_properties(operation):
            for text in ("100", "\uff11\uff12", "12.0"):
                response = getattr(client, operation.method)(world.url(operation), {name: text})
                checked += 1
                if response.status_code != 400 or name not in _detail(response):
                    lenient[f"{operation} {name}={text!r}"] = response.status_code

    assert checked > 50
    assert lenient == {}
    assert database_digest() == before


@pytest.mark.parametrize("amount", ["100", "\uff11\uff12", 100.0, True])
def test_a_deposit_takes_a_json_integer_only(world: World, amount: Any) -> None:
    url = f"/api/v1/players/{world.ids['player_id']}/deposit/"
    postings = Posting.objects.count()

    response = world.client().post(url, {"amount": amount})

    assert response.status_code == 400
    assert "A JSON integer is required" in _detail(response)["amount"][0]
    assert Posting.objects.count() == postings
    assert world.client().post(url, {"amount": 100}).status_code == 201


def test_a_misspelt_club_id_does_not_make_a_site_wide_subscription(world: World) -> None:
    body = {
        "url": "https://example.org/hooks/a",
        "event_types": ["payout"],
        "club_id": world.ids["club_id"],
    }

    response = world.client().post("/api/v1/webhooks/subscriptions/", body)

    assert response.status_code == 400
    assert "unknown field 'club_id'" in _detail(response)["club_id"][0]
    assert not Subscription.objects.filter(url=body["url"]).exists()


@pytest.mark.parametrize("points", ["\uff11\uff12", True, "1e3"])
def test_a_decimal_is_a_json_number_or_ascii_digits(world: World, points: Any) -> None:
    url = f"/api/v1/leagues/{world.ids['league_id']}/seasons/"

    response = world.client().post(url, {"participation_points": points})

    assert response.status_code == 400
    assert "A JSON number or a decimal" in _detail(response)["participation_points"][0]
