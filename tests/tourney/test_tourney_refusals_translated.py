"""A tournament's refusals follow Accept-Language (English, Arabic, Greek), with the
tournament's status in the reader's words; the code never changes."""

from __future__ import annotations

import pytest

from tests.games.factories import make_player
from tests.tourney.test_api_tournaments import _client, _create, staff  # noqa: F401 (a fixture)
from tourney.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("language", "message"),
    [
        ("en", "the tournament is already running"),
        ("ar", "البطولة جارية بالفعل"),
        ("el", "το τουρνουά είναι ήδη σε εξέλιξη"),
    ],
)
def test_starting_a_started_tournament_is_refused_in_the_readers_language(
    staff,  # noqa: F811
    language,
    message,
):
    tournament = _create(staff)
    url = f"/api/v1/tournaments/{tournament['id']}/"
    for _ in range(2):
        staff.post(url + "register/", {"player": make_player(bot="rules").id}, format="json")
    assert staff.post(url + "start/").status_code == 200
    before = Tournament.objects.values().get(pk=tournament["id"])

    response = staff.post(url + "start/", HTTP_ACCEPT_LANGUAGE=language)

    assert response.status_code == 409
    assert response.json()["error"] == {
        "code": "already_started",
        "message": message,
        "detail": None,
    }
    assert Tournament.objects.values().get(pk=tournament["id"]) == before


@pytest.mark.parametrize(
    ("language", "message"),
    [
        ("en", "Player1 is already registered"),
        ("ar", "Player1 مسجّل بالفعل"),
        ("el", "ο/η Player1 είναι ήδη γραμμένος/η"),
    ],
)
def test_registering_twice_is_refused_in_the_readers_language(
    staff,  # noqa: F811
    language,
    message,
):
    tournament = _create(staff)
    client = _client(make_player("player1"))
    url = f"/api/v1/tournaments/{tournament['id']}/register/"
    assert client.post(url).status_code == 201

    response = client.post(url, HTTP_ACCEPT_LANGUAGE=language)

    assert response.status_code == 409
    assert response.json()["error"]["code"] == "already_registered"
    assert response.json()["error"]["message"] == message


@pytest.mark.parametrize(
    ("language", "message"),
    [
        (
            "en",
            "the ante (10) must be below the bring-in (10): the bring-in is the first bet, "
            "above what everyone already put in",
        ),
        (
            "ar",
            "يجب أن يكون الرهان المسبق (10) أقل من رسم الاشتراك (10): رسم الاشتراك هو الرهان "
            "الأول، فوق ما دفعه الجميع",
        ),
        (
            "el",
            "το ante (10) πρέπει να είναι κάτω από το bring-in (10): το bring-in είναι το πρώτο "
            "ποντάρισμα, πάνω από ό,τι έβαλαν ήδη όλοι",
        ),
    ],
)
def test_a_planners_refusal_of_a_schedule_is_in_the_readers_language(
    staff,  # noqa: F811
    language,
    message,
):
    level = {"game": "stud_hi", "ante": 10, "bring_in": 10, "small_bet": 30, "big_bet": 60}

    response = staff.post(
        "/api/v1/tournaments/schedules/",
        {"name": "s", "chip_unit": 5, "entries": [{**level, "minutes": 10}]},
        format="json",
        HTTP_ACCEPT_LANGUAGE=language,
    )

    assert response.status_code == 400
    assert response.json()["error"]["code"] == "invalid_schedule"
    assert response.json()["error"]["message"] == message
