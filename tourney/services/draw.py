"""Starting a tournament: the logged two-step random draw and the opening of its tables.

The draw is reproducible from its logged seed (``draw_seats`` with the logged entry ids):
step 1 shuffles the entries; step 2 shuffles the seat numbers of each table and deals the
shuffled entries round-robin into the tables, each table filling its seats in its shuffled
order. Round-robin keeps the tables within one player of each other.
"""

from __future__ import annotations

import math
import secrets
from collections.abc import Sequence

from django.db import transaction
from django.utils import timezone

from games.engine.fairness import SeededShuffler
from games.errors import Conflict
from games.services import schedule
from tourney.models import EntryStatus, Status, Tournament
from tourney.services.clock import clock_start
from tourney.services.locks import tournament_for_update
from tourney.services.log import event_append
from tourney.services.seating import seat_take, table_open


def draw_seats(
    entry_ids: Sequence[int], *, table_size: int, seed: bytes
) -> list[tuple[int, int, int]]:
    """``(entry id, table number, seat number)`` for each entry, from the seed alone."""
    rng = SeededShuffler(seed)
    order = list(entry_ids)
    rng.shuffle(order)
    table_count = math.ceil(len(order) / table_size)
    seat_orders = []
    for _ in range(table_count):
        seats = list(range(1, table_size + 1))
        rng.shuffle(seats)
        seat_orders.append(seats)
    return [
        (entry_id, i % table_count + 1, seat_orders[i % table_count][i // table_count])
        for i, entry_id in enumerate(order)
    ]


def tournament_start(*, tournament_id: int) -> Tournament:
    """Close registration, draw the seats, open the tables and start the clock (staff)."""
    from tourney.services.update import tournament_refresh

    with transaction.atomic():
        tournament = tournament_for_update(tournament_id)
        if tournament.status != Status.REGISTERING:
            raise Conflict(f"the tournament is already {tournament.status}", code="already_started")
        entries = list(tournament.entries.filter(status=EntryStatus.REGISTERED).order_by("id"))
        if len(entries) < 2:
            raise Conflict(
                f"{len(entries)} registered: a tournament needs at least 2 players",
                code="not_enough_players",
            )
        seed = secrets.token_bytes(32)
        seating = draw_seats([e.id for e in entries], table_size=tournament.table_size, seed=seed)
        now = timezone.now()
        tournament.status = Status.RUNNING
        tournament.started_at = now
        tournament.draw_seed = seed.hex()
        clock_start(tournament, now)
        tournament.save()
        by_id = {entry.id: entry for entry in entries}
        tables = {}
        for number in sorted({table for _, table, _ in seating}):
            tables[number] = table_open(tournament)
        for entry_id, number, seat in seating:
            entry = by_id[entry_id]
            seat_take(
                tables[number],
                number=seat,
                player_id=entry.player_id,
                stack=tournament.starting_stack,
                why="draw",
            )
        tournament.entries.filter(pk__in=list(by_id)).update(status=EntryStatus.PLAYING)
        event_append(
            tournament,
            "draw",
            {
                "seed": seed.hex(),
                "entries": [e.id for e in entries],
                "table_size": tournament.table_size,
                "seats": [list(row) for row in seating],
            },
        )
        tournament_refresh(tournament, now=now)
        for locked in tables.values():
            schedule.advance_now(locked.table.id)  # a held table (live) just says so
        return tournament
