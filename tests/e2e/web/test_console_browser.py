"""The director in a real browser against the running service: pauses a tournament from
the console (the clock screen shows it within two seconds), reports the bust-outs of a live
hand and acknowledges the move that comes back."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from playwright.sync_api import Browser

from tests.e2e.web.pages import console_errors, make_person, seconds_until, sign_in
from tests.tourney.tournaments import make_tournament, seats_of, table_of
from tourney.models import Entry, Move, Tournament
from tourney.services.commands.draw import tournament_start

pytestmark = [pytest.mark.e2e, pytest.mark.browser]


def _entry_at(tournament: Tournament, table_number: int, index: int) -> Entry:
    seats = seats_of(table_of(tournament, table_number).id)
    player_id = seats[sorted(seats)[index]][0]
    return Entry.objects.get(tournament=tournament, player_id=player_id, status="playing")


def test_the_director_pauses_and_acknowledges_a_live_move_from_the_console(
    live_service: str, browser: Browser, screenshots: Path
) -> None:
    tournament = make_tournament(
        name="Thursday Live Stud", players=7, mode="live", table_size=4, minute_seconds=60
    )
    tournament_start(tournament_id=tournament.id)
    make_person("floor", "floor-pw-123", staff=True)
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    console = context.new_page()
    errors = console_errors(console)
    sign_in(console, live_service, "floor", "floor-pw-123")
    clock = context.new_page()
    clock_errors = console_errors(clock)
    clock.goto(f"{live_service}/clock/{tournament.id}/")

    console.goto(f"{live_service}/console/")
    console.get_by_role("link", name="Thursday Live Stud").click()
    clicked = time.monotonic()
    console.get_by_role("button", name="Pause the tournament").click()
    console_lag = seconds_until(
        lambda: console.locator("#t-status").inner_text() == "Paused", 5, "paused on the console"
    )
    seconds_until(
        lambda: "Paused by the director" in clock.locator(".clock-status").inner_text(),
        5,
        "the pause on the clock screen",
    )
    clock_lag = time.monotonic() - clicked
    assert clock_lag <= 2.5  # the click's round trip, plus at most one 1-second poll
    assert Tournament.objects.get(pk=tournament.pk).status == "paused"

    # A hand at table 2 (three players) busts two of them; the winner has 3000 now.
    out = [_entry_at(tournament, 2, 0), _entry_at(tournament, 2, 1)]
    winner = _entry_at(tournament, 2, 2)
    for entry in out:
        console.locator(f"#bust-{entry.id}").check()
        console.locator(f"#start-{entry.id}").fill("1000")
    console.locator(f"#count-{winner.id}").fill("3000")
    console.get_by_role("button", name="Send the report").click()
    console.wait_for_load_state()
    assert "Reported." in console.locator(".messages").inner_text()
    move = Move.objects.get(tournament=tournament, status="pending")
    console.get_by_role("button", name=f"Acknowledge move {move.id}").wait_for()
    console.screenshot(path=str(screenshots / "console.png"), full_page=True)
    console.get_by_role("button", name=f"Acknowledge move {move.id}").click()
    seconds_until(
        lambda: "None pending." in console.locator("#pending-moves").inner_text(),
        5,
        "the move acknowledged",
    )
    move.refresh_from_db()
    assert move.status == "acknowledged"
    assert {Entry.objects.get(pk=e.pk).status for e in out} == {"eliminated"}
    assert errors == clock_errors == []  # no Content-Security-Policy violation, no error
    print(
        f"\nconsole: pause shown on the console {console_lag:.2f} s and on the clock screen "
        f"{clock_lag:.2f} s after the click"
    )
