"""Filters and tags of the web pages: chip amounts, clock times, places and cards."""

from __future__ import annotations

from typing import Any

from django import template

from web.cards import card_face
from web.games import game_name

register = template.Library()

DEAL_METHODS = {"icm": "ICM", "chip_chop": "Chip chop", "custom": "agreed amounts"}
"""The methods of a deal as people read them (``tourney.services.commands.deals``)."""


@register.filter
def chips(amount: int | None) -> str:
    """12345 -> "12,345" (no decimals: every amount is whole chips)."""
    return "" if amount in (None, "") else f"{int(amount):,}"


@register.filter
def clock(ms: int | None) -> str:
    """Milliseconds left -> "m:ss" or "h:mm:ss", rounded up like a countdown."""
    if ms is None:
        return "--:--"
    seconds = max(0, -(-int(ms) // 1000))
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


@register.filter
def deal_method(method: str) -> str:
    """ "icm" -> "ICM"."""
    return DEAL_METHODS.get(method, method)


@register.filter
def game(variant: str) -> str:
    """ "stud_8" -> "Seven Card Stud Hi-Lo"."""
    return game_name(variant)


@register.filter
def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


@register.inclusion_tag("web/play/card.html")
def card(code: str, down: bool = False) -> dict[str, Any]:
    """One card, drawn with rank and suit, marked when it is a down card."""
    return {"card": card_face(code, down=down)}
