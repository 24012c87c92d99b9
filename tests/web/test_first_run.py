"""First run (issue 36, must-have 1): `/` leads to the lobby; the first staff account is made
from a page that works only with the one-time token `manage.py first_run` prints, and only
while no staff account exists."""

from __future__ import annotations

import io
import re

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client

from tests.games.factories import make_player

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _own_var_dir(settings, tmp_path):
    settings.VAR_DIR = tmp_path


def _printed_token() -> str:
    out = io.StringIO()
    call_command("first_run", stdout=out)
    return re.search(r"/setup/\?token=([\w-]+)", out.getvalue()).group(1)


def _form(token: str, **fields: str) -> dict[str, str]:
    return {
        "token": token,
        "username": "director",
        "display_name": "Director",
        "password": "a-long-club-password",
        "password_again": "a-long-club-password",
        **fields,
    }


def test_the_root_leads_to_the_lobby():
    response = Client().get("/")
    assert (response.status_code, response["Location"]) == (302, "/play/")


def test_the_printed_link_makes_the_first_staff_account_and_signs_it_in():
    client = Client()
    token = _printed_token()
    page = client.get(f"/setup/?token={token}")
    assert page.status_code == 200 and "The first staff account" in page.content.decode()

    response = client.post("/setup/", _form(token))

    assert (response.status_code, response["Location"]) == (302, "/console/")
    user = get_user_model().objects.get(username="director")
    assert user.is_staff and user.is_superuser and user.player.display_name == "Director"
    assert client.get("/console/").status_code == 200


def test_without_the_token_or_with_a_wrong_one_there_is_no_setup_page():
    _printed_token()
    assert Client().get("/setup/").status_code == 404
    assert Client().get("/setup/?token=guess").status_code == 404
    assert Client().post("/setup/", _form("guess")).status_code == 404
    assert not get_user_model().objects.filter(is_staff=True).exists()


def test_the_link_works_once_and_never_after_staff_exists():
    token = _printed_token()
    Client().post("/setup/", _form(token))
    assert Client().post("/setup/", _form(token, username="second")).status_code == 404
    out = io.StringIO()
    call_command("first_run", stdout=out)
    assert "A staff account exists" in out.getvalue()
    assert get_user_model().objects.filter(is_staff=True).count() == 1


def test_a_new_link_replaces_the_old_one():
    old = _printed_token()
    new = _printed_token()
    assert Client().get(f"/setup/?token={old}").status_code == 404
    assert Client().get(f"/setup/?token={new}").status_code == 200


def test_mistakes_are_shown_beside_their_fields_and_make_nothing():
    token = _printed_token()
    make_player("taken")
    page = Client().post("/setup/", _form(token, password_again="something-else")).content
    assert "The two passwords differ" in page.decode()
    page = Client().post("/setup/", _form(token, username="taken")).content.decode()
    assert "is taken" in page
    page = Client().post("/setup/", _form(token, password="123", password_again="123")).content
    assert "too weak" in page.decode()
    assert not get_user_model().objects.filter(is_staff=True).exists()
