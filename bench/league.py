"""A season of 50 events x 100 players: the cost of entering an event (points and the
incremental standings) and of recomputing the standings from scratch.

Run ``python -m bench.league`` for a JSON report. It creates a throwaway test database on the
configured server (SQLite by default, PostgreSQL with DATABASE_URL) and drops it afterwards.
"""

from __future__ import annotations

import json
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Sequence
from datetime import date, timedelta
from typing import Any

EVENTS = 50
PLAYERS = 100
RUNS = 5


def run(events: int = EVENTS, players: int = PLAYERS) -> dict[str, Any]:
    from django.db import connection, transaction

    from clubs.models import Club
    from games.services.players import player_create
    from leagues.models import League, Season
    from leagues.services.events import event_enter_live
    from leagues.services.seasons import season_create
    from leagues.services.standings import season_recompute

    club = Club.objects.create(name="Bench club")
    league = League.objects.create(club=club, name="Bench league")
    season = season_create(
        league=league,
        name="Bench season",
        starts_on=date(2026, 1, 1),
        ends_on=date(2026, 12, 31),
        formula="pokerstars",
        events_planned=events,
        best_of=events * 4 // 5,
        league_fee=5,
    )
    ids = [
        player_create(username=f"bench-{n}", password=None, display_name=f"B{n}", bot="rules").id
        for n in range(players)
    ]
    rng = random.Random(7)
    entry_ms = []
    for number in range(events):
        order = ids[:]
        rng.shuffle(order)
        results = [
            {
                "player": player,
                "place": place,
                "prize": 1000 // place if place <= 10 else 0,
                "knockouts": rng.choice([0, 0, 1, 2]) if place > 1 else 0,
            }
            for place, player in enumerate(order, start=1)
        ]
        started = time.perf_counter()
        with transaction.atomic():
            locked = Season.objects.select_for_update().get(pk=season.pk)
            event_enter_live(
                season=locked,
                name=f"Event {number}",
                played_on=date(2026, 1, 1) + timedelta(days=7 * number % 360),
                results=results,
                buy_in=50,
            )
        entry_ms.append((time.perf_counter() - started) * 1000)
    recompute_ms = []
    for _ in range(RUNS):
        started = time.perf_counter()
        with transaction.atomic():
            season_recompute(Season.objects.select_for_update().get(pk=season.pk))
        recompute_ms.append((time.perf_counter() - started) * 1000)
    return {
        "benchmark": "league standings",
        "database": connection.vendor,
        "events": events,
        "players": players,
        "results": events * players,
        "enter_event_ms": {
            "median": round(statistics.median(entry_ms), 1),
            "max": round(max(entry_ms), 1),
        },
        "recompute_ms": {
            "median": round(statistics.median(recompute_ms), 1),
            "max": round(max(recompute_ms), 1),
        },
        "python": platform.python_version(),
        "cpus": os.cpu_count(),
    }


def main(argv: Sequence[str] | None = None) -> int:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.test.utils import setup_databases, teardown_databases

    databases = setup_databases(verbosity=0, interactive=False)
    try:
        print(json.dumps(run(), indent=2))
    finally:
        teardown_databases(databases, verbosity=0)
    return 0


if __name__ == "__main__":
    sys.exit(main())
