"""``run_league`` end to end on real Celery workers: two short bot tournaments of a season,
each entering the season by itself when it finishes (in the worker, after tourney's
``tournament_finished``); the JSON shape of the issue, and standings equal to a recompute."""

from __future__ import annotations

import json
from decimal import Decimal
from io import StringIO

import pytest
from django.core.management import call_command

from leagues.models import EventResult, Season, Standing
from leagues.services.standings import season_recompute
from tests.e2e.workers import WorkerPool

pytestmark = pytest.mark.e2e


def test_run_league_plays_two_events_and_prints_the_standings(celery_workers: WorkerPool):
    celery_workers.start()
    celery_workers.start()
    out = StringIO()
    call_command(
        "run_league",
        "--events=2",
        "--players=6",
        "--formula=pokerstars",
        "--seed=1",
        "--json",
        "--workers=0",
        "--timeout=300",
        stdout=out,
        stderr=StringIO(),
    )
    report = json.loads(out.getvalue())
    assert set(report) == {"season", "formula", "events", "standings"}
    assert report["formula"] == "pokerstars"
    assert [event["entrants"] for event in report["events"]] == [6, 6]
    standings = report["standings"]
    assert len(standings) == 6
    assert set(standings[0]) == {"player", "rank", "points", "events_counted"}
    assert [row["rank"] for row in standings] == sorted(row["rank"] for row in standings)
    assert all(row["events_counted"] == 2 for row in standings)
    season = Season.objects.get(pk=report["season"])
    points = {row["player"]: Decimal(row["points"]) for row in standings}
    for player, total in points.items():
        own = EventResult.objects.filter(event__season=season, player_id=player)
        assert sum(r.points for r in own) == total
    before = list(Standing.objects.filter(season=season).values_list("player_id", "rank", "points"))
    season_recompute(season)
    after = list(Standing.objects.filter(season=season).values_list("player_id", "rank", "points"))
    assert sorted(before) == sorted(after)
