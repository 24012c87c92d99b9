"""The chip count: the chips on the seats against every chip put in play."""

from __future__ import annotations

import logging

from django.db.models import Sum

from games.models import Seat
from tourney.models import EntryStatus, Mode, Tournament
from tourney.services.steps.log import event_append

logger = logging.getLogger(__name__)


def chips_in_play(tournament: Tournament) -> int:
    """The chips on the tournament's seats (a hand in progress keeps its starting stacks on
    the seats until it is settled, so this never counts a pot twice or misses one)."""
    seats = Seat.objects.filter(table__tournament_table__tournament=tournament)
    return seats.aggregate(total=Sum("stack"))["total"] or 0


def chips_expected(tournament: Tournament) -> int:
    """Every chip put in play: starting stacks, rebuys and add-ons of the seated entries,
    and what the director put in or took out (chip races, disqualifications, corrections)."""
    seated = tournament.entries.filter(
        status__in=[EntryStatus.PLAYING, EntryStatus.ELIMINATED, EntryStatus.WINNER]
    )
    totals = seated.aggregate(
        rebuys=Sum("rebuys"), add_ons=Sum("add_ons"), bonus=Sum("bonus_chips")
    )
    return (
        seated.count() * tournament.starting_stack
        + (totals["bonus"] or 0)
        + (totals["rebuys"] or 0) * tournament.rebuy_chips
        + (totals["add_ons"] or 0) * tournament.add_on_chips
        + tournament.chips_adjusted
    )


def chips_check(tournament: Tournament) -> bool:
    """Log the chip count (every level change and at the end); False if chips were lost
    or made. Live counts are staff's, so only online tournaments must balance."""
    in_play, expected = chips_in_play(tournament), chips_expected(tournament)
    ok = in_play == expected or tournament.mode == Mode.LIVE
    event_append(
        tournament,
        "chips",
        {"level_index": tournament.level_index, "in_play": in_play, "expected": expected, "ok": ok},
    )
    if not ok:
        logger.error(
            "tournament %s: %s chips in play, %s expected", tournament.id, in_play, expected
        )
    return ok
