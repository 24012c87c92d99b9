"""Who may call what: staff-only endpoints, and the caller's player profile."""

from __future__ import annotations

from django.utils.translation import gettext as _
from rest_framework.permissions import BasePermission, IsAuthenticated
from rest_framework.request import Request
from rest_framework.views import APIView

from games import selectors
from games.codes import Code
from games.errors import Forbidden
from games.models import Player


class IsStaff(BasePermission):
    """Staff accounts only (Django's ``is_staff``); others get 403, anonymous callers 401."""

    message = "only staff can do this"

    def has_permission(self, request: Request, view: APIView) -> bool:
        return bool(request.user and request.user.is_authenticated and request.user.is_staff)


def caller_player(request: Request) -> Player | None:
    """The caller's player profile, or None (e.g. a staff account made by createsuperuser).
    A token caller's profile came with the token (``games.api.authentication``)."""
    user = request.user
    if not user.is_authenticated:
        return None
    try:
        player: Player = user.player
    except Player.DoesNotExist:
        return None
    return player


def require_player(request: Request) -> Player:
    """The caller's player profile; a 403 for accounts that have none."""
    player = caller_player(request)
    if player is None:
        raise Forbidden(
            _("this account has no player profile: staff create players at /api/v1/players/"),
            code=Code.NO_PLAYER,
        )
    return player


class SeesTable(BasePermission):
    """The table of ``table_id`` in the path is one the caller sees (``clubs.access``):
    404 otherwise, as for a table that does not exist."""

    def has_permission(self, request: Request, view: APIView) -> bool:
        selectors.table_seen_check(request.user, view.kwargs["table_id"])
        return True


class SeesHand(BasePermission):
    """The hand of ``hand_id`` in the path is at a table the caller sees (404 otherwise)."""

    def has_permission(self, request: Request, view: APIView) -> bool:
        selectors.hand_seen_check(request.user, view.kwargs["hand_id"])
        return True


class ReadsHandRecord(BasePermission):
    """A hand's history and proofs: the players dealt in, the directors of the table's club
    and staff (403 for others who see the table, 404 for those who do not)."""

    def has_permission(self, request: Request, view: APIView) -> bool:
        selectors.hand_record_check(request.user, view.kwargs["hand_id"])
        return True


def seen_first(view: APIView, seen: BasePermission) -> list[BasePermission]:
    """The view's permissions in the order of the answers: signed in (401), sees the object
    (404), then what the view itself asks (403)."""
    return [IsAuthenticated(), seen, *APIView.get_permissions(view)]
