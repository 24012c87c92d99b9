"""Factories for the tables side: players, bots and tables, through the real services."""

from __future__ import annotations

from itertools import count
from typing import Any

from django.contrib.auth import get_user_model

from games.models import Player, Table
from games.services.tables import table_create

_numbers = count(1)


def make_player(name: str | None = None, *, bot: str = "", staff: bool = False) -> Player:
    """A user with a player profile (password 'pw')."""
    n = next(_numbers)
    username = name or f"player{n}"
    user = get_user_model().objects.create_user(username=username, password="pw", is_staff=staff)
    return Player.objects.create(user=user, display_name=username.title(), bot=bot)


def make_table(**overrides: Any) -> Table:
    """A ring table: stud_hi 1/2/5/10, 8 seats, buy-in 50..1000, bots allowed."""
    fields: dict[str, Any] = {
        "name": f"Table {next(_numbers)}",
        "variant": "stud_hi",
        "ante": 1,
        "bring_in": 2,
        "small_bet": 5,
        "big_bet": 10,
        "buy_in_min": 50,
        "buy_in_max": 1000,
        "allow_bots": True,
        "pause_ms": 0,
    }
    fields.update(overrides)
    return table_create(**fields)
