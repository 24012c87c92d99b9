"""The desk's ante schedules: who may see and write them, the level editor's errors shown
beside their fields with nothing saved, presets and copies stored as the API stores them."""

from __future__ import annotations

import pytest
from django.test import Client

from clubs.models import Club, Membership, Role
from tests.games.factories import make_player
from tourney.models import AnteSchedule, ScheduleEntry
from tourney.services.commands.schedules import schedule_create

pytestmark = pytest.mark.django_db

LEVEL = {"game": "stud_hi", "ante": 5, "bring_in": 10, "small_bet": 20, "big_bet": 40}


def _client(player) -> Client:
    client = Client()
    client.force_login(player.user)
    return client


def _director(club: Club, name: str = "dana") -> Client:
    player = make_player(name)
    Membership.objects.create(club=club, user=player.user, role=Role.DIRECTOR)
    return _client(player)


def _rows(*rows: dict) -> dict[str, str]:
    form = {"rows": str(len(rows))}
    for i, row in enumerate(rows):
        form.update({f"e{i}-{k}": str(v) for k, v in row.items()})
    return form


def _level(**changes) -> dict:
    return {"kind": "level", **LEVEL, "minutes": 20, **changes}


def test_the_schedules_are_for_staff_and_directors_only():
    assert Client().get("/desk/schedules/").status_code == 302
    player = _client(make_player("alice"))
    assert player.get("/desk/schedules/").status_code == 403
    refused = player.post("/desk/schedules/new/", {"name": "Mine", **_rows(_level())})
    assert refused.status_code == 403 and not AnteSchedule.objects.exists()


def test_a_director_writes_their_club_s_schedule_and_reads_the_house_s():
    ours, theirs = Club.objects.create(name="Ours"), Club.objects.create(name="Theirs")
    house = schedule_create(name="House", chip_unit=5, entries=[{**LEVEL, "minutes": 20}])
    other = schedule_create(
        name="Theirs only", chip_unit=5, entries=[{**LEVEL, "minutes": 20}], club_id=theirs.id
    )
    client = _director(ours)
    listed = client.get("/desk/schedules/").content.decode()
    assert "House" in listed and "Theirs only" not in listed
    assert client.get(f"/desk/schedules/{other.id}/").status_code == 404
    refused = client.post(
        f"/desk/schedules/{house.id}/", {"name": "Mine now", **_rows(_level(minutes=5))}
    )
    assert refused.status_code == 403
    assert AnteSchedule.objects.get(pk=house.pk).name == "House"
    saved = client.post("/desk/schedules/new/", {"name": "Ours weekly", **_rows(_level())})
    assert saved.status_code == 302
    assert AnteSchedule.objects.get(name="Ours weekly").club_id == ours.id


def test_the_editor_shows_each_error_beside_its_field_and_saves_nothing():
    staff = _client(make_player("boss", staff=True))
    page = staff.post(
        "/desk/schedules/new/",
        {"name": "Bad", **_rows(_level(), _level(ante="lots"), {"kind": "break", "minutes": "0"})},
    )
    assert page.status_code == 400
    html = page.content.decode()
    assert 'id="f-e1-ante-error"' in html and "Enter a whole number" in html
    assert 'aria-invalid="true"' in html
    assert not AnteSchedule.objects.exists()
    # the API serializer's bound (minutes at least 1), beside the break's minutes
    page = staff.post(
        "/desk/schedules/new/", {"name": "Bad", **_rows(_level(), {"kind": "break", "minutes": 0})}
    )
    assert page.status_code == 400
    assert 'id="f-e1-minutes-error"' in page.content.decode()
    # the planner's rule (a bring-in above the small bet), above the form
    page = staff.post("/desk/schedules/new/", {"name": "Bad", **_rows(_level(bring_in=50))})
    assert page.status_code == 400 and not AnteSchedule.objects.exists()


def test_a_new_schedule_stores_the_rows_the_api_would():
    staff = _client(make_player("boss", staff=True))
    response = staff.post(
        "/desk/schedules/new/",
        {
            "name": "Weekly",
            "chip_unit": "5",
            **_rows(
                _level(),
                {"kind": "break", "minutes": 10},
                _level(ante=10, remove="on"),
                _level(ante=10, bring_in=15, small_bet=40, big_bet=80),
            ),
        },
    )
    schedule = AnteSchedule.objects.get(name="Weekly")
    assert response.status_code == 302 and response["Location"] == f"/desk/schedules/{schedule.id}/"
    rows = list(ScheduleEntry.objects.filter(schedule=schedule).order_by("position"))
    assert [(r.is_break, r.minutes, r.ante) for r in rows] == [
        (False, 20, 5),
        (True, 10, 0),
        (False, 20, 10),
    ]
    assert schedule.chip_unit == 5 and schedule.club_id is None


def test_adding_a_row_saves_nothing():
    staff = _client(make_player("boss", staff=True))
    page = staff.post("/desk/schedules/new/", {"name": "W", "add_break": "", **_rows(_level())})
    assert page.status_code == 200 and 'name="e1-minutes"' in page.content.decode()
    assert not AnteSchedule.objects.exists()


def test_editing_rewrites_the_levels_and_a_copy_keeps_them():
    staff = _client(make_player("boss", staff=True))
    schedule = schedule_create(name="Old", chip_unit=5, entries=[{**LEVEL, "minutes": 20}])
    page = staff.get(f"/desk/schedules/{schedule.id}/").content.decode()
    assert 'value="20"' in page
    saved = staff.post(
        f"/desk/schedules/{schedule.id}/", {"name": "New", **_rows(_level(minutes=15))}
    )
    assert saved.status_code == 302
    assert ScheduleEntry.objects.get(schedule=schedule).minutes == 15
    assert AnteSchedule.objects.get(pk=schedule.pk).name == "New"
    copied = staff.post(f"/desk/schedules/{schedule.id}/copy/", {"name": "New (copy)"})
    copy = AnteSchedule.objects.get(name="New (copy)")
    assert copied.status_code == 302
    assert list(ScheduleEntry.objects.filter(schedule=copy).values_list("minutes", "ante")) == [
        (15, 5)
    ]


def test_a_preset_generates_with_the_planner():
    staff = _client(make_player("boss", staff=True))
    bad = staff.post(
        "/desk/schedules/generate/",
        {"name": "T", "preset": "turbo", "starting_stack": "-5", "games": "stud_hi"},
    )
    assert bad.status_code == 400 and 'id="f-starting_stack-error"' in bad.content.decode()
    assert not AnteSchedule.objects.exists()
    made = staff.post(
        "/desk/schedules/generate/",
        {
            "name": "T",
            "preset": "turbo",
            "starting_stack": "10000",
            "chip_unit": "25",
            "games": "stud_hi",
        },
    )
    assert made.status_code == 302
    schedule = AnteSchedule.objects.get(name="T")
    levels = ScheduleEntry.objects.filter(schedule=schedule, is_break=False)
    assert levels.count() > 10 and {lv.minutes for lv in levels} == {10}
