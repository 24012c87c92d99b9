"""The standings page in a real browser against the running service, for a season that
``run_league`` played through the real workers."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from playwright.sync_api import Browser

from games.models import Player
from tests.e2e.web.pages import console_errors, make_person, sign_in

pytestmark = [pytest.mark.e2e, pytest.mark.browser]


def test_the_standings_page_shows_a_season_that_run_league_played(
    live_service: str, browser: Browser, screenshots: Path
) -> None:
    out = StringIO()
    call_command(
        "run_league",
        *("--events", "2", "--players", "5", "--formula", "pokerstars", "--seed", "3"),
        *("--workers", "0", "--level-seconds", "10", "--timeout", "400", "--json"),
        stdout=out,
        stderr=StringIO(),
    )
    played = json.loads(out.getvalue())
    make_person("boss", "boss-pw-123", staff=True)
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    errors = console_errors(page)
    sign_in(page, live_service, "boss", "boss-pw-123")
    page.goto(f"{live_service}/leagues/seasons/{played['season']}/")

    names = dict(Player.objects.values_list("id", "display_name"))
    rows = page.locator("#standings tbody tr")
    assert rows.count() == len(played["standings"]) == 5
    for row, standing in zip(rows.all(), played["standings"], strict=True):
        cells = row.locator("td").all_inner_texts()
        assert cells[0] == str(standing["rank"])
        assert cells[2] == names[standing["player"]]
        assert cells[3] == standing["points"]
    assert page.locator("#events-heading ~ details").count() == 2
    assert "10 * sqrt(n / k) * (1 + log10(b + 0.25))" in page.content()
    page.screenshot(path=str(screenshots / "standings.png"), full_page=True)
    assert errors == []
