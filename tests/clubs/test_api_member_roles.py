"""Setting a member's role and removing a member over the API: staff or the club's
directors; another club's director gets a 404, a member a 403; a director cannot demote or
remove themselves. A refused request changes nothing."""

from __future__ import annotations

import pytest

from clubs.models import Membership, Role
from tests.leagues.world import make_world

pytestmark = pytest.mark.django_db


def _member_a(world) -> Membership:
    return Membership.objects.get(club=world.club_a, user=world.players["member_a"].user)


@pytest.mark.parametrize(
    ("role", "status"),
    [
        ("staff", 200),
        ("director_a", 200),
        ("director_b", 404),
        ("member_a", 403),
        ("anonymous", 401),
    ],
)
def test_setting_a_member_s_role(role, status):
    world = make_world()
    member = _member_a(world)
    response = world.client(role).patch(
        f"/api/v1/clubs/{world.club_a.id}/members/{member.id}/", {"role": "director"}, format="json"
    )
    assert response.status_code == status
    expected = Role.DIRECTOR if status == 200 else Role.MEMBER
    assert Membership.objects.get(pk=member.pk).role == expected


@pytest.mark.parametrize(
    ("role", "status"),
    [
        ("staff", 204),
        ("director_a", 204),
        ("director_b", 404),
        ("member_a", 403),
        ("anonymous", 401),
    ],
)
def test_removing_a_member(role, status):
    world = make_world()
    member = _member_a(world)
    response = world.client(role).delete(f"/api/v1/clubs/{world.club_a.id}/members/{member.id}/")
    assert response.status_code == status
    assert Membership.objects.filter(pk=member.pk).exists() == (status != 204)


def test_a_director_cannot_demote_or_remove_themselves():
    world = make_world()
    own = Membership.objects.get(club=world.club_a, user=world.players["director_a"].user)
    client = world.client("director_a")
    url = f"/api/v1/clubs/{world.club_a.id}/members/{own.id}/"
    demoted = client.patch(url, {"role": "member"}, format="json")
    assert demoted.status_code == 409 and demoted.json()["error"]["code"] == "own_role"
    assert client.delete(url).status_code == 409
    assert Membership.objects.get(pk=own.pk).role == Role.DIRECTOR


def test_a_member_of_another_club_is_a_404_and_a_bad_role_a_400():
    world = make_world()
    theirs = Membership.objects.get(club=world.club_b, user=world.players["director_b"].user)
    staff = world.client("staff")
    missing = staff.patch(
        f"/api/v1/clubs/{world.club_a.id}/members/{theirs.id}/", {"role": "member"}, format="json"
    )
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_a_member"
    bad = staff.patch(
        f"/api/v1/clubs/{world.club_a.id}/members/{_member_a(world).id}/",
        {"role": "owner"},
        format="json",
    )
    assert bad.status_code == 400
    assert Membership.objects.get(pk=theirs.pk).role == Role.DIRECTOR
