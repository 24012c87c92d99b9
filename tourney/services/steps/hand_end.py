"""A hand's end at a tournament table: must the tournament look before the next hand?

Most hands change nothing the tournament decides on: nobody busted, the clock runs on in
its level, no balancing move waits for this table, no hand-for-hand. Such a hand's end
touches only its own table, whose lock the settling transaction holds: the table deals on
at once, without the tournament's row or any other table. Otherwise the table holds after
its hand and the tournament's update pass is asked for (``tourney.services.update``).

Runs inside the settling transaction (the receiver of ``games.signals.hand_finished``); it
reads the tournament's row without locking it, so it never waits on an update in progress.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from games.models import HoldReason, Table
from tourney.models import Status, TournamentTable


def hand_end(table_id: int, now: datetime, *, busted: bool) -> int | None:
    """The tournament to update before the table's next hand (the table is then held), or
    None: not a tournament table, or nothing for the tournament to do (it deals on).
    ``busted``: a player at the table has no chips left (they are eliminated before the next
    hand; the settling hand knows its seats)."""
    row = (
        TournamentTable.objects.filter(table_id=table_id)
        .values(
            "tournament_id",
            "look_after_hand",
            "tournament__status",
            "tournament__hand_for_hand",
            "tournament__level_ends_at",
            "tournament__break_pending_minutes",
            "tournament__break_ends_at",
        )
        .first()
    )
    if row is None:
        return None
    if not busted and not _clock_or_plan_waits(row, now):
        return None
    Table.objects.filter(pk=table_id).update(hold_reason=HoldReason.AFTER_HAND)
    tournament_id: int = row["tournament_id"]
    return tournament_id


def _clock_or_plan_waits(row: dict[str, Any], now: datetime) -> bool:
    """The last update pass asked to see the table after this hand (a move waits for it), or
    the tournament is not simply running in a level: paused or over, hand-for-hand, a break
    called, or the level's deadline passed (the next hand deals the new stakes)."""
    ends_at = row["tournament__level_ends_at"]
    return (
        row["look_after_hand"]
        or row["tournament__status"] != Status.RUNNING
        or row["tournament__hand_for_hand"]
        or row["tournament__break_pending_minutes"] is not None
        or row["tournament__break_ends_at"] is not None
        or (ends_at is not None and ends_at <= now)
    )
