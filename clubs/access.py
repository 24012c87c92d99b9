"""Who may do what in which club. Staff may do everything; a director acts only within
their own clubs; a member reads their clubs. Each helper answers from one query."""

from __future__ import annotations

from typing import Any

from clubs.models import Membership, Role


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
