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
from functools import cache

from django.db import connection

from games import rows
from games.models import HoldReason, Table
from tourney.models import Status, Tournament, TournamentTable


def hand_end(table_id: int, now: datetime, *, busted: bool) -> int | None:
    """The tournament to update before the table's next hand (the table is then held), or
    None: not a tournament table, or nothing for the tournament to do (it deals on).
    ``busted``: a player at the table has no chips left (they are eliminated before the next
    hand; the settling hand knows its seats)."""
    found = rows.select(
        _looks_sql(connection.vendor),
        [Status.RUNNING, connection.ops.adapt_datetimefield_value(now), table_id],
    )
    if not found:
        return None
    tournament_id, waits = found[0]
    if not busted and not waits:
        return None
    Table.objects.filter(pk=table_id).update(hold_reason=HoldReason.AFTER_HAND)
    return int(tournament_id)


@cache
def _looks_sql(vendor: str) -> str:
    """The table's tournament, and whether the clock or the plan waits for the table's hand:
    the last update pass asked to see the table after this hand (a move waits for it), or
    the tournament is not simply running in a level: paused or over, hand-for-hand, a break
    called, or the level's deadline passed (the next hand deals the new stakes). Built once:
    it runs at every tournament hand's end, where the ORM's compiling cost more than the
    database's answer."""
    return (
        "SELECT tt.tournament_id, (tt.look_after_hand OR t.status <> %s OR t.hand_for_hand"
        " OR t.break_pending_minutes IS NOT NULL OR t.break_ends_at IS NOT NULL"
        " OR (t.level_ends_at IS NOT NULL AND t.level_ends_at <= %s))"
        f" FROM {TournamentTable._meta.db_table} tt"
        f" JOIN {Tournament._meta.db_table} t ON t.id = tt.tournament_id"
        " WHERE tt.table_id = %s"
    )
