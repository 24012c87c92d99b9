"""Read paths of the ring-game floor: the games and their tables, and wait-list entries with
their position, estimated wait and offer."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from games.errors import NotFound
from games.models import (
    EntryStatus,
    Game,
    GameStatus,
    GameTable,
    Offer,
    OfferKind,
    OfferStatus,
    PendingTableStatus,
    Player,
    WaitEntry,
)

ESTIMATE_WINDOW = timedelta(hours=2)
"""Seats opened in this window set the pace the estimated wait is computed from."""


def get_game(game_id: int) -> Game:
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        raise NotFound(
            _("no game %(game_id)s: see the games at /api/v1/games/") % {"game_id": game_id}
        )
    return game


def running_games() -> QuerySet[Game]:
    """Running games, oldest first (each one's tables, seats and list: ``game_detail``)."""
    return Game.objects.filter(status=GameStatus.RUNNING).order_by("id")


def game_detail(game: Game) -> dict[str, Any]:
    links = (
        GameTable.objects.filter(game=game)
        .exclude(status=PendingTableStatus.CLOSED)
        .select_related("table", "game")
        .order_by("id")
    )
    held = set(
        Offer.objects.filter(game=game, status=OfferStatus.PENDING).values_list("table_id", "seat")
    )
    tables = []
    for link in links:
        table = link.table
        if table is None:
            continue
        seats = list(table.seats.values_list("number", "player_id"))
        free = [n for n, player in seats if player is None]
        tables.append(
            {
                "id": table.id,
                "name": table.name,
                "role": link.role,
                "status": link.status,
                "feeds": link.feeds.table_id if link.feeds else None,
                "variant": table.variant,
                "seated": len(seats) - len(free),
                "free_seats": [n for n in free if (table.id, n) not in held],
                "offered_seats": [n for n in free if (table.id, n) in held],
                "rotation": rotation_status(link),
            }
        )
    return {
        "id": game.id,
        "name": game.name,
        "mode": game.mode,
        "variant": game.variant,
        "ante": game.ante,
        "bring_in": game.bring_in,
        "small_bet": game.small_bet,
        "big_bet": game.big_bet,
        "buy_in_min": game.buy_in_min,
        "buy_in_max": game.buy_in_max,
        "offer_seconds": game.offer_seconds,
        "rotation": game.rotation,
        "list_length": game.entries.filter(status=EntryStatus.WAITING).count(),
        "table_proposed": any(link.status == PendingTableStatus.PROPOSED for link in links),
        "tables": tables,
    }


def rotation_status(link: GameTable) -> dict[str, Any] | None:
    """What the table deals now, what comes next and after how many more hands."""
    rotation = link.game.rotation
    if len(rotation) < 2:
        return None
    return {
        "variants": rotation,
        "current": rotation[link.rotation_index % len(rotation)],
        "next": rotation[(link.rotation_index + 1) % len(rotation)],
        "hands_left": link.rotation_length - link.rotation_hands if link.rotation_length else None,
    }


def entry_view(entry: WaitEntry) -> dict[str, Any]:
    """The entry, its place on the list, the estimated wait and the seat offered to it."""
    position = None
    if entry.status == EntryStatus.WAITING:
        position = (
            WaitEntry.objects.filter(
                game_id=entry.game_id, status=EntryStatus.WAITING, rank__lt=entry.rank
            ).count()
            + 1
        )
    offer = entry.offers.filter(status=OfferStatus.PENDING).first()
    return {
        "id": entry.id,
        "game": entry.game_id,
        "name": entry.name,
        "player": entry.player_id,
        "table": entry.table_id,
        "status": entry.status,
        "position": position,
        "misses": entry.misses,
        "estimated_wait_seconds": _estimated_wait(entry.game_id, position) if position else None,
        "offer": {"table": offer.table_id, "seat": offer.seat, "expires_at": offer.expires_at}
        if offer is not None
        else None,
        "created_at": entry.created_at,
    }


def _estimated_wait(game_id: int, position: int) -> int | None:
    """Position times the recent pace of seats opening to the list (None without history)."""
    since = timezone.now() - ESTIMATE_WINDOW
    opened = sorted(
        set(
            Offer.objects.filter(
                game_id=game_id, kind=OfferKind.LIST, opened_at__gte=since
            ).values_list("opened_at", flat=True)
        )
    )
    if len(opened) < 2:
        return None
    pace = (opened[-1] - opened[0]).total_seconds() / (len(opened) - 1)
    return round(pace * position)


def my_entries(player: Player) -> list[dict[str, Any]]:
    """The player's names waiting on lists."""
    entries = WaitEntry.objects.filter(player=player, status=EntryStatus.WAITING).order_by("id")
    return [entry_view(entry) for entry in entries]


def game_waitlist(game: Game) -> list[dict[str, Any]]:
    """The whole list in its order (staff)."""
    entries = game.entries.filter(status=EntryStatus.WAITING).order_by("rank")
    return [entry_view(entry) for entry in entries]


def games_needing_a_pass() -> list[int]:
    """Running games where the floor's pass may change something: an offer past its
    deadline, a move waiting, a name waiting while a seat is free or a table may open, or a
    short-handed clock to watch. The sweep passes over these only."""
    running = Game.objects.filter(status=GameStatus.RUNNING)
    pending = Offer.objects.filter(status=OfferStatus.PENDING)
    overdue = pending.filter(expires_at__lte=timezone.now())
    moves = pending.exclude(kind=OfferKind.LIST)
    waiting = running.filter(entries__status=EntryStatus.WAITING)
    seat_free = waiting.filter(
        game_tables__status=PendingTableStatus.OPEN,
        game_tables__table__seats__player__isnull=True,
    )
    ids = (
        set(overdue.values_list("game_id", flat=True))
        | set(moves.values_list("game_id", flat=True))
        | set(seat_free.values_list("id", flat=True))
        | set(waiting.filter(open_at_list_length__gt=0).values_list("id", flat=True))
        | set(running.filter(short_players__gt=0).values_list("id", flat=True))
    )
    return sorted(set(running.filter(pk__in=ids).values_list("id", flat=True)))
