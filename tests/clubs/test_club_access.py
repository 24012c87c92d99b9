"""Club roles: staff direct everything, a director only their own club, a member reads."""

import pytest
from django.contrib.auth.models import AnonymousUser, User

from clubs.access import can_direct, can_read, directed_club_ids, member_club_ids
from clubs.models import Club, Membership, Role

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_clubs() -> dict[str, object]:
    a, b = Club.objects.create(name="A"), Club.objects.create(name="B")
    director = User.objects.create_user("dir-a")
    member = User.objects.create_user("mem-a")
    Membership.objects.create(club=a, user=director, role=Role.DIRECTOR)
    Membership.objects.create(club=a, user=member, role=Role.MEMBER)
    staff = User.objects.create_user("staff", is_staff=True)
    return {"a": a, "b": b, "director": director, "member": member, "staff": staff}


def test_a_director_directs_only_their_own_club(two_clubs: dict) -> None:
    a, b, director = two_clubs["a"], two_clubs["b"], two_clubs["director"]
    assert can_direct(director, a.pk)
    assert not can_direct(director, b.pk)
    assert not can_direct(director, None)
    assert directed_club_ids(director) == {a.pk}


def test_a_member_reads_but_does_not_direct(two_clubs: dict) -> None:
    a, b, member = two_clubs["a"], two_clubs["b"], two_clubs["member"]
    assert can_read(member, a.pk) and not can_read(member, b.pk)
    assert not can_direct(member, a.pk)
    assert member_club_ids(member) == {a.pk}


def test_staff_do_everything_and_anonymous_nothing(two_clubs: dict) -> None:
    b = two_clubs["b"]
    assert can_direct(two_clubs["staff"], b.pk) and can_direct(two_clubs["staff"], None)
    assert can_read(two_clubs["staff"], b.pk)
    assert not can_direct(AnonymousUser(), b.pk) and not can_read(AnonymousUser(), b.pk)
    assert directed_club_ids(AnonymousUser()) == set()
