"""A 30-player bot tournament runs to the end on real Celery workers (the test process only
plays beat: it enqueues the clock tick every two seconds)."""

from __future__ import annotations

import time

import pytest

from tests.e2e.workers import WorkerPool
from tests.tourney.tournaments import events, make_tournament, seated_chips
from tourney.models import Entry, Tournament
from tourney.services.commands.draw import tournament_start
from tourney.tasks import tournament_tick

pytestmark = pytest.mark.e2e

TIMEOUT_SECONDS = 300


def test_thirty_bots_play_to_the_end_on_real_workers(celery_workers: WorkerPool) -> None:
    celery_workers.start()
    celery_workers.start()
    tournament = make_tournament(players=30, minute_seconds=1)
    tournament_start(tournament_id=tournament.id)
    deadline = time.monotonic() + TIMEOUT_SECONDS
    while Tournament.objects.get(pk=tournament.pk).status != "finished":
        assert time.monotonic() < deadline, "the tournament did not finish in time"
        tournament_tick.delay()
        time.sleep(2)
    tournament.refresh_from_db()
    entries = list(Entry.objects.filter(tournament=tournament))
    assert sum(e.prize for e in entries) == tournament.prize_pool == 3000
    assert sorted(e.place for e in entries)[0] == 1
    assert all(e.place is not None for e in entries)
    checks = events(tournament, "chips")
    assert checks and all(c["ok"] and c["in_play"] == 30_000 for c in checks)
    assert seated_chips(tournament) == 30_000
