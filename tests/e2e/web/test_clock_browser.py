"""The clock screen in a real browser against the running service: it counts down every
second from the server's deadline, changes level when the level ends (beat's tick on real
workers), and shows a director's pause within two seconds, without a reload."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from django.utils import timezone
from playwright.sync_api import Browser, Locator

from tests.e2e.web.pages import console_errors, countdown_seconds, seconds_until
from tests.tourney.tournaments import make_tournament
from tourney.models import Tournament, TournamentEvent
from tourney.services.commands.clock import tournament_pause, tournament_resume
from tourney.services.commands.draw import tournament_start
from tourney.services.commands.schedules import schedule_create

pytestmark = [pytest.mark.e2e, pytest.mark.browser]

LEVELS = [
    {"game": "stud_hi", "ante": 5, "bring_in": 10, "small_bet": 30, "big_bet": 60, "minutes": 15},
    {"game": "razz", "ante": 10, "bring_in": 15, "small_bet": 50, "big_bet": 100, "minutes": 90},
    {"is_break": True, "minutes": 10},
    {"game": "stud_8", "ante": 20, "bring_in": 25, "small_bet": 100, "big_bet": 200, "minutes": 90},
]
CHANGE_SECONDS = 2.0  # the issue: a change shows within 2 s, without a reload


def _left_on_server(tournament_id: int) -> float:
    tournament = Tournament.objects.get(pk=tournament_id)
    if tournament.paused_remaining_ms is not None:
        return tournament.paused_remaining_ms / 1000
    return (tournament.level_ends_at - timezone.now()).total_seconds()


def _shown_seconds(countdown: Locator, tournament_id: int) -> int:
    """The countdown's seconds, checked against the server's time left read just before and
    just after: a countdown shows the time left rounded up, so it lies between them (with
    half a second for the browser's estimate of the server's clock)."""
    before = _left_on_server(tournament_id)
    shown = countdown_seconds(countdown.inner_text())
    after = _left_on_server(tournament_id)
    assert after - 0.5 <= shown <= before + 1.5, (before, shown, after)
    return shown


def test_the_clock_counts_down_changes_level_and_shows_a_pause(
    live_service: str, browser: Browser, screenshots: Path
) -> None:
    schedule = schedule_create(name="Clock test", chip_unit=5, entries=LEVELS)
    # Deep stacks: the bots must not finish the tournament before the level ends.
    tournament = make_tournament(
        name="Friday Stud",
        players=6,
        schedule_id=schedule.id,
        minute_seconds=1,
        starting_stack=100_000,
    )
    tournament_start(tournament_id=tournament.id)
    page = browser.new_page(viewport={"width": 1280, "height": 720})
    errors = console_errors(page)
    page.goto(f"{live_service}/clock/{tournament.id}/")
    countdown = page.locator(".countdown")
    status = page.locator(".clock-status")

    # It counts down every second, in step with the server's deadline.
    first = _shown_seconds(countdown, tournament.id)
    page.wait_for_timeout(2100)
    second = _shown_seconds(countdown, tournament.id)
    assert 1 <= first - second <= 3
    assert "Level 1" in status.inner_text() and "Seven Card Stud" in page.content()
    page.screenshot(path=str(screenshots / "clock.png"))

    # The level ends: beat's tick moves the clock on and the screen follows.
    seconds_until(lambda: "Level 2" in status.inner_text(), 20, "level 2 on the clock")
    seen_at = timezone.now()
    level_event = TournamentEvent.objects.get(tournament=tournament, kind="level")
    assert page.locator("#clock-game").inner_text() == "Razz"
    assert "Break in" in page.locator(".countdown-label").inner_text()
    level_lag = (seen_at - level_event.created_at).total_seconds()
    assert level_lag <= CHANGE_SECONDS + 0.5

    # A director's pause shows within two seconds and freezes the countdown.
    paused_at = time.monotonic()
    tournament_pause(tournament_id=tournament.id)
    pause_lag = seconds_until(
        lambda: "Paused by the director" in status.inner_text(), 5, "the pause on the clock"
    )
    pause_lag_from_commit = time.monotonic() - paused_at
    assert pause_lag <= CHANGE_SECONDS
    frozen = _shown_seconds(countdown, tournament.id)
    page.screenshot(path=str(screenshots / "clock-paused.png"))
    page.set_viewport_size({"width": 390, "height": 844})  # a phone
    page.screenshot(path=str(screenshots / "clock-phone.png"), full_page=True)
    page.set_viewport_size({"width": 1280, "height": 720})
    page.wait_for_timeout(1500)
    assert countdown_seconds(countdown.inner_text()) == frozen

    # Resumed: the countdown goes on from the time the pause kept.
    tournament_resume(tournament_id=tournament.id)
    resume_lag = seconds_until(
        lambda: "Paused" not in status.inner_text(), 5, "the resume on the clock"
    )
    assert resume_lag <= CHANGE_SECONDS
    page.wait_for_timeout(1200)
    _shown_seconds(countdown, tournament.id)
    assert errors == []  # no Content-Security-Policy violation, no script error
    print(
        f"\nclock: level change shown {level_lag:.2f} s after the tick wrote it; "
        f"pause shown {pause_lag_from_commit:.2f} s after the service call; "
        f"resume {resume_lag:.2f} s"
    )
