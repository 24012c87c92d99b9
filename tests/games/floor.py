"""Helpers of the floor tests (no tests here): games, seated players, the list's state."""

from __future__ import annotations

from typing import Any

from games.models import EntryStatus, Game, Offer, OfferStatus, Player, Seat, Table, WaitEntry
from games.services import offers
from games.services.floor_tables import game_create
from games.services.seating import seat_sit
from tests.games.factories import make_player

BUY_IN = 100


def make_game(**overrides: Any) -> Game:
    """An online stud_hi 1/2/5/10 game, one 4-seat table, buy-in 50..1000, 60 s offers."""
    fields: dict[str, Any] = {
        "name": "Stud 5/10",
        "variant": "stud_hi",
        "ante": 1,
        "bring_in": 2,
        "small_bet": 5,
        "big_bet": 10,
        "seat_count": 4,
        "buy_in_min": 50,
        "buy_in_max": 1000,
        "offer_seconds": 60,
        "table_options": {"pause_ms": 0},
    }
    fields.update(overrides)
    return game_create(**fields)


def tables_of(game: Game) -> list[Table]:
    return list(Table.objects.filter(game_table__game=game).order_by("id"))


def fill_table(table: Table, count: int | None = None, *, prefix: str = "p") -> list[Player]:
    """Seat players in the table's first ``count`` seats (all by default)."""
    players = []
    for number in range(1, (count or table.seat_count) + 1):
        player = make_player(f"{prefix}{table.id}s{number}")
        seat_sit(table_id=table.id, player=player, seat_number=number, buy_in=BUY_IN)
        players.append(player)
    return players


def fill(game: Game) -> offers.FillResult:
    """What the worker does after a change commits."""
    return offers.game_fill(game_id=game.id)


def waiting(game: Game) -> list[WaitEntry]:
    return list(game.entries.filter(status=EntryStatus.WAITING).order_by("rank"))


def pending_offers(game: Game) -> list[Offer]:
    return list(Offer.objects.filter(game=game, status=OfferStatus.PENDING).order_by("id"))


def seated_ids(game: Game) -> list[int]:
    return list(
        Seat.objects.filter(table__game_table__game=game, player__isnull=False).values_list(
            "player_id", flat=True
        )
    )
