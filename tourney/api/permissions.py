"""Who may see and run a tournament or a schedule: those who see its club's things
(``clubs.access``) see it, else it is a 404; staff, or a director of its club, run it,
else a 403."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from rest_framework.permissions import BasePermission
from rest_framework.request import Request
from rest_framework.views import APIView

from clubs.access import can_direct, is_staff
from games.errors import Invalid
from games.selectors import club_non_members
from tourney import selectors
from tourney.codes import Code
from tourney.models import Tournament


class SeesTournament(BasePermission):
    """The tournament of ``tournament_id`` in the path is one the caller sees (404 otherwise,
    as for one that does not exist)."""

    def has_permission(self, request: Request, view: APIView) -> bool:
        selectors.tournament_seen_get(request.user, view.kwargs["tournament_id"])
        return True


class IsTournamentDirector(BasePermission):
    """Staff, or a director of the tournament's club (``tournament_id`` in the path); asked
    after ``SeesTournament``, so a 403 tells nothing the caller could not see."""

    message = "only staff or a director of this tournament's club can do this"

    def has_permission(self, request: Request, view: APIView) -> bool:
        return can_run_tournament(request.user, view.kwargs.get("tournament_id"))


class SeesSchedule(BasePermission):
    """The schedule of ``schedule_id`` in the path is one the caller sees (404 otherwise)."""

    def has_permission(self, request: Request, view: APIView) -> bool:
        selectors.schedule_seen_get(request.user, view.kwargs["schedule_id"])
        return True


class DirectsSchedule(BasePermission):
    """Staff, or a director of the schedule's club (the house's schedules: staff)."""

    message = "only staff or a director of this schedule's club can change it"

    def has_permission(self, request: Request, view: APIView) -> bool:
        schedule = selectors.get_schedule(view.kwargs["schedule_id"])
        return can_direct(request.user, schedule.club_id)


def can_run_tournament(user: Any, tournament_id: int | None) -> bool:
    """Staff, or a director of the club of tournament ``tournament_id`` (False for a
    tournament that does not exist, or one without a club, unless staff)."""
    if not (user and user.is_authenticated):
        return False
    if is_staff(user):
        return True
    club_id = Tournament.objects.filter(pk=tournament_id).values_list("club_id", flat=True).first()
    return can_direct(user, club_id)


def club_players_check(tournament_id: int, player_ids: list[int]) -> None:
    """Whoever runs a tournament names only players who see it (a members-only club's: its
    members), so naming one gives them no more than they could do themselves: 400
    otherwise."""
    tournament = selectors.get_tournament(tournament_id)
    if tournament.club_id is None:
        return
    outside = club_non_members(tournament.club_id, player_ids)
    if outside and not selectors.tournament_public(tournament):
        raise Invalid(
            _(
                "player %(value)s is not a member of this tournament's club: a "
                "members-only club's tournament takes its members"
            )
            % {"value": outside[0]},
            code=Code.NOT_A_MEMBER,
            detail={"players": outside},
        )
