"""The floor listens to the tables: a seat taken or freed, a hand finished.

Receivers run inside the seating or settling transaction, with the table locked. They touch
only rows of that table's game that no lock orders before the table (entries, the table's
rotation) and hand the floor's pass (which locks the game first) to a worker after commit.
"""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from games.models import (
    EntryStatus,
    GameTable,
    Hand,
    Offer,
    OfferKind,
    OfferStatus,
    Seat,
    TableKind,
    WaitEntry,
)
from games.services import schedule
from games.services.floor_tables import rotation_step
from games.signals import hand_finished, seat_changed


def on_seat_changed(
    sender: object, *, table_id: int, player_id: int, taken: bool, **kwargs: Any
) -> None:
    """Someone sat down or got up at a game's table: whoever sat is off the game's list
    (nobody waits for a game they are seated in), and the floor calls the next name."""
    game_id = GameTable.objects.filter(table_id=table_id).values_list("game_id", flat=True).first()
    if game_id is None:
        return
    if taken:
        listed = WaitEntry.objects.filter(
            game_id=game_id, player_id=player_id, status=EntryStatus.WAITING
        )
        Offer.objects.filter(entry__in=listed, status=OfferStatus.PENDING).update(
            status=OfferStatus.WITHDRAWN, closed_at=timezone.now()
        )
        listed.update(status=EntryStatus.SEATED)
    schedule.floor_fill_now(game_id)


def on_hand_finished(
    sender: object, *, table_id: int, hand_id: int, kind: str, in_game: bool, **kwargs: Any
) -> None:
    """A hand ended at a game's table: rotate its game if due, then let the floor fill the
    seats the hand freed and carry out moves that waited for it. (A game's tables are ring
    tables: a tournament table's hand is none of the floor's business.)"""
    if kind != TableKind.RING or not in_game:
        return  # most ring tables are in no game: known from the table's read, no query
    link = GameTable.objects.select_related("game").filter(table_id=table_id).first()
    if link is None:
        return
    lineup = Hand.objects.values_list("lineup", flat=True).get(pk=hand_id)
    rotation_step(table_id=table_id, players=len(lineup))
    if _floor_has_work(link, table_id):
        schedule.floor_fill_now(link.game_id)


def _floor_has_work(link: GameTable, table_id: int) -> bool:
    """After a hand: a seat it freed to offer, a move waiting for it, or a short-handed
    clock to run (otherwise the floor's pass would change nothing)."""
    free = set(
        Seat.objects.filter(table_id=table_id, player__isnull=True).values_list("number", flat=True)
    )
    held = set(
        Offer.objects.filter(table_id=table_id, status=OfferStatus.PENDING).values_list(
            "seat", flat=True
        )
    )
    moves = Offer.objects.filter(game_id=link.game_id, status=OfferStatus.PENDING).exclude(
        kind=OfferKind.LIST
    )
    return bool(free - held) or bool(link.game.short_players) or moves.exists()


def connect() -> None:
    seat_changed.connect(on_seat_changed, dispatch_uid="floor-seat-changed")
    hand_finished.connect(on_hand_finished, dispatch_uid="floor-hand-finished")
