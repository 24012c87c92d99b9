"""The account pages (issue 34, defect 3, the accounts): the set-password link's page works once,
and a player changes their password knowing the current one."""

from __future__ import annotations

import pytest
from django.test import Client

from games.services.passwords import password_link_create
from games.services.players import player_create
from tests.games.factories import make_player

pytestmark = pytest.mark.django_db

NEW = "correct horse battery"


def _signed_in(player) -> Client:
    client = Client()
    client.force_login(player.user)
    return client


def test_the_set_password_page_works_once_and_then_the_owner_signs_in():
    ann = player_create(username="ann", password=None, display_name="Ann")
    link = password_link_create(player=ann)
    url = f"/accounts/set-password/{link.uid}/{link.token}/"
    client = Client()

    page = client.get(url)
    differ = client.post(url, {"password": NEW, "password_again": NEW + "!"})
    weak = client.post(url, {"password": "12345", "password_again": "12345"})
    done = client.post(url, {"password": NEW, "password_again": NEW})
    again = client.get(url)
    signed_in = client.post("/accounts/login/", {"username": "ann", "password": NEW})

    assert page.status_code == 200 and "ann" in page.content.decode()
    assert page["Cache-Control"].startswith("max-age=0")
    assert differ.status_code == 400 and "differ" in differ.content.decode()
    assert weak.status_code == 400 and "too weak" in weak.content.decode()
    assert done.status_code == 302 and done["Location"] == "/accounts/login/"
    assert again.status_code == 400 and "does not work" in again.content.decode()
    assert signed_in.status_code == 302
    assert client.session["_auth_user_id"] == str(ann.user.pk)


def test_changing_the_password_on_its_page_needs_the_current_one_and_keeps_this_session():
    alice = make_player("alice")
    client = _signed_in(alice)
    other = _signed_in(alice)

    wrong = client.post(
        "/accounts/password/",
        {"old_password": "guess", "new_password": NEW, "new_password_again": NEW},
    )
    changed = client.post(
        "/accounts/password/",
        {"old_password": "pw", "new_password": NEW, "new_password_again": NEW},
    )

    assert wrong.status_code == 400 and "current password is wrong" in wrong.content.decode()
    assert changed.status_code == 302 and changed["Location"] == "/play/"
    assert client.get("/play/").status_code == 200  # this session stays
    assert other.get("/play/").status_code == 302  # the other one is signed out
    alice.user.refresh_from_db()
    assert alice.user.check_password(NEW)


def test_the_change_password_page_is_for_signed_in_players():
    response = Client().get("/accounts/password/")

    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")
