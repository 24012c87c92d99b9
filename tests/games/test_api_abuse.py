"""A hostile or careless client (issue 8, suite item 4): sign-in is rate-limited, tokens can be
revoked and rotated, weak passwords are refused, bodies have a size limit, and unknown fields
are a 400 that names them. Every refusal changes nothing."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token

from games.models import Player, Seat
from tests.games.factories import make_player, make_table
from tests.games.test_api_support import client_for, table_state, table_url

pytestmark = pytest.mark.django_db

TOKEN_URL = "/api/v1/auth/token/"


@pytest.fixture
def limits(settings):
    def set_limits(**limits: int) -> None:
        settings.SIGN_IN_LIMITS = {**settings.SIGN_IN_LIMITS, **limits}

    return set_limits


# --- rate limits (more in test_sign_in_limits.py) ---------------------------------------------


def test_failed_sign_ins_from_one_address_are_slowed_down_with_retry_after(limits):
    limits(free_failures=3)
    make_player("alice")
    anonymous = client_for(None)
    wrong = {"username": "alice", "password": "guess"}

    statuses = [anonymous.post(TOKEN_URL, wrong, format="json").status_code for _ in range(3)]
    limited = anonymous.post(TOKEN_URL, {"username": "alice", "password": "pw"}, format="json")

    assert statuses == [400, 400, 400]
    assert limited.status_code == 429
    assert int(limited["Retry-After"]) == 1
    error = limited.json()["error"]
    assert error["code"] == "throttled"
    assert "Retry-After" in error["message"]
    assert not Token.objects.exists()  # the right password did not get through either


# --- tokens --------------------------------------------------------------------------------


def _signed_in(username: str = "alice"):
    make_player(username)
    client = client_for(None)
    token = client.post(TOKEN_URL, {"username": username, "password": "pw"}).json()["token"]
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client, token


def test_a_revoked_token_stops_working_at_once():
    client, _token = _signed_in()
    assert client.get("/api/v1/players/me/").status_code == 200

    response = client.post("/api/v1/auth/token/revoke/")

    assert response.status_code == 204
    assert client.get("/api/v1/players/me/").status_code == 401
    assert not Token.objects.exists()


def test_a_rotated_token_replaces_the_old_one():
    client, old = _signed_in()

    response = client.post("/api/v1/auth/token/rotate/")

    assert response.status_code == 200
    new = response.json()["token"]
    assert new != old
    assert client.get("/api/v1/players/me/").status_code == 401  # still sending the old one
    client.credentials(HTTP_AUTHORIZATION=f"Token {new}")
    assert client.get("/api/v1/players/me/").json()["username"] == "alice"


def test_revoking_and_rotating_need_a_signed_in_caller():
    anonymous = client_for(None)

    assert anonymous.post("/api/v1/auth/token/revoke/").status_code == 401
    assert anonymous.post("/api/v1/auth/token/rotate/").status_code == 401


# --- passwords -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("password", "why"),
    [
        ("short1!", "too short"),
        ("password123", "too common"),
        ("4815162342", "entirely numeric"),
        ("dora-the-explorer", "too similar to the username"),
    ],
)
def test_a_weak_password_is_refused_when_a_player_is_registered(password, why):
    staff = client_for(make_player("boss", staff=True))
    users = get_user_model().objects.count()

    response = staff.post(
        "/api/v1/players/",
        {"username": "dora-the-explorer", "password": password, "display_name": "Dora"},
        format="json",
    )

    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "weak_password"
    assert any(why in message for message in error["detail"])
    assert get_user_model().objects.count() == users


# --- body size -----------------------------------------------------------------------------


def test_a_body_over_the_size_limit_is_a_413_and_changes_nothing(settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    table = make_table()
    alice = make_player("alice")
    before = table_state(table.id)
    body = json.dumps({"seat": 1, "buy_in": 100, "padding": "x" * 2000})

    response = client_for(alice).post(
        table_url(table, "sit"), body, content_type="application/json"
    )

    assert response.status_code == 413
    error = response.json()["error"]
    assert error["code"] == "too_large"
    assert error["detail"] == {"limit": 1000, "length": len(body)}
    assert table_state(table.id) == before


def test_the_default_body_limit_is_set_below_djangos():
    from django.conf import settings

    assert settings.DATA_UPLOAD_MAX_MEMORY_SIZE == 256 * 1024


# --- unknown fields ------------------------------------------------------------------------


def test_an_unknown_field_in_a_body_is_a_400_that_names_it_and_changes_nothing():
    table = make_table()
    alice = make_player("alice")
    before = table_state(table.id)

    response = client_for(alice).post(
        table_url(table, "sit"),
        {"seat": 1, "buyin": 100, "bounty": 5},
        format="json",
    )

    assert response.status_code == 400
    detail = response.json()["error"]["detail"]
    assert set(detail) >= {"buyin", "bounty"}
    assert "unknown field 'bounty'" in detail["bounty"][0]
    assert "buy_in" in detail["bounty"][0]  # the known fields are listed
    assert table_state(table.id) == before
    assert not Seat.objects.filter(player=alice).exists()


@pytest.mark.parametrize(
    ("url", "body"),
    [
        (TOKEN_URL, {"username": "alice", "password": "pw", "remember": True}),
        (
            "/api/v1/players/",
            {"username": "x", "password": "Long-enough-9", "display_name": "X", "admin": True},
        ),
        (
            "/api/v1/tables/",
            {
                "name": "T",
                "variant": "stud_hi",
                "ante": 1,
                "bring_in": 2,
                "small_bet": 5,
                "big_bet": 10,
                "rake": 5,
            },
        ),
        (
            "/api/v1/games/",
            {
                "name": "G",
                "variant": "stud_hi",
                "ante": 1,
                "bring_in": 2,
                "small_bet": 5,
                "big_bet": 10,
                "rake": 5,
            },
        ),
    ],
)
def test_unknown_fields_are_refused_on_every_body(url, body):
    staff = client_for(make_player("boss", staff=True))
    make_player("alice")
    players = Player.objects.count()

    response = staff.post(url, body, format="json")

    assert response.status_code == 400, response.json()
    extra = set(body) - {
        "username",
        "password",
        "display_name",
        "name",
        "variant",
        "ante",
        "bring_in",
        "small_bet",
        "big_bet",
    }
    assert set(response.json()["error"]["detail"]) == extra
    assert Player.objects.count() == players


def test_the_admin_sign_in_page_is_rate_limited_too(limits, client):
    limits(free_failures=2)
    make_player("boss", staff=True)
    form = {"username": "boss", "password": "guess", "next": "/admin/"}

    statuses = [client.post("/admin/login/", form).status_code for _ in range(2)]
    limited = client.post("/admin/login/", {**form, "password": "pw"})

    assert statuses == [200, 200]  # the form again, with its error
    assert limited.status_code == 429
    assert limited.json()["error"]["code"] == "throttled"
    assert int(limited["Retry-After"]) > 0
    assert "_auth_user_id" not in client.session
    assert client.get("/admin/login/").status_code == 200  # the page itself is not limited
