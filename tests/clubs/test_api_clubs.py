"""The clubs API, with its permission matrix (OWASP API1, BOLA): staff, a director of club
A, a director of club B, a member of club A, anonymous. A refused request changes nothing."""

from __future__ import annotations

import pytest

from clubs.models import Club, Membership
from tests.games.factories import make_player
from tests.leagues.world import make_world

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("role", "names"),
    [
        ("staff", ["Club A", "Club B"]),
        ("director_a", ["Club A"]),
        ("director_b", ["Club B"]),
        ("member_a", ["Club A"]),
    ],
)
def test_each_caller_lists_only_their_clubs(role, names):
    world = make_world()
    response = world.client(role).get("/api/v1/clubs/")
    assert response.status_code == 200
    assert [club["name"] for club in response.json()] == names


@pytest.mark.parametrize(
    ("role", "status"),
    [
        ("staff", 201),
        ("director_a", 403),
        ("director_b", 403),
        ("member_a", 403),
        ("anonymous", 401),
    ],
)
def test_only_staff_create_clubs(role, status):
    world = make_world()
    response = world.client(role).post("/api/v1/clubs/", {"name": "Club C"}, format="json")
    assert response.status_code == status, response.json()
    assert Club.objects.filter(name="Club C").exists() == (status == 201)
    if status != 201:
        assert set(response.json()["error"]) == {"code", "message", "detail"}


@pytest.mark.parametrize(
    ("role", "status"),
    [
        ("staff", 200),
        ("director_a", 200),
        ("director_b", 404),
        ("member_a", 200),
        ("anonymous", 401),
    ],
)
@pytest.mark.parametrize("path", ["", "members/"])
def test_reading_club_a(role, status, path):
    world = make_world()
    response = world.client(role).get(f"/api/v1/clubs/{world.club_a.id}/{path}")
    assert response.status_code == status


@pytest.mark.parametrize(
    ("role", "status"),
    [
        ("staff", 201),
        ("director_a", 201),
        ("director_b", 404),
        ("member_a", 403),
        ("anonymous", 401),
    ],
)
def test_adding_a_member_to_club_a(role, status):
    world = make_world()
    newcomer = make_player()
    response = world.client(role).post(
        f"/api/v1/clubs/{world.club_a.id}/members/",
        {"username": newcomer.user.username, "role": "director"},
        format="json",
    )
    assert response.status_code == status, response.json()
    added = Membership.objects.filter(club=world.club_a, user=newcomer.user)
    assert added.exists() == (status == 201)
    if status == 201:
        assert response.json()["role"] == "director"


def test_a_club_that_does_not_exist_answers_like_another_clubs():
    world = make_world()
    response = world.client("director_b").get("/api/v1/clubs/999999/")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"


def test_a_member_added_twice_is_a_409_and_nothing_changes():
    world = make_world()
    client = world.client("director_a")
    url = f"/api/v1/clubs/{world.club_a.id}/members/"
    username = world.players["member_a"].user.username
    response = client.post(url, {"username": username, "role": "director"}, format="json")
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "already_member"
    assert Membership.objects.get(club=world.club_a, user__username=username).role == "member"


def test_bad_member_input_is_a_400_or_404_that_says_what_to_do():
    world = make_world()
    client = world.client("director_a")
    url = f"/api/v1/clubs/{world.club_a.id}/members/"
    unknown = client.post(url, {"username": "nobody-here"}, format="json")
    assert unknown.status_code == 404
    assert "create the player first" in unknown.json()["error"]["message"]
    assert client.post(url, {"username": "x", "role": "owner"}, format="json").status_code == 400
    assert client.post(url, {}, format="json").status_code == 400
    assert Membership.objects.filter(club=world.club_a).count() == 2


def test_a_club_name_is_unique():
    world = make_world()
    response = world.client("staff").post("/api/v1/clubs/", {"name": "club a"}, format="json")
    assert response.status_code == 409
    assert Club.objects.count() == 2
