"""Filters and tags of the web pages: chip amounts, clock times, places, the services' words
and cards, written as the page's language writes them (``web.numbers``, ``web.words``)."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils import translation
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext

from web.cards import card_face
from web.games import game_name
from web.numbers import whole, with_digits
from web.words import word as service_word

register = template.Library()

DEAL_METHODS = {"icm": "ICM", "chip_chop": _("Chip chop"), "custom": _("agreed amounts")}
"""The methods of a deal as people read them (``tourney.services.commands.deals``)."""


@register.filter
def chips(amount: int | None) -> str:
    """12345 -> "12,345" (no decimals: every amount is whole chips; grouped and with the
    digits of the page's language)."""
    return "" if amount in (None, "") else whole(int(amount))


@register.filter
def number(value: Any) -> str:
    """A count or a number (level, seat, players left) with the page's digits."""
    return "" if value in (None, "") else with_digits(str(value))


@register.filter
def clock(ms: int | None) -> str:
    """Milliseconds left -> "m:ss" or "h:mm:ss", rounded up like a countdown."""
    if ms is None:
        return "--:--"
    seconds = max(0, -(-int(ms) // 1000))
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return with_digits(f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}")


@register.filter
def deal_method(method: str) -> str:
    """ "icm" -> "ICM"."""
    return str(DEAL_METHODS.get(method, method))


@register.filter
def game(variant: str) -> str:
    """ "stud_8" -> "Stud Hi-Lo (8 or better)"."""
    return str(game_name(variant))


@register.filter
def word(code: str) -> str:
    """A service's code as the page's word: "paused" -> "paused" / "σε παύση" / "متوقفة"."""
    return service_word(code)


@register.filter
def ordinal(n: int) -> str:
    """A place: "1st" in English, "1η" in Greek, "المركز 1" in Arabic."""
    if translation.get_language() in (None, "en"):
        suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
        return f"{n}{suffix}"
    return pgettext("a place in a tournament", "%(place)s.") % {"place": with_digits(str(n))}


@register.inclusion_tag("web/play/card.html")
def card(code: str, down: bool = False) -> dict[str, Any]:
    """One card, drawn with rank and suit, marked when it is a down card."""
    return {"card": card_face(code, down=down)}
