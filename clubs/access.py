"""Who may do what in which club. Staff may do everything; a director acts only within
their own clubs; a member reads their clubs. Each helper answers from one query.

A club's things (its tournaments, tables, schedules) are seen by staff, by the club's
members, and by every signed-in player when the club is public (``Club.visibility``);
things of no club are the house's, seen by every signed-in player. Who sees a thing is
decided here once (``sees_club_q`` in querysets, ``can_see`` for one thing): the API's
permissions, the selectors and the web pages all ask these two. What a caller does not
see is a 404, as if it did not exist; what they see but may not do is a 403.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Q

from clubs.models import Club, Membership, Role, Visibility


def _user_id(user: Any) -> int | None:
    return user.pk if user is not None and user.is_authenticated else None


def is_staff(user: Any) -> bool:
    return bool(user is not None and user.is_authenticated and user.is_staff)


def directed_club_ids(user: Any) -> set[int]:
    """The clubs whose director ``user`` is."""
    return set(
        Membership.objects.filter(user_id=_user_id(user), role=Role.DIRECTOR).values_list(
            "club_id", flat=True
        )
    )


def member_club_ids(user: Any) -> set[int]:
    """The clubs ``user`` belongs to, in any role."""
    return set(Membership.objects.filter(user_id=_user_id(user)).values_list("club_id", flat=True))


def can_direct(user: Any, club_id: int | None) -> bool:
    """Staff, or the director of ``club_id`` (nobody but staff directs what has no club)."""
    if is_staff(user):
        return True
    if club_id is None or _user_id(user) is None:
        return False
    return Membership.objects.filter(
        user_id=_user_id(user), club_id=club_id, role=Role.DIRECTOR
    ).exists()


def can_read(user: Any, club_id: int) -> bool:
    """Staff, or any member of ``club_id``."""
    if is_staff(user):
        return True
    return Membership.objects.filter(user_id=_user_id(user), club_id=club_id).exists()


def sees_club_q(user: Any, club_field: str = "club") -> Q:
    """The rows whose club (``club_field``, a foreign key to Club) ``user`` sees: no club,
    a public club, or one of the caller's clubs (staff: every row). One SQL condition."""
    if is_staff(user):
        return Q()
    mine = Membership.objects.filter(user_id=_user_id(user)).values("club_id")
    return (
        Q(**{f"{club_field}__isnull": True})
        | Q(**{f"{club_field}__visibility": Visibility.PUBLIC})
        | Q(**{f"{club_field}__in": mine})
    )


def can_see(user: Any, club_id: int | None) -> bool:
    """Whether ``user`` sees the things of ``club_id`` (None: the house's, seen by all)."""
    if club_id is None or is_staff(user):
        return True
    seen = Q(visibility=Visibility.PUBLIC) | Q(memberships__user_id=_user_id(user))
    return Club.objects.filter(seen, pk=club_id).exists()


def is_member(user_id: int | None, club_id: int) -> bool:
    """Whether the account ``user_id`` belongs to ``club_id``, in any role."""
    return Membership.objects.filter(user_id=user_id, club_id=club_id).exists()


def can_serve(user: Any, club_id: int | None, player_id: int) -> bool:
    """Staff, or a director of ``club_id`` serving one of its members (the player's account
    in that club: its balance, postings and cashier). A club's director serves only their
    club's players."""
    if is_staff(user):
        return True
    if not can_direct(user, club_id):
        return False
    return Membership.objects.filter(club_id=club_id, user__player__id=player_id).exists()
