"""The signed-in user's player profile, for the player's pages."""

from __future__ import annotations

from django.http import HttpRequest
from django.utils.translation import gettext as _

from games.errors import Forbidden
from games.models import Player
from web.codes import Code


def player_of(request: HttpRequest) -> Player | None:
    """The signed-in user's player, or None (staff accounts may have none)."""
    return Player.objects.filter(user_id=request.user.pk).first()


def player_required(request: HttpRequest) -> Player:
    """The signed-in user's player, or a 403 saying how to get one."""
    player = player_of(request)
    if player is None:
        raise Forbidden(
            _("this account has no player profile: ask staff to create one for you"),
            code=Code.NO_PLAYER,
        )
    return player
