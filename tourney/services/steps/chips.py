"""The chip count: the chips on the seats against every chip put in play."""

from __future__ import annotations

import logging

from django.db.models import Sum

from games.models import Seat
from tourney.models import EntryStatus, Mode, Tournament
from tourney.selectors import live_uncounted
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
    """Log the chip count (every level change, at the end, after a live chip report); False
    if chips were lost or made. Live, the seats hold the director's counts: they are checked
    once they are a full count (``tourney.selectors.live_uncounted``: every player left counted
    since the last bust), and a mismatch is logged like an online one, for the director to
    resolve (a recount, or a correction with ``ruling_chips``). Before that there is nothing
    to check and nothing is logged."""
    if tournament.mode == Mode.LIVE and live_uncounted(tournament):
        return True
    in_play, expected = chips_in_play(tournament), chips_expected(tournament)
    ok = in_play == expected
    event_append(
        tournament,
        "chips",
        {"level_index": tournament.level_index, "in_play": in_play, "expected": expected, "ok": ok},
    )
    if not ok:
        logger.error(
            "tournament %s (%s): %s chips in play, %s expected (%+d)",
            tournament.id,
            tournament.mode,
            in_play,
            expected,
            in_play - expected,
        )
    return ok
