"""Who may run a tournament: staff, or a director of the club the tournament belongs to."""

from __future__ import annotations

from typing import Any

from rest_framework.permissions import BasePermission
from rest_framework.request import Request
from rest_framework.views import APIView

from clubs.access import can_direct
from tourney.models import Tournament


class IsTournamentDirector(BasePermission):
    """Staff, or a director of the tournament's club (``tournament_id`` in the path).

    A tournament that doesn't exist answers like one the caller may not direct (403), so
    nobody learns which ids exist; anonymous callers get 401.
    """

    message = "only staff or a director of this tournament's club can do this"

    def has_permission(self, request: Request, view: APIView) -> bool:
        return can_run_tournament(request.user, view.kwargs.get("tournament_id"))


def can_run_tournament(user: Any, tournament_id: int | None) -> bool:
    """Staff, or a director of the club of tournament ``tournament_id`` (False for a
    tournament that does not exist, or one without a club, unless staff)."""
    if not (user and user.is_authenticated):
        return False
    if user.is_staff:
        return True
    club_id = Tournament.objects.filter(pk=tournament_id).values_list("club_id", flat=True).first()
    return can_direct(user, club_id)
