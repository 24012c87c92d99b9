"""Who may call what: staff-only endpoints, and the caller's player profile."""

from __future__ import annotations

from rest_framework.permissions import BasePermission
from rest_framework.request import Request
from rest_framework.views import APIView

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
            "this account has no player profile: staff create players at /api/v1/players/",
            code=Code.NO_PLAYER,
        )
    return player
