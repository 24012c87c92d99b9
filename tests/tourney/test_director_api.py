"""The director's API: who may use it, every endpoint through HTTP, the read-back (detail,
leaderboard, tables, the filtered paged list) and bad input (400s naming the problem)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from clubs.models import Club, Membership, Role
from tests.games.factories import make_player
from tests.tourney.director import started
from tests.tourney.tournaments import fake_hand, make_tournament, seats_of, table_of
from tourney.models import Tournament
from tourney.services.update import tournament_update

pytestmark = pytest.mark.django_db


def _client(user: User | None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


@pytest.fixture
def club_tournament() -> dict[str, Any]:
    club, other = Club.objects.create(name="Home"), Club.objects.create(name="Away")
    director = User.objects.create_user("td")
    stranger = User.objects.create_user("td-away")
    Membership.objects.create(club=club, user=director, role=Role.DIRECTOR)
    Membership.objects.create(club=other, user=stranger, role=Role.DIRECTOR)
    tournament = started(players=10, late_reg_levels=2)
    Tournament.objects.filter(pk=tournament.pk).update(club=club)
    return {
        "url": f"/api/v1/tournaments/{tournament.id}/",
        "tournament": tournament,
        "director": _client(director),
        "stranger": _client(stranger),
        "player": _client(make_player().user),
    }


def _post(client: APIClient, url: str, body: dict[str, Any]) -> Any:
    return client.post(url, body, format="json")


def test_only_staff_or_the_clubs_director_may_direct(club_tournament):
    url = club_tournament["url"]
    body = {"action": "add_time", "seconds": 60}
    # the club is members-only (the default): outside it, the tournament is not there (404)
    assert _post(club_tournament["stranger"], url + "clock/", body).status_code == 404
    assert _post(club_tournament["player"], url + "clock/", body).status_code == 404
    assert _post(_client(None), url + "clock/", body).status_code == 401
    assert _post(club_tournament["director"], url + "clock/", body).status_code == 200
    staff = _client(User.objects.create_user("boss", is_staff=True))
    assert _post(staff, url + "clock/", body).status_code == 200
    Club.objects.filter(tournaments=club_tournament["tournament"]).update(visibility="public")
    assert _post(club_tournament["stranger"], url + "clock/", body).status_code == 403
    assert _post(club_tournament["player"], url + "clock/", body).status_code == 403
    for path in ("tables/", "leaderboard/"):  # a public club's boards are everyone's
        assert club_tournament["stranger"].get(url + path).status_code == 200
        assert club_tournament["director"].get(url + path).status_code == 200


def test_every_control_through_the_api(club_tournament):
    td, url = club_tournament["director"], club_tournament["url"]
    tournament = club_tournament["tournament"]
    detail = td.get(url).json()
    table1 = detail["tables"][0]
    mover = table1["seats"][0]["entry"]
    free = min(set(range(1, 9)) - {s["seat"] for s in detail["tables"][1]["seats"]})
    response = _post(td, url + "seats/move/", {"entry": mover, "table": 2, "seat": free})
    assert response.status_code == 200, response.json()
    assert (
        response.json()["instruction"]
        == f"table 1 seat {table1['seats'][0]['seat']} -> table 2 seat {free}"
    )
    board = td.get(url + "leaderboard/").json()
    a, b = board["results"][0]["entry"], board["results"][1]["entry"]
    assert _post(td, url + "seats/swap/", {"entries": [a, b]}).status_code == 200
    assert _post(td, url + "seats/lock/", {"entry": a}).json()["seat_locked"] is True
    assert (
        _post(
            td, url + "chips/correct/", {"entry": a, "chips": 1100, "reason": "miscount"}
        ).status_code
        == 200
    )
    assert _post(td, url + f"busts/{b}/disqualify/", {"reason": "abuse"}).json()["disqualified"]
    assert (
        _post(td, url + "late-registration/", {"open": False}).json()["late_registration_open"]
        is False
    )
    response = td.patch(url + "settings/", {"action_seconds": 20}, format="json")
    assert response.status_code == 200 and response.json()["settings"]["action_seconds"] == 20
    for body in (
        {"action": "add_time", "seconds": -30},
        {"action": "next_level"},
        {"action": "previous_level"},
        {"action": "break", "minutes": 5, "after_hands": True},
        {"action": "end_break"},
    ):
        response = _post(td, url + "clock/", body)
        assert response.status_code == 200, (body, response.json())
    kinds = set(tournament.events.values_list("kind", flat=True))
    assert {
        "director_move",
        "director_swap",
        "seat_lock",
        "chips_corrected",
        "disqualified",
        "late_registration",
        "settings_changed",
        "clock_jump",
        "clock_time",
    } - kinds == set()


def test_undo_a_bust_through_the_api(club_tournament):
    td, url, tournament = (
        club_tournament["director"],
        club_tournament["url"],
        club_tournament["tournament"],
    )
    table = table_of(tournament, 1)
    stacks = seats_of(table.id)
    seats = sorted(stacks)
    fake_hand(table.id, {seats[1]: 0, seats[0]: stacks[seats[0]][1] + stacks[seats[1]][1]})
    tournament_update(tournament_id=tournament.id)
    out = tournament.entries.get(status="eliminated").id
    winner = tournament.entries.get(player_id=stacks[seats[0]][0]).id
    response = _post(td, url + f"busts/{out}/undo/", {"chips": 1000, "from_entry": winner})
    assert response.status_code == 200, response.json()
    assert response.json()["status"] == "playing"
    response = _post(td, url + f"busts/{out}/undo/", {"chips": 1000})
    assert response.status_code == 409


def test_bad_input_is_a_400_naming_it_and_changes_nothing(club_tournament):
    td, url, tournament = (
        club_tournament["director"],
        club_tournament["url"],
        club_tournament["tournament"],
    )
    events = tournament.events.count()
    cases = [
        ("clock/", {"action": "add_time", "seconds": 60, "sconds": 1}, "sconds"),
        ("clock/", {"action": "add_time"}, "seconds"),
        ("clock/", {"action": "next_level", "seconds": 5}, "seconds"),
        ("clock/", {"action": "rewind"}, "action"),
        ("seats/move/", {"entry": 1, "table": 1, "seat": 1, "force": True}, "force"),
        ("seats/swap/", {"entries": [1]}, "entries"),
        ("seats/lock/", {"entry": "x"}, "entry"),
        ("chips/correct/", {"entry": 1, "chips": -5, "reason": "x"}, "chips"),
    ]
    for path, body, field in cases:
        response = _post(td, url + path, body)
        assert response.status_code == 400, (path, body, response.json())
        assert field in response.json()["error"]["detail"], response.json()
    response = td.patch(url + "settings/", {"level_minutes": 5, "colour": "red"}, format="json")
    assert response.status_code == 400 and "colour" in response.json()["error"]["detail"]
    response = _post(td, url + "clock/", {"action": "add_time", "seconds": -100000})
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "negative_time"
    assert tournament.events.count() == events


def test_the_detail_reads_back_the_settings_and_what_comes_next(club_tournament):
    detail = club_tournament["director"].get(club_tournament["url"]).json()
    settings = detail["settings"]
    assert (settings["buy_in"], settings["fee"], settings["starting_stack"], settings["mode"]) == (
        110,
        10,
        1000,
        "online",
    )
    assert settings["late_reg_levels"] == 2 and settings["schedule"][2]["is_break"]
    assert detail["level"]["number"] == 1 and detail["time_left_ms"] > 590_000
    assert detail["next_level"]["number"] == 2 and detail["next_level"]["small_bet"] == 50
    assert 590_000 < detail["next_level"]["starts_in_ms"] <= 600_000
    assert detail["next_break"]["index"] == 2 and detail["next_break"]["after_level"] == 2
    assert 1_190_000 < detail["next_break"]["starts_in_ms"] <= 1_200_000
    assert detail["late_registration_open"] is True
    assert detail["chip_unit_in_play"] == 5


def test_leaderboard_and_tables_including_broken_ones(club_tournament):
    td, url, tournament = (
        club_tournament["director"],
        club_tournament["url"],
        club_tournament["tournament"],
    )
    table2 = table_of(tournament, 2)
    stacks = seats_of(table2.id)
    seats = sorted(stacks)
    fake_hand(
        table2.id,
        {**{s: 0 for s in seats[1:]}, seats[0]: sum(c for _, c in stacks.values())},
    )
    tournament_update(tournament_id=tournament.id)  # 6 left: table 2 breaks, table 1 final
    tables = td.get(url + "tables/").json()
    assert tables["count"] == 2 and tables["next"] is None
    assert [(t["number"], t["status"]) for t in tables["results"]] == [(1, "final"), (2, "broken")]
    assert tables["results"][1]["seats"] == []
    board = td.get(url + "leaderboard/").json()
    assert board["count"] == 6
    chips = [row["chips"] for row in board["results"]]
    assert chips == sorted(chips, reverse=True) and chips[0] == 5000
    assert [row["rank"] for row in board["results"]] == [1, 2, 3, 4, 5, 6]
    assert td.get(url + "leaderboard/?page_size=2&page=3").json()["results"][1]["rank"] == 6
    assert td.get(url + "leaderboard/?bogus=1").status_code == 400


def test_the_list_filters_and_pages_with_no_silent_cap():
    staff = _client(User.objects.create_user("boss", is_staff=True))
    club = Club.objects.create(name="C")
    first = make_tournament()
    Tournament.objects.bulk_create(
        [
            Tournament(
                name=f"t{n}",
                buy_in=10,
                starting_stack=100,
                schedule_id=first.schedule_id,
                club=club if n % 2 else None,
            )
            for n in range(120)
        ]
    )
    page = staff.get("/api/v1/tournaments/").json()
    assert page["count"] == 121 and len(page["results"]) == 100 and page["next"]
    second = staff.get(page["next"]).json()
    assert len(second["results"]) == 21 and second["next"] is None
    by_club = staff.get(f"/api/v1/tournaments/?club={club.id}&page_size=500").json()
    assert by_club["count"] == 60
    assert staff.get("/api/v1/tournaments/?status=running").json()["count"] == 0
    assert staff.get("/api/v1/tournaments/?status=registering").json()["count"] == 121
    today = first.created_at.date().isoformat()
    assert staff.get(f"/api/v1/tournaments/?date={today}").json()["count"] == 121
    assert staff.get("/api/v1/tournaments/?date_to=2000-01-01").json()["count"] == 0
    for bad in ("status=bogus", "club=x", "date=yesterday", "sort=name", "page_size=0"):
        response = staff.get(f"/api/v1/tournaments/?{bad}")
        assert response.status_code == 400, bad
    assert staff.get("/api/v1/tournaments/?page=99").status_code == 404


def test_a_one_table_tournament_plays_at_its_final_table():
    staff = _client(User.objects.create_user("boss", is_staff=True))
    tournament = started(players=4)
    tables = staff.get(f"/api/v1/tournaments/{tournament.id}/tables/").json()
    assert [(t["number"], t["status"], len(t["seats"])) for t in tables["results"]] == [
        (1, "final", 4)
    ]
