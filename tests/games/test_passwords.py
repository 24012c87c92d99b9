"""Passwords nobody but their owner knows (issue 34, defect 3, the accounts): staff create an
account without a password and hand over a one-time link that works once and expires; players
change their password only knowing the current one."""

from __future__ import annotations

import pytest
from django.contrib.auth.tokens import default_token_generator
from rest_framework.authtoken.models import Token

from games.models import Player
from tests.games.factories import make_player
from tests.games.test_api_support import client_for

pytestmark = pytest.mark.django_db

NEW = "correct horse battery"


def _created_without_password(staff) -> Player:
    response = client_for(staff).post(
        "/api/v1/players/", {"username": "ann", "display_name": "Ann"}, format="json"
    )
    assert response.status_code == 201, response.json()
    return Player.objects.get(pk=response.json()["id"])


def _link(staff, player: Player):
    return client_for(staff).post(f"/api/v1/players/{player.id}/password-link/")


def _set(body: dict):
    return client_for(None).post("/api/v1/auth/set-password/", body, format="json")


def _sign_in(username: str, password: str):
    return client_for(None).post(
        "/api/v1/auth/token/", {"username": username, "password": password}, format="json"
    )


def test_staff_create_an_account_whose_owner_sets_the_password_with_a_link_that_works_once():
    staff = make_player("boss", staff=True)
    ann = _created_without_password(staff)
    assert not ann.user.has_usable_password()

    link = _link(staff, ann)
    body = {"uid": link.json()["uid"], "token": link.json()["token"], "password": NEW}
    first = _set(body)
    again = _set({**body, "password": "another good phrase"})

    assert link.status_code == 201
    assert link.json()["url"].endswith(f"/accounts/set-password/{body['uid']}/{body['token']}/")
    assert first.status_code == 200
    assert first.json()["token"] == Token.objects.get(user=ann.user).key
    assert again.status_code == 400
    assert again.json()["error"]["code"] == "bad_password_link"
    assert _sign_in("ann", NEW).status_code == 200


def test_a_set_password_link_expires(settings, monkeypatch):
    settings.PASSWORD_RESET_TIMEOUT = 3600
    staff = make_player("boss", staff=True)
    ann = _created_without_password(staff)
    link = _link(staff, ann).json()
    now = default_token_generator._now()
    monkeypatch.setattr(default_token_generator, "_now", lambda: now.replace(year=now.year + 1))

    late = _set({"uid": link["uid"], "token": link["token"], "password": NEW})

    assert late.status_code == 400
    assert late.json()["error"]["code"] == "bad_password_link"
    ann.user.refresh_from_db()
    assert not ann.user.has_usable_password()


@pytest.mark.parametrize(
    "uid",
    ["MQ", "!!", "OTk5OTk5OTk5OTk5OTk5OTk5OTk5OTk5"],  # user 1, not base64, past any id
)
def test_a_forged_link_sets_nothing(uid):
    make_player("boss", staff=True)

    response = _set({"uid": uid, "token": "forged-token", "password": NEW})

    assert response.status_code == 400
    assert response.json()["error"]["code"] == "bad_password_link"
    assert not Token.objects.exists()


def test_no_link_for_an_account_with_a_password_or_a_bot_nor_from_a_player():
    staff = make_player("boss", staff=True)
    alice = make_player("alice")
    bot = make_player(bot="station")
    ann = _created_without_password(staff)

    refused = [(_link(staff, alice), 409), (_link(staff, bot), 400)]
    by_player = client_for(alice).post(f"/api/v1/players/{ann.id}/password-link/")

    assert [(r.status_code, r.json()["error"]["code"]) for r, _ in refused] == [
        (409, "password_set"),
        (400, "bot_no_password"),
    ]
    assert by_player.status_code == 403


def test_a_weak_password_by_link_is_refused_and_the_link_still_works():
    staff = make_player("boss", staff=True)
    ann = _created_without_password(staff)
    link = _link(staff, ann).json()

    weak = _set({"uid": link["uid"], "token": link["token"], "password": "12345"})
    good = _set({"uid": link["uid"], "token": link["token"], "password": NEW})

    assert weak.status_code == 400 and weak.json()["error"]["code"] == "weak_password"
    assert good.status_code == 200


def test_changing_a_password_needs_the_current_one_and_signs_other_clients_out():
    alice = make_player("alice")
    client = client_for(alice)
    old_token = Token.objects.get(user=alice.user).key

    wrong = client.post(
        "/api/v1/players/me/password/",
        {"old_password": "guess", "new_password": NEW},
        format="json",
    )
    changed = client.post(
        "/api/v1/players/me/password/", {"old_password": "pw", "new_password": NEW}, format="json"
    )

    assert wrong.status_code == 400 and wrong.json()["error"]["code"] == "wrong_password"
    assert changed.status_code == 200
    assert changed.json()["token"] != old_token
    assert client.get("/api/v1/players/me/").status_code == 401  # the old token is gone
    assert _sign_in("alice", "pw").status_code == 400
    assert _sign_in("alice", NEW).status_code == 200


def test_guessing_the_current_password_counts_against_the_sign_in_limits(settings):
    settings.SIGN_IN_LIMITS = {**settings.SIGN_IN_LIMITS, "free_failures": 2}
    alice = make_player("alice")
    client = client_for(alice)
    guess = {"old_password": "guess", "new_password": NEW}

    statuses = [
        client.post("/api/v1/players/me/password/", guess, format="json").status_code
        for _ in range(3)
    ]

    assert statuses == [400, 400, 429]
