"""The desk's club pages: staff create clubs; a club's directors (and staff) edit it, add
members, set roles and remove members; another club's director gets a 404, a member the 403
page. Forms show their errors beside the fields and change nothing then."""

from __future__ import annotations

import pytest

from clubs.models import Club, Membership, Role
from tests.games.factories import make_player
from tests.leagues.world import make_world
from tests.web.desk_world import desk_client, error_beside

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("role", "status"),
    [
        ("anonymous", 302),
        ("member_a", 403),
        ("director_b", 404),
        ("director_a", 200),
        ("staff", 200),
    ],
)
def test_who_opens_club_a_s_page(role, status):
    world = make_world()
    response = desk_client(world, role).get(f"/desk/clubs/{world.club_a.id}/")
    assert response.status_code == status


@pytest.mark.parametrize(("role", "status"), [("director_b", 404), ("member_a", 403)])
def test_others_change_nothing_in_club_a(role, status):
    world = make_world()
    make_player("newbie", funds=0)
    client = desk_client(world, role)
    club = world.club_a.id
    member = Membership.objects.get(club=world.club_a, user=world.players["member_a"].user)
    assert client.post(f"/desk/clubs/{club}/", {"visibility": "public"}).status_code == status
    added = client.post(f"/desk/clubs/{club}/members/", {"username": "newbie", "role": "member"})
    assert added.status_code == status
    assert client.post(f"/desk/clubs/{club}/members/{member.id}/remove/").status_code == status
    assert Club.objects.get(pk=club).visibility == "members"
    assert Membership.objects.filter(club_id=club).count() == 2


def test_staff_create_a_club_and_a_taken_name_shows_beside_the_field():
    world = make_world()
    staff = desk_client(world, "staff")
    made = staff.post("/desk/clubs/", {"name": "Club C", "visibility": "public"})
    club = Club.objects.get(name="Club C")
    assert made["Location"] == f"/desk/clubs/{club.id}/" and club.visibility == "public"
    taken = staff.post("/desk/clubs/", {"name": "club a", "visibility": "members"})
    assert taken.status_code == 400
    assert "exists already" in error_beside(taken.content.decode(), "id_name")
    assert Club.objects.count() == 3
    director = desk_client(world, "director_a")
    assert (
        director.post("/desk/clubs/", {"name": "Mine", "visibility": "members"}).status_code == 403
    )
    assert director.get("/desk/clubs/").content.decode().count("/desk/clubs/") >= 1


def test_a_director_adds_a_member_sets_a_role_and_removes_them():
    world = make_world()
    newbie = make_player("newbie", funds=0)
    client = desk_client(world, "director_a")
    club = world.club_a.id
    added = client.post(f"/desk/clubs/{club}/members/", {"username": "newbie", "role": "member"})
    assert added.status_code == 302
    member = Membership.objects.get(club_id=club, user=newbie.user)
    assert member.role == Role.MEMBER
    client.post(f"/desk/clubs/{club}/members/{member.id}/role/", {"role": "director"})
    assert Membership.objects.get(pk=member.pk).role == Role.DIRECTOR
    client.post(f"/desk/clubs/{club}/members/{member.id}/remove/")
    assert not Membership.objects.filter(pk=member.pk).exists()
    assert client.post(f"/desk/clubs/{club}/", {"visibility": "public"}).status_code == 302
    assert Club.objects.get(pk=club).visibility == "public"


def test_add_member_errors_are_beside_the_username_and_nothing_changes():
    world = make_world()
    client = desk_client(world, "director_a")
    club = world.club_a.id
    before = Membership.objects.count()
    nobody = client.post(f"/desk/clubs/{club}/members/", {"username": "ghost", "role": "member"})
    assert nobody.status_code == 400
    assert "create the player first" in error_beside(nobody.content.decode(), "id_username")
    twice = client.post(
        f"/desk/clubs/{club}/members/",
        {"username": world.players["member_a"].user.username, "role": "member"},
    )
    assert "already a member" in error_beside(twice.content.decode(), "id_username")
    bad_role = client.post(f"/desk/clubs/{club}/members/", {"username": "x", "role": "king"})
    assert error_beside(bad_role.content.decode(), "id_role")
    bad_edit = client.post(f"/desk/clubs/{club}/", {"visibility": "everyone"})
    assert bad_edit.status_code == 400 and error_beside(bad_edit.content.decode(), "id_visibility")
    assert Membership.objects.count() == before
    assert Club.objects.get(pk=club).visibility == "members"


def test_a_director_s_own_row_shows_why_they_cannot_demote_themselves():
    world = make_world()
    client = desk_client(world, "director_a")
    own = Membership.objects.get(club=world.club_a, user=world.players["director_a"].user)
    refused = client.post(
        f"/desk/clubs/{world.club_a.id}/members/{own.id}/role/", {"role": "member"}
    )
    assert refused.status_code == 409
    assert "ask another director" in error_beside(refused.content.decode(), f"role-{own.id}")
    assert Membership.objects.get(pk=own.pk).role == Role.DIRECTOR
