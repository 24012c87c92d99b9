"""A player's profile: the name they are shown by at the tables."""

from __future__ import annotations

from django.utils.translation import gettext as _

from games.errors import Invalid
from games.models import Player

DISPLAY_NAME_MAX = 40


def player_update(*, player: Player, display_name: str) -> Player:
    """Change the name a player is shown by at the tables (staff only, checked by the
    caller); the username, which signs in, stays."""
    display_name = display_name.strip()
    if not 1 <= len(display_name) <= DISPLAY_NAME_MAX:
        raise Invalid(
            _("the display name must be 1 to %(max)s characters") % {"max": DISPLAY_NAME_MAX}
        )
    player.display_name = display_name
    player.save(update_fields=["display_name"])
    return player
