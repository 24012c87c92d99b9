"""Creating clubs, adding their members, setting their roles and removing them."""

from __future__ import annotations

from typing import Any

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


def _membership(club_id: int, member_id: int) -> Membership:
    member = Membership.objects.select_related("user").filter(pk=member_id, club_id=club_id).first()
    if member is None:
        raise ClubNotFound(
            _("no member %(id)s in this club: pick one from the club's members")
            % {"id": member_id},
            code=Code.NOT_A_MEMBER,
        )
    return member


def _not_self(member: Membership, by: Any) -> None:
    """A director who demotes or removes themselves would lose the club: another director
    or staff does it (staff may, they keep every club)."""
    if member.user_id == by.pk and not by.is_staff:
        raise ClubConflict(
            _("you cannot change your own role or remove yourself: ask another director or staff"),
            code=Code.OWN_ROLE,
        )


def member_role_set(*, club_id: int, member_id: int, role: str, by: Any) -> Membership:
    """Give the member ``member_id`` of the club the role ``role`` (the caller, ``by``,
    directs the club: checked by the caller)."""
    member = _membership(club_id, member_id)
    if member.role != role:
        _not_self(member, by)
        member.role = role
        member.save(update_fields=["role"])
    return member


def member_remove(*, club_id: int, member_id: int, by: Any) -> None:
    """Take the member ``member_id`` out of the club (their account and money stay)."""
    member = _membership(club_id, member_id)
    _not_self(member, by)
    member.delete()
