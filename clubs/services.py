"""Creating clubs and adding their members."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from clubs.codes import Code
from clubs.errors import ClubConflict, ClubNotFound
from clubs.models import Club, Membership, Role, Visibility


def club_create(*, name: str, visibility: str = Visibility.MEMBERS) -> Club:
    """A new club (staff); its directors are added as members with the director role."""
    if Club.objects.filter(name__iexact=name).exists():
        raise ClubConflict(
            _("a club named %(name)s exists already: choose another name") % {"name": repr(name)},
            code=Code.NAME_TAKEN,
        )
    return Club.objects.create(name=name, visibility=visibility)


def club_update(*, club: Club, visibility: str) -> Club:
    """Who sees the club's tournaments and tables (its directors choose)."""
    club.visibility = visibility
    club.save(update_fields=["visibility"])
    return club


def member_add(*, club_id: int, username: str, role: str = Role.MEMBER) -> Membership:
    """Add the account ``username`` to the club with ``role``; an account is in a club once
    (409 if it is already a member: nothing changes)."""
    user = get_user_model().objects.filter(username=username).first()
    if user is None:
        raise ClubNotFound(
            _("no account %(username)s: create the player first (POST /api/v1/players/)")
            % {"username": repr(username)},
            code=Code.NO_ACCOUNT,
        )
    if Membership.objects.filter(club_id=club_id, user=user).exists():
        raise ClubConflict(
            _("%(username)s is already a member of this club") % {"username": username},
            code=Code.ALREADY_MEMBER,
        )
    try:
        with transaction.atomic():
            return Membership.objects.create(club_id=club_id, user=user, role=role)
    except IntegrityError as error:  # added at the same moment by another request
        raise ClubConflict(
            _("%(username)s is already a member of this club") % {"username": username},
            code=Code.ALREADY_MEMBER,
        ) from error
