"""Factories for the tables side: players, bots and tables, through the real services."""

from __future__ import annotations

from itertools import count
from typing import Any

from django.contrib.auth import get_user_model

from clubs.models import Club
from games.models import Player, Table
from games.services.seating import seat_sit
from games.services.tables import table_create
from money.ledger import Ref, Transfer, cash_desk, player_account, post
from money.models import Reason

_numbers = count(1)


FUNDS = 1_000_000
"""What a test player has to buy in with, site-wide and in every club (see conftest)."""


def make_player(
    name: str | None = None, *, bot: str = "", staff: bool = False, funds: int = FUNDS
) -> Player:
    """A user with a player profile (password 'pw') and ``funds`` deposited."""
    n = next(_numbers)
    username = name or f"player{n}"
    user = get_user_model().objects.create_user(username=username, password="pw", is_staff=staff)
    player = Player.objects.create(user=user, display_name=username.title(), bot=bot)
    if funds:
        for club_id in [None, *Club.objects.values_list("id", flat=True)]:
            fund(player.id, funds, club_id)
    return player


def fund_club_players(club_id: int) -> None:
    """Fund every player in a new club's accounts, as they are funded site-wide (tests
    register players in club tournaments without a trip to each club's cashier)."""
    for player_id in Player.objects.values_list("id", flat=True):
        fund(player_id, FUNDS, club_id)


def fund(player_id: int, amount: int, club_id: int | None = None) -> None:
    """Deposit ``amount`` in a player's account (as the cashier would)."""
    post(
        [Transfer(cash_desk(club_id), player_account(player_id, club_id), amount)],
        reason=Reason.DEPOSIT,
        ref=Ref("player", player_id),
    )


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


def seat_players(table: Table, players: list[Player], buy_in: int) -> None:
    """Seat the players in seats 1..n (bots by staff)."""
    for number, player in enumerate(players, start=1):
        seat_sit(
            table_id=table.id,
            player=player,
            seat_number=number,
            buy_in=buy_in,
            by_staff=player.is_bot,
        )
