"""A club's directors run their club's tournaments through the tournament API without being
staff; a director of another club, a member and an anonymous caller cannot (OWASP API1,
BOLA). A refused request changes nothing."""

from __future__ import annotations

import pytest

from clubs.models import Club, Membership
from tests.games.factories import make_player
from tests.leagues.world import make_member, make_world
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
    """Club A is members-only (the default): a director of club B does not see its
    tournaments at all (404); a member sees them but does not run them (403)."""
    return {"anonymous": 401, "director_b": 404}.get(role, 403)


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
    refused = 401 if role == "anonymous" else 403  # no tournament in the path: nothing hidden
    assert response.status_code == (201 if allowed else refused), response.json()
    assert Tournament.objects.filter(name="Club night").exists() == allowed
    if allowed:
        assert response.json()["club_id"] == world.club_a.id


def test_a_director_cannot_create_a_tournament_without_a_club_or_for_another_club():
    world = make_world()
    client = world.client("director_a")
    own = client.post(
        "/api/v1/tournaments/schedules/",
        {"name": "s", "chip_unit": 5, "entries": LEVELS},
        format="json",
    )
    assert own.status_code == 201  # a director's schedule is their club's, never the house's
    assert own.json()["club_id"] == world.club_a.id
    Membership.objects.create(
        club=world.club_b, user=world.players["director_a"].user, role="director"
    )
    two_clubs = client.post(
        "/api/v1/tournaments/schedules/",
        {"name": "s", "chip_unit": 5, "entries": LEVELS},
        format="json",
    )
    assert two_clubs.status_code == 403  # a director of two clubs names one
    assert two_clubs.json()["error"]["code"] == "not_your_club"
    Membership.objects.filter(club=world.club_b, user=world.players["director_a"].user).delete()
    schedule = client.post(
        "/api/v1/tournaments/schedules/",
        {"name": "s", "chip_unit": 5, "entries": LEVELS, "club_id": world.club_a.id},
        format="json",
    )
    assert schedule.status_code == 201  # a director writes their club's, a member does not
    assert schedule.json()["club_id"] == world.club_a.id
    refused = world.client("member_a").post(
        "/api/v1/tournaments/schedules/",
        {"name": "s", "chip_unit": 5, "entries": LEVELS, "club_id": world.club_a.id},
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
    guest = make_member(world.club_a)
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


def test_a_director_names_only_members_of_a_members_only_clubs_tournament():
    world = make_world()
    tournament = _club_a_tournament(world)
    guest = make_player()
    response = world.client("director_a").post(
        f"/api/v1/tournaments/{tournament.id}/register/", {"player": guest.id}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "not_a_member"
    assert not Entry.objects.filter(tournament=tournament, player=guest).exists()
    Club.objects.filter(pk=world.club_a.pk).update(visibility="public")  # anyone may enter
    response = world.client("director_a").post(
        f"/api/v1/tournaments/{tournament.id}/register/", {"player": guest.id}, format="json"
    )
    assert response.status_code == 201


def _schedule_of(world, role: str, club) -> int:
    response = world.client(role).post(
        "/api/v1/tournaments/schedules/",
        {"name": "s", "chip_unit": 5, "entries": LEVELS, "club_id": club.id},
        format="json",
    )
    assert response.status_code == 201, response.json()
    return response.json()["id"]


def test_a_club_b_tournament_cannot_use_club_a_schedule_nor_move_onto_it():
    """Issue 34 (10): a director of club B created a B tournament on club A's schedule (201)
    and moved one onto it (200)."""
    world = make_world()
    a_schedule = _schedule_of(world, "director_a", world.club_a)
    b_schedule = _schedule_of(world, "director_b", world.club_b)
    client = world.client("director_b")
    body = {
        "name": "B night",
        "club_id": world.club_b.id,
        "buy_in": 55,
        "fee": 5,
        "starting_stack": 1000,
        "chip_unit": 5,
        "schedule_id": a_schedule,
    }
    response = client.post("/api/v1/tournaments/", body, format="json")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "no_schedule"
    assert not Tournament.objects.filter(name="B night").exists()
    created = client.post(
        "/api/v1/tournaments/", {**body, "schedule_id": b_schedule}, format="json"
    )
    assert created.status_code == 201
    moved = client.patch(
        f"/api/v1/tournaments/{created.json()['id']}/", {"schedule_id": a_schedule}, format="json"
    )
    assert moved.status_code == 404
    assert Tournament.objects.get(pk=created.json()["id"]).schedule_id == b_schedule
    # club A's schedule is not even there for a director of club B
    assert client.get(f"/api/v1/tournaments/schedules/{a_schedule}/").status_code == 404
    assert (
        client.patch(
            f"/api/v1/tournaments/schedules/{a_schedule}/", {"name": "mine"}, format="json"
        ).status_code
        == 404
    )


def test_a_member_reads_their_clubs_leaderboard_and_tables_and_an_outsider_does_not_see_them():
    """Issue 34 (10): a member of club A got 403 on A's tournament leaderboard and tables;
    any signed-in player read A's tournament log."""
    world = make_world()
    tournament = _club_a_tournament(world)
    tournament_start(tournament_id=tournament.id)
    outsider = make_player()
    for board in ("leaderboard", "tables", "events", ""):
        url = f"/api/v1/tournaments/{tournament.id}/{board}/".replace("//", "/")
        assert world.client("member_a").get(url).status_code == 200, board
        other = world.client("anonymous")
        other.force_authenticate(outsider.user)
        assert other.get(url).status_code == 404, board
    listed = world.client("anonymous")
    listed.force_authenticate(outsider.user)
    ids = [t["id"] for t in listed.get("/api/v1/tournaments/").json()["results"]]
    assert tournament.id not in ids
    Club.objects.filter(pk=world.club_a.pk).update(visibility="public")
    ids = [t["id"] for t in listed.get("/api/v1/tournaments/").json()["results"]]
    assert tournament.id in ids
    assert listed.get(f"/api/v1/tournaments/{tournament.id}/leaderboard/").status_code == 200
