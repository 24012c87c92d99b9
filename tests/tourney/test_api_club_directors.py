"""A club's directors run their club's tournaments through the tournament API without being
staff; a director of another club, a member and an anonymous caller cannot (OWASP API1,
BOLA). A refused request changes nothing."""

from __future__ import annotations

import pytest

from tests.games.factories import make_player
from tests.leagues.world import make_world
from tests.tourney.tournaments import LEVELS, make_tournament
from tourney.models import Entry, Move, Tournament
from tourney.services.commands.draw import tournament_start

pytestmark = pytest.mark.django_db

RUN_ROLES = [
    ("staff", True),
    ("director_a", True),
    ("director_b", False),
    ("member_a", False),
    ("anonymous", False),
]


def _refused(role: str) -> int:
    return 401 if role == "anonymous" else 403


def _club_a_tournament(world, **overrides) -> Tournament:
    return make_tournament(players=4, club_id=world.club_a.id, table_size=4, **overrides)


@pytest.mark.parametrize(("role", "allowed"), RUN_ROLES)
def test_creating_a_tournament_of_club_a(role, allowed):
    world = make_world()
    client = world.client(role)
    schedule = world.client("staff").post(
        "/api/v1/tournaments/schedules/",
        {"name": "s", "chip_unit": 5, "entries": LEVELS},
        format="json",
    )
    body = {
        "name": "Club night",
        "club_id": world.club_a.id,
        "buy_in": 55,
        "fee": 5,
        "starting_stack": 1000,
        "chip_unit": 5,
        "schedule_id": schedule.json()["id"],
    }
    response = client.post("/api/v1/tournaments/", body, format="json")
    assert response.status_code == (201 if allowed else _refused(role)), response.json()
    assert Tournament.objects.filter(name="Club night").exists() == allowed
    if allowed:
        assert response.json()["club_id"] == world.club_a.id


def test_a_director_cannot_create_a_tournament_without_a_club_or_for_another_club():
    world = make_world()
    client = world.client("director_a")
    schedule = client.post(
        "/api/v1/tournaments/schedules/",
        {"name": "s", "chip_unit": 5, "entries": LEVELS},
        format="json",
    )
    assert schedule.status_code == 201  # a director writes schedules, a member does not
    refused = world.client("member_a").post(
        "/api/v1/tournaments/schedules/",
        {"name": "s", "chip_unit": 5, "entries": LEVELS},
        format="json",
    )
    assert refused.status_code == 403
    body = {"name": "x", "buy_in": 10, "starting_stack": 100, "schedule_id": schedule.json()["id"]}
    assert client.post("/api/v1/tournaments/", body, format="json").status_code == 403
    body["club_id"] = world.club_b.id
    response = client.post("/api/v1/tournaments/", body, format="json")
    assert response.status_code == 403
    assert response.json()["error"]["code"] == "not_your_club"
    assert not Tournament.objects.exists()
    # nor move their own tournament to another club
    tournament = _club_a_tournament(world)
    response = client.patch(
        f"/api/v1/tournaments/{tournament.id}/", {"club_id": world.club_b.id}, format="json"
    )
    assert response.status_code == 403
    tournament.refresh_from_db()
    assert tournament.club_id == world.club_a.id


@pytest.mark.parametrize(("role", "allowed"), RUN_ROLES)
def test_configuring_a_club_a_tournament(role, allowed):
    world = make_world()
    tournament = _club_a_tournament(world)
    response = world.client(role).patch(
        f"/api/v1/tournaments/{tournament.id}/", {"name": "Renamed"}, format="json"
    )
    assert response.status_code == (200 if allowed else _refused(role))
    tournament.refresh_from_db()
    assert (tournament.name == "Renamed") == allowed


@pytest.mark.parametrize(("role", "allowed"), RUN_ROLES)
def test_starting_pausing_resuming_and_cancelling_a_club_a_tournament(role, allowed):
    world = make_world()
    tournament = _club_a_tournament(world)
    client = world.client(role)
    url = f"/api/v1/tournaments/{tournament.id}/"
    for action, status_after in (
        ("start", "running"),
        ("pause", "paused"),
        ("resume", "running"),
        ("cancel", "cancelled"),
    ):
        response = client.post(url + f"{action}/")
        assert response.status_code == (200 if allowed else _refused(role)), action
        tournament.refresh_from_db()
        assert tournament.status == (status_after if allowed else "registering")


@pytest.mark.parametrize(("role", "allowed"), RUN_ROLES)
def test_live_reports_deals_and_moves_of_a_club_a_tournament(role, allowed):
    world = make_world()
    tournament = _club_a_tournament(world, mode="live")
    tournament_start(tournament_id=tournament.id)
    client = world.client(role)
    url = f"/api/v1/tournaments/{tournament.id}/"
    entry = Entry.objects.filter(tournament=tournament).first()
    chips = client.post(url + "chips/", {"counts": {str(entry.id): 1500}}, format="json")
    busts = client.post(url + "busts/", {"counts": {str(entry.id): 1000}}, format="json")
    deal = client.post(url + "deal/", {"counts": {str(entry.id): 1}}, format="json")
    if allowed:
        assert chips.status_code == 200
        assert busts.status_code == 200
        assert deal.status_code in (400, 409)  # allowed, but not a valid deal
    else:
        for response in (chips, busts, deal):
            assert response.status_code == _refused(role)
        entry.refresh_from_db()
        assert entry.status == "playing"
    tournament.refresh_from_db()
    assert tournament.deal is None


@pytest.mark.parametrize(("role", "allowed"), RUN_ROLES)
def test_acknowledging_a_move_of_a_club_a_tournament(role, allowed):
    world = make_world()
    tournament = _club_a_tournament(world, mode="live")
    tournament_start(tournament_id=tournament.id)
    entry = Entry.objects.filter(tournament=tournament).first()
    move = Move.objects.create(
        tournament=tournament,
        entry=entry,
        from_table=1,
        from_seat=1,
        to_table=1,
        to_seat=2,
        reason="balance",
        status="pending",
    )
    response = world.client(role).post(
        f"/api/v1/tournaments/{tournament.id}/moves/{move.id}/acknowledge/"
    )
    move.refresh_from_db()
    if allowed:
        assert response.status_code == 200
        assert move.status == "acknowledged"
    else:
        assert response.status_code == _refused(role)
        assert move.status == "pending"


@pytest.mark.parametrize(("role", "allowed"), RUN_ROLES)
def test_registering_another_player_in_a_club_a_tournament(role, allowed):
    world = make_world()
    tournament = _club_a_tournament(world)
    guest = make_player()
    response = world.client(role).post(
        f"/api/v1/tournaments/{tournament.id}/register/", {"player": guest.id}, format="json"
    )
    assert response.status_code == (201 if allowed else _refused(role))
    assert Entry.objects.filter(tournament=tournament, player=guest).exists() == allowed


def test_a_directors_actions_on_a_tournament_without_a_club_are_refused():
    world = make_world()
    tournament = make_tournament(players=4)
    response = world.client("director_a").post(f"/api/v1/tournaments/{tournament.id}/start/")
    assert response.status_code == 403
    tournament.refresh_from_db()
    assert tournament.status == "registering"
