"""Starting a tournament: the logged two-step random draw and the opening of its tables.

The draw is reproducible from its logged seed (``draw_seats`` with the logged entry ids):
step 1 shuffles the entries; step 2 shuffles the seat numbers of each table and deals the
shuffled entries round-robin into the tables, each table filling its seats in its shuffled
order. Round-robin keeps the tables within one player of each other.
"""

from __future__ import annotations

import logging
import math
import secrets
from collections.abc import Sequence

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from games.engine.fairness import SeededShuffler
from games.errors import Conflict
from games.services import schedule
from tourney.codes import Code
from tourney.models import Entry, EntryStatus, Status, Tournament
from tourney.services.steps.clock import clock_start
from tourney.services.steps.locks import tournament_for_update
from tourney.services.steps.log import event_append
from tourney.services.steps.seating import seat_take, table_open
from tourney.services.update import tournament_refresh

logger = logging.getLogger(__name__)

MIN_PLAYERS = 2


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
    with transaction.atomic():
        tournament = tournament_for_update(tournament_id)
        if tournament.status != Status.REGISTERING:
            raise Conflict(
                gettext("the tournament is already %(status)s")
                % {"status": tournament.get_status_display()},
                code=Code.ALREADY_STARTED,
            )
        entries = _registered(tournament)
        if len(entries) < MIN_PLAYERS:
            raise Conflict(
                gettext("%(count)s registered: a tournament needs at least %(MIN_PLAYERS)s players")
                % {"count": len(entries), "MIN_PLAYERS": MIN_PLAYERS},
                code=Code.NOT_ENOUGH_PLAYERS,
            )
        _start(tournament, entries)
        return tournament


def tournament_start_scheduled(*, tournament_id: int) -> bool:
    """The beat tick's start of a registering tournament whose ``scheduled_start`` has
    passed; True if it started. With fewer than two players registered it stays registering
    (logged once per scheduled start) and starts at a later tick once they are there."""
    with transaction.atomic():
        tournament = tournament_for_update(tournament_id)
        due = tournament.scheduled_start
        if tournament.status != Status.REGISTERING or due is None or due > timezone.now():
            return False
        entries = _registered(tournament)
        if len(entries) < MIN_PLAYERS:
            waiting = {"scheduled_start": due.isoformat(), "registered": len(entries)}
            if not tournament.events.filter(
                kind="start_waiting", data__scheduled_start=waiting["scheduled_start"]
            ).exists():
                event_append(tournament, "start_waiting", waiting)
                logger.warning(
                    "tournament %s: scheduled start %s passed with %s registered (at least %s "
                    "needed): it stays registering",
                    tournament.id,
                    waiting["scheduled_start"],
                    len(entries),
                    MIN_PLAYERS,
                )
            return False
        event_append(tournament, "scheduled_start", {"scheduled_start": due.isoformat()})
        logger.info("tournament %s: started at its scheduled start %s", tournament.id, due)
        _start(tournament, entries)
        return True


def _registered(tournament: Tournament) -> list[Entry]:
    return list(tournament.entries.filter(status=EntryStatus.REGISTERED).order_by("id"))


def _start(tournament: Tournament, entries: list[Entry]) -> None:
    """Draw the seats of ``entries``, open the tables and start the clock (locked)."""
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
            stack=tournament.starting_stack + entry.bonus_chips,
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
