"""What schedules, tournaments and their queries refuse (each a 400 that says why and
changes nothing), and what they accept with a warning."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.games.factories import make_player
from tests.tourney.tournaments import LEVELS
from tourney.models import AnteSchedule, Tournament

pytestmark = pytest.mark.django_db

SCHEDULES = "/api/v1/tournaments/schedules/"
TOURNAMENTS = "/api/v1/tournaments/"


@pytest.fixture
def staff() -> APIClient:
    client = APIClient()
    client.force_authenticate(make_player("director", staff=True).user)
    return client


def _level(**changes: Any) -> dict[str, Any]:
    level = {"game": "stud_hi", "ante": 5, "bring_in": 10, "small_bet": 30, "big_bet": 60}
    return {**level, "minutes": 10, **changes}


def _refused(response: Any, fragment: str) -> dict[str, Any]:
    assert response.status_code == 400, response.json()
    error = response.json()["error"]
    assert fragment in str(error), error
    return error


@pytest.mark.parametrize(
    ("entries", "fragment"),
    [
        ([_level(ante=10)], "the ante (10) must be below the bring-in (10)"),
        ([_level(ante=15)], "the ante (15) must be below the bring-in (10)"),
        (
            [_level(), _level(ante=10, bring_in=15, small_bet=25, big_bet=50)],
            "level 2: small_bet 25 is below the 30 of level 1: stakes never go down",
        ),
        (
            [_level(ante=10, bring_in=15), _level(bring_in=10)],
            "level 2: ante 5 is below the 10 of level 1",
        ),
    ],
)
def test_a_schedule_with_impossible_stakes_is_a_400(staff, entries, fragment):
    response = staff.post(
        SCHEDULES, {"name": "s", "chip_unit": 5, "entries": entries}, format="json"
    )
    _refused(response, fragment)
    assert not AnteSchedule.objects.exists()


def test_a_big_bet_other_than_twice_the_small_bet_is_stored_with_a_warning(staff):
    entries = [_level(), _level(ante=10, bring_in=15, small_bet=50, big_bet=150)]
    response = staff.post(
        SCHEDULES, {"name": "s", "chip_unit": 5, "entries": entries}, format="json"
    )
    assert response.status_code == 201, response.json()
    warning = (
        "level 2: the big bet (150) is not twice the small bet (50), as fixed-limit stud has it"
    )
    assert response.json()["warnings"] == [warning]
    again = staff.get(f"{SCHEDULES}{response.json()['id']}/")
    assert again.json()["warnings"] == [warning]
    usual = staff.post(SCHEDULES, {"name": "u", "chip_unit": 5, "entries": LEVELS}, format="json")
    assert usual.json()["warnings"] == []


def test_unknown_fields_are_a_400_naming_them_at_every_level(staff):
    body = {"name": "s", "chip_unit": 5, "entries": [_level()], "antes": 1}
    error = _refused(staff.post(SCHEDULES, body, format="json"), "unknown field")
    assert list(error["detail"]) == ["antes"]
    body = {"name": "s", "chip_unit": 5, "entries": [{**_level(), "straddle": 5}]}
    error = _refused(staff.post(SCHEDULES, body, format="json"), "unknown field")
    assert list(error["detail"]["entries"]["0"]) == ["straddle"]
    assert not AnteSchedule.objects.exists()


@pytest.fixture
def schedule_id(staff) -> int:
    response = staff.post(
        SCHEDULES, {"name": "s", "chip_unit": 5, "entries": LEVELS}, format="json"
    )
    return int(response.json()["id"])


def _tournament(schedule_id: int, **changes: Any) -> dict[str, Any]:
    body = {
        "name": "Sunday",
        "buy_in": 110,
        "fee": 10,
        "starting_stack": 1000,
        "chip_unit": 5,
        "schedule_id": schedule_id,
    }
    return {**body, **changes}


REBUYS = {"rebuy_max": 2, "rebuy_levels": 2, "rebuy_price": 110, "rebuy_chips": 1000}
ADD_ON = {"add_on_level": 2, "add_on_price": 50, "add_on_chips": 1500}


@pytest.mark.parametrize(
    ("changes", "fragment"),
    [
        ({"guarantee": 5000}, "unknown field"),
        ({**REBUYS, "rebuy_chips": 0}, "rebuy_chips is 0 with rebuy_max 2"),
        ({**REBUYS, "rebuy_price": 0}, "rebuy_price is 0 with rebuy_max 2"),
        ({**ADD_ON, "add_on_chips": 0, "add_on_price": 0}, "add_on_chips is 0 with add_on_level 2"),
        ({"late_reg_levels": 7}, "late_reg_levels 7 is longer than the schedule's 6 levels"),
        ({**REBUYS, "rebuy_levels": 9}, "rebuy_levels 9 is longer than the schedule's 6 levels"),
    ],
)
def test_a_tournament_that_cannot_work_is_a_400(staff, schedule_id, changes, fragment):
    response = staff.post(TOURNAMENTS, _tournament(schedule_id, **changes), format="json")
    error = _refused(response, fragment)
    if "guarantee" in changes:
        assert list(error["detail"]) == ["guarantee"]
    assert not Tournament.objects.exists()


def test_configuring_a_tournament_is_checked_the_same_way(staff, schedule_id):
    created = staff.post(TOURNAMENTS, _tournament(schedule_id), format="json").json()
    url = f"{TOURNAMENTS}{created['id']}/"
    _refused(staff.patch(url, {"rebuy_max": 1}, format="json"), "rebuy_chips is 0")
    _refused(staff.patch(url, {"guarantee": 5000}, format="json"), "guarantee")
    assert Tournament.objects.get().rebuy_max == 0


def test_the_patch_of_a_setting_echoes_it(staff, schedule_id):
    created = staff.post(TOURNAMENTS, _tournament(schedule_id), format="json").json()
    url = f"{TOURNAMENTS}{created['id']}/"
    changes = {"minute_seconds": 2, "action_seconds": 7, "pause_ms": 300, **ADD_ON}
    response = staff.patch(url, changes, format="json")
    assert response.status_code == 200, response.json()
    assert {name: response.json()[name] for name in changes} == changes


def test_bad_query_values_are_a_400_before_anything_else(staff, schedule_id):
    created = staff.post(TOURNAMENTS, _tournament(schedule_id), format="json").json()
    url = f"{TOURNAMENTS}{created['id']}/"
    _refused(staff.get(url + "moves/?status=bogus"), "status")
    assert staff.get(url + "moves/?status=pending").status_code == 200
    # the tournament is registering (a deal would be a 409), but the method is checked first
    _refused(staff.get(url + "deal-quote/?method=bogus"), "method")
    assert staff.get(url + "deal-quote/?method=chip_chop").status_code == 409
