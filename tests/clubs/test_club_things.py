"""Issue 34 (10): a club's tournaments, tables, hands and logs are its own. A members-only
club (the default) shows them to its members; a public one to every signed-in player; the
API's lists and the lobby follow the same rule (``clubs.access``)."""

from __future__ import annotations

from html import escape

import pytest
from django.test import Client
from drf_spectacular.generators import SchemaGenerator

from clubs.models import Club
from tests.api.world import make_world
from tourney.models import Tournament

pytestmark = pytest.mark.django_db


def _public(world) -> None:
    response = world.client("director_a").patch(
        f"/api/v1/clubs/{world.club_a.id}/", {"visibility": "public"}, format="json"
    )
    assert response.status_code == 200, response.json()
    assert response.json()["visibility"] == "public"


def test_a_clubs_directors_choose_its_visibility_and_nobody_else():
    world = make_world()
    url = f"/api/v1/clubs/{world.club_a.id}/"
    assert world.client("member_a").get(url).json()["visibility"] == "members"
    for role, status in (("member_a", 403), ("director_b", 404), ("outsider", 404)):
        response = world.client(role).patch(url, {"visibility": "public"}, format="json")
        assert response.status_code == status, role
    assert Club.objects.get(pk=world.club_a.pk).visibility == "members"
    refused = world.client("director_a").patch(url, {"visibility": "everyone"}, format="json")
    assert refused.status_code == 400
    _public(world)
    assert Club.objects.get(pk=world.club_a.pk).visibility == "public"


def test_the_visibility_is_in_the_openapi_schema():
    components = SchemaGenerator().get_schema(request=None, public=True)["components"]["schemas"]
    assert components["VisibilityEnum"]["enum"] == ["members", "public"]
    for name in ("ClubOutput", "ClubInput", "PatchedClubUpdateInput"):
        assert "visibility" in components[name]["properties"], name


def test_a_members_only_clubs_table_hands_and_log_are_not_there_for_outsiders():
    world = make_world()
    table, hand = world.ids["table_id"], world.ids["hand_id"]
    outsider = world.client("outsider")
    assert table not in [t["id"] for t in outsider.get("/api/v1/tables/").json()["results"]]
    for path in (
        f"/api/v1/tables/{table}/",
        f"/api/v1/tables/{table}/events/",
        f"/api/v1/hands/{hand}/",
        f"/api/v1/hands/{hand}/history/",
        f"/api/v1/hands/{hand}/verify/",
    ):
        assert outsider.get(path).status_code == 404, path
        assert world.client("director_a").get(path).status_code == 200, path
    assert table in [
        t["id"] for t in world.client("member_a").get("/api/v1/tables/").json()["results"]
    ]


def test_a_hands_history_and_proofs_are_for_its_players_the_clubs_directors_and_staff():
    world = make_world()
    _public(world)
    hand = world.ids["hand_id"]
    for role, status in (
        ("staff", 200),
        ("director_a", 200),
        ("member_a", 403),  # sees the table, was not dealt in (two bots were)
        ("outsider", 403),
        ("director_b", 403),
    ):
        client = world.client(role)
        for record in ("history", "verify"):
            response = client.get(f"/api/v1/hands/{hand}/{record}/")
            assert response.status_code == status, (role, record)
        assert client.get(f"/api/v1/hands/{hand}/").status_code == 200  # the public part


def test_the_lobby_lists_the_tournaments_and_tables_the_player_sees():
    world = make_world()
    name = escape(Tournament.objects.get(pk=world.ids["tournament_id"]).name)
    pages = {}
    for role in ("member_a", "outsider"):
        browser = Client()
        browser.force_login(world.players[role].user)
        pages[role] = browser
    assert name in pages["member_a"].get("/play/").content.decode()
    assert name not in pages["outsider"].get("/play/").content.decode()
    table = world.ids["table_id"]
    assert pages["outsider"].get(f"/play/tables/{table}/").status_code == 404
    assert pages["member_a"].get(f"/play/tables/{table}/").status_code == 200
    _public(world)
    assert name in pages["outsider"].get("/play/").content.decode()
    assert pages["outsider"].get(f"/play/tables/{table}/").status_code == 200
