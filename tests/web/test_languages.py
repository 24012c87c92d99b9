"""The pages' language: the player's saved choice beats the cookie, which beats the browser's
Accept-Language; English when none is given. Every page says its language and direction, and
numbers follow the language (and the digits setting)."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.test import Client

from games.models import Player
from tests.games.factories import make_player, make_table
from tests.tourney.tournaments import make_tournament

pytestmark = pytest.mark.django_db


def _html_tag(html: str) -> str:
    return re.search(r"<html[^>]*>", html).group(0)


def _signed_in(player: Player) -> Client:
    client = Client()
    client.force_login(player.user)
    return client


def test_english_by_default_left_to_right():
    html = Client().get("/accounts/login/").content.decode()
    assert 'lang="en" dir="ltr"' in _html_tag(html)
    assert "<h1>Sign in</h1>" in html


@pytest.mark.parametrize(
    ("accept", "lang", "direction", "heading"),
    [
        ("ar", "ar", "rtl", "تسجيل الدخول"),
        ("el-GR,el;q=0.9,en;q=0.5", "el", "ltr", "Σύνδεση"),
        ("fr", "en", "ltr", "Sign in"),
    ],
)
def test_accept_language_chooses_the_language_and_direction(accept, lang, direction, heading):
    response = Client().get("/accounts/login/", headers={"Accept-Language": accept})
    html = response.content.decode()
    assert f'lang="{lang}" dir="{direction}"' in _html_tag(html)
    assert f"<h1>{heading}</h1>" in html
    assert response["Content-Language"] == lang


def test_the_cookie_beats_accept_language():
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "el"
    html = client.get("/accounts/login/", headers={"Accept-Language": "ar"}).content.decode()
    assert 'lang="el" dir="ltr"' in _html_tag(html)


def test_the_saved_preference_beats_the_cookie_and_accept_language():
    player = make_player("alice")
    Player.objects.filter(pk=player.pk).update(language="ar")
    client = _signed_in(player)  # the sign-in copies the saved language into the session
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "el"
    html = client.get("/play/", headers={"Accept-Language": "el"}).content.decode()
    assert 'lang="ar" dir="rtl"' in _html_tag(html)
    assert "<h1>الردهة</h1>" in html


def test_choosing_a_language_saves_it_for_the_player_and_sets_the_cookie():
    player = make_player("alice")
    client = _signed_in(player)
    response = client.post("/i18n/setlang/", {"language": "el", "next": "/play/"})
    assert response.status_code == 302 and response["Location"] == "/play/"
    assert Player.objects.get(pk=player.pk).language == "el"
    assert client.cookies[settings.LANGUAGE_COOKIE_NAME].value == "el"
    # Signed in again elsewhere (no cookie, another browser language): still Greek.
    elsewhere = _signed_in(player)
    html = elsewhere.get("/play/", headers={"Accept-Language": "ar"}).content.decode()
    assert 'lang="el"' in _html_tag(html)


def test_an_unknown_language_changes_nothing():
    player = make_player("alice")
    client = _signed_in(player)
    client.post("/i18n/setlang/", {"language": "xx", "next": "/play/"})
    assert Player.objects.get(pk=player.pk).language == ""
    assert settings.LANGUAGE_COOKIE_NAME not in client.cookies


def test_every_page_has_the_language_switch():
    html = Client().get("/accounts/login/", headers={"Accept-Language": "ar"}).content.decode()
    assert 'action="/i18n/setlang/"' in html
    for code in ("en", "ar", "el"):
        assert f'name="language" value="{code}" lang="{code}"' in html


def test_the_clock_screen_says_its_language_and_direction():
    tournament = make_tournament(name="Friday")
    html = (
        Client().get(f"/clock/{tournament.id}/", headers={"Accept-Language": "ar"}).content.decode()
    )
    assert 'lang="ar" dir="rtl"' in _html_tag(html)
    assert "الرهان المسبق" in html  # the ante, as the Arabic rule pages call it
    assert 'action="/i18n/setlang/"' in html


def test_an_error_page_says_its_language_and_direction():
    player = make_player("alice")
    client = _signed_in(player)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "ar"
    response = client.get("/console/")
    assert response.status_code == 403
    html = response.content.decode()
    assert 'lang="ar" dir="rtl"' in _html_tag(html)
    assert "اللوحة للموظفين ومديري الأندية" in html


def test_amounts_are_grouped_for_the_language():
    table = make_table(name="Big", ante=1000, small_bet=2000, big_bet=4000)
    player = make_player("alice")
    client = _signed_in(player)
    assert "2,000/4,000" in client.get("/play/").content.decode()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "el"
    assert "2.000/4.000" in client.get("/play/").content.decode()
    assert table.name in client.get("/play/").content.decode()


def test_arabic_indic_digits_are_a_setting(settings):
    make_table(name="Big", ante=1000, small_bet=2000, big_bet=4000)
    client = _signed_in(make_player("alice"))
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "ar"
    western = client.get("/play/").content.decode()
    # Django's Arabic formats group no digits
    assert "2000/4000" in western and 'data-digits="western"' in western
    settings.STUD_DIGITS = "arabic-indic"
    indic = client.get("/play/").content.decode()
    assert "٢٠٠٠/٤٠٠٠" in indic and 'data-digits="arabic-indic"' in indic
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "el"
    assert "2.000/4.000" in client.get("/play/").content.decode()  # Arabic pages only
