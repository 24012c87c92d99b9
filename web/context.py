"""What every page's template knows: the server's clock, the deck colours, the console link,
the digits of numbers (``web.numbers``)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from clubs.access import directed_club_ids
from web.numbers import digits_style
from web.views.common import server_now_ms


def page(request: HttpRequest) -> dict[str, Any]:
    user = getattr(request, "user", None)
    can_console = bool(
        user is not None and user.is_authenticated and (user.is_staff or directed_club_ids(user))
    )
    session = getattr(request, "session", None)
    return {
        "server_now_ms": server_now_ms(),
        "four_colour": bool(session and session.get("four_colour")),
        "can_console": can_console,
        "digits": digits_style(),
    }
