"""The director's desk in a real browser against the running service, by keyboard and
mouse only: write a schedule, create a live tournament with late registration and rebuys,
register walk-ins, start it on the console, take a rebuy at the desk. Screenshots of each
desk page at 1920x1080 and 390x844, each checked for no horizontal scroll on the phone."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page

from clubs.models import Club
from games.services.floor_tables import game_create
from leagues.models import League
from tests.e2e.web.pages import console_errors, make_person, sign_in
from tourney.models import AnteSchedule, Entry, Tournament

pytestmark = [pytest.mark.e2e, pytest.mark.browser]

SIZES = {"": (1920, 1080), "-phone": (390, 844)}
LEVELS = [(5, 10, 20, 40), (10, 15, 40, 80), (15, 25, 60, 120)]


def _shots(browser: Browser, base: str, screenshots: Path, pages: dict[str, str]) -> None:
    """Each page at both sizes, signed in as the director; none wider than the phone."""
    for suffix, (width, height) in SIZES.items():
        context = browser.new_context(viewport={"width": width, "height": height})
        page = context.new_page()
        errors = console_errors(page)
        sign_in(page, base, "td", "td-pw-1234")
        for name, path in pages.items():
            page.goto(f"{base}{path}")
            wide = page.evaluate("document.documentElement.scrollWidth")
            assert wide <= width, f"{name} is {wide} px wide at {width} px"
            page.screenshot(path=str(screenshots / f"{name}{suffix}.png"), full_page=True)
        assert errors == []
        context.close()


def _fill_levels(page: Page) -> None:
    for row, (ante, bring_in, small, big) in enumerate(LEVELS):
        for name, value in (
            ("ante", ante),
            ("bring_in", bring_in),
            ("small_bet", small),
            ("big_bet", big),
            ("minutes", 20),
        ):
            page.locator(f'[name="e{row}-{name}"]').fill(str(value))


def test_a_director_runs_a_tournament_from_the_desk(
    live_service: str, browser: Browser, screenshots: Path
) -> None:
    make_person("td", "td-pw-1234", staff=True)
    for name in ("ann", "ben", "cy"):
        make_person(name, f"{name}-pw-1234")
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors = console_errors(page)
    sign_in(page, live_service, "td", "td-pw-1234")

    # a schedule, written in the level editor (one mistake first: shown beside its field)
    page.goto(f"{live_service}/console/")
    page.get_by_role("link", name="Ante schedules").click()
    page.get_by_role("link", name="Write a schedule").click()
    page.locator("#f-name").fill("Friday levels")
    page.locator("#f-chip_unit").fill("5")
    _fill_levels(page)
    page.locator('[name="e1-ante"]').fill("ten")
    page.get_by_role("button", name="Save the schedule").click()
    assert "Enter a whole number" in page.locator("#f-e1-ante-error").inner_text()
    assert not AnteSchedule.objects.exists()
    page.locator('[name="e1-ante"]').fill("10")
    page.get_by_role("button", name="Save the schedule").click()
    page.wait_for_url("**/desk/schedules/*/")
    schedule = AnteSchedule.objects.get(name="Friday levels")
    assert schedule.entries.count() == 3

    # a live tournament with late registration and rebuys
    page.goto(f"{live_service}/desk/tournaments/")
    page.get_by_role("link", name="Create a tournament").click()
    page.locator("#f-name").fill("Friday Stud")
    page.get_by_label("Mode").select_option("live")
    page.get_by_label("Ante schedule").select_option(str(schedule.id))
    for name, value in (
        ("buy_in", "110"),
        ("fee", "10"),
        ("starting_stack", "1000"),
        ("chip_unit", "5"),
        ("late_reg_levels", "2"),
        ("rebuy_max", "2"),
        ("rebuy_levels", "2"),
        ("rebuy_price", "55"),
        ("rebuy_fee", "5"),
        ("rebuy_chips", "1000"),
    ):
        page.locator(f"#f-{name}").fill(value)
    page.get_by_role("button", name="Create the tournament").click()
    page.wait_for_url("**/desk/tournaments/*/")
    tournament = Tournament.objects.get(name="Friday Stud")
    assert (tournament.mode, tournament.late_reg_levels, tournament.rebuy_max) == ("live", 2, 2)

    # walk-ins registered at the desk
    for name in ("Ann", "Ben", "Cy"):
        page.locator("#f-player").select_option(label=name)
        page.get_by_role("button", name="Register at the desk").click()
        page.wait_for_load_state()
        assert f"{name} is registered" in page.locator(".messages").inner_text()
    assert tournament.entries.filter(status="registered").count() == 3

    # started on the console, then a rebuy at the desk
    page.get_by_role("link", name="Console: clock, deals, live reports").click()
    page.get_by_role("button", name="Start the tournament").click()
    page.get_by_role("button", name="Pause the tournament").wait_for()
    page.goto(f"{live_service}/desk/tournaments/{tournament.id}/")
    page.get_by_role("button", name="Rebuy for Ann").focus()
    page.keyboard.press("Enter")
    page.wait_for_load_state()
    assert "Ann rebought." in page.locator(".messages").inner_text()
    ann = Entry.objects.get(tournament=tournament, player__display_name="Ann")
    assert ann.rebuys == 1
    tournament.refresh_from_db()
    assert tournament.prize_pool == 3 * 100 + 50
    # the one refused form answered 400 on purpose; nothing else went wrong (CSP included)
    assert [e for e in errors if "status of 400" not in e] == []
    context.close()

    game = game_create(
        name="Stud 5/10",
        variant="stud_hi",
        ante=1,
        bring_in=2,
        small_bet=5,
        big_bet=10,
        seat_count=4,
        buy_in_min=50,
        buy_in_max=1000,
        mode="live",
    )
    league = League.objects.create(
        club=Club.objects.create(name="Friday Club"), name="Friday League"
    )
    _shots(
        browser,
        live_service,
        screenshots,
        {
            "desk-schedules": "/desk/schedules/",
            "desk-schedule": f"/desk/schedules/{schedule.id}/",
            "desk-schedule-generate": "/desk/schedules/generate/",
            "desk-tournament-new": "/desk/tournaments/new/",
            "desk-tournament": f"/desk/tournaments/{tournament.id}/",
            "desk-ring": "/desk/ring/",
            "desk-ring-game": f"/desk/ring/{game.id}/",
            "desk-leagues": "/desk/leagues/",
            "desk-league": f"/desk/leagues/{league.id}/",
        },
    )
