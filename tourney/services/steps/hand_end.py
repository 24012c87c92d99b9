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
    hand; the settling hand knows its seats). One statement, which holds the table if it
    must and says for which tournament: a bust's end costs one round trip, not a read and
    then a write."""
    held = rows.select(
        _hold_sql(connection.vendor),
        [
            HoldReason.AFTER_HAND,
            table_id,
            busted,
            Status.RUNNING,
            connection.ops.adapt_datetimefield_value(now),
        ],
    )
    return int(held[0][0]) if held else None


@cache
def _hold_sql(vendor: str) -> str:
    """Hold the table if it is a tournament's and the tournament must look at its hand: a
    player busted, the last update pass asked to see the table after this hand (a move waits
    for it), or the tournament is not simply running in a level: paused or over,
    hand-for-hand, a break called, or the level's deadline passed (the next hand deals the
    new stakes); returns the tournament's id, no row if not held. Built once: it runs at
    every tournament hand's end, where the ORM's compiling cost more than the database's
    answer. (``UPDATE ... RETURNING``: PostgreSQL, and SQLite from 3.35.)"""
    table, links, tournaments = (
        Table._meta.db_table,
        TournamentTable._meta.db_table,
        Tournament._meta.db_table,
    )
    return (
        f"UPDATE {table} SET hold_reason = %s WHERE id = %s AND EXISTS (SELECT 1"
        f" FROM {links} tt JOIN {tournaments} t ON t.id = tt.tournament_id"
        f" WHERE tt.table_id = {table}.id AND (%s OR tt.look_after_hand OR t.status <> %s"
        " OR t.hand_for_hand OR t.break_pending_minutes IS NOT NULL"
        " OR t.break_ends_at IS NOT NULL"
        " OR (t.level_ends_at IS NOT NULL AND t.level_ends_at <= %s)))"
        f" RETURNING (SELECT tt.tournament_id FROM {links} tt WHERE tt.table_id = {table}.id)"
    )
