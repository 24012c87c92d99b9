"""Reading clubs, scoped by the caller in the query itself: a club the caller may not read
is a 404, as if it did not exist (nobody learns which ids exist)."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.utils.translation import gettext as _
from rest_framework.exceptions import PermissionDenied

from clubs.access import can_direct, is_staff
from clubs.errors import ClubNotFound
from clubs.models import Club, Membership


def clubs_visible(user: Any) -> QuerySet[Club]:
    """Every club for staff; the caller's own clubs for anyone else."""
    clubs = Club.objects.order_by("id")
    if is_staff(user):
        return clubs
    return clubs.filter(memberships__user_id=user.pk).distinct()


def club_get(user: Any, club_id: int, *, direct: bool = False) -> Club:
    """The club if ``user`` may read it (404 otherwise); with ``direct``, a member who is
    not its director gets a 403."""
    club = clubs_visible(user).filter(pk=club_id).first()
    if club is None:
        raise ClubNotFound(_("no club %(club_id)s among your clubs") % {"club_id": club_id})
    if direct and not can_direct(user, club.id):
        raise PermissionDenied("only staff or a director of this club can do this")
    return club


def members_list(club: Club) -> QuerySet[Membership]:
    return club.memberships.select_related("user").order_by("id")
