"""In a real browser: the clock screen with 50 paid places at 1920x1080 and 1280x720 clips
nothing (long lists turn pages by themselves), a finished tournament's screen shows its
results and deal instead of the next level, and the player's pages (my account, a hand's
replay, the lobby) and the print sheets fit a 390 px phone with no horizontal scroll."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.utils import timezone
from playwright.sync_api import Browser, Page

from games.services.seating import seat_sit
from tests.e2e.web.pages import console_errors, make_person, seconds_until, sign_in
from tests.games.factories import make_player, make_table
from tests.games.floor import fill_table, make_game, tables_of
from tests.tourney.tournaments import make_tournament
from tests.web.test_my_account_pages import _bob_mucks, hand_bob_never_shows
from tourney.models import Entry, EntryStatus, Status
from tourney.services.commands.draw import tournament_start
from tourney.services.commands.registration import entry_register
from tourney.services.commands.schedules import schedule_create

pytestmark = [pytest.mark.e2e, pytest.mark.browser]

PAID = 50

CLIPPED = """() => {
  const W = window.innerWidth, H = window.innerHeight, bad = [];
  const doc = document.documentElement;
  if (doc.scrollWidth > W + 1) bad.push("page wider than the screen: " + doc.scrollWidth);
  if (doc.scrollHeight > H + 1) bad.push("page taller than the screen: " + doc.scrollHeight);
  for (const el of document.querySelectorAll("main *")) {
    if (!el.getClientRects().length) continue;  // not shown (a list's other page)
    const r = el.getBoundingClientRect();
    if (r.right > W + 1 || r.bottom > H + 1 || r.left < -1 || r.top < -1)
      bad.push("outside: " + el.tagName + " " + el.className + " " + el.textContent.slice(0, 30));
    const style = getComputedStyle(el);
    const over = el.scrollHeight > el.clientHeight + 1 || el.scrollWidth > el.clientWidth + 1;
    if (style.overflow !== "visible" && over)
      bad.push("cut: " + el.tagName + " " + el.className + " " + el.textContent.slice(0, 30));
  }
  return bad;
}"""

NO_SIDE_SCROLL = "() => document.documentElement.scrollWidth - window.innerWidth"


def _fifty_paid(**fields):
    tournament = make_tournament(
        name="Grand Stud Festival Main Event",
        payout_percentages=["2"] * PAID,
        **fields,
    )
    for n in range(PAID + 10):
        entry_register(tournament_id=tournament.id, player_id=make_player(f"p{n:02d}longname").id)
    return tournament


def _all_places_shown(page: Page, list_id: str, count: int) -> None:
    """Every row is on some page: the pages hold them all, each page's rows whole."""
    pages = int(page.locator(f"#{list_id}").get_attribute("data-pages") or 1)
    seen: set[str] = set()
    for _ in range(pages):
        seen |= set(page.locator(f"#{list_id} li:visible").all_inner_texts())
        assert page.evaluate(CLIPPED) == []
        page.wait_for_timeout(6100)  # the next page turns by itself
    assert len(seen) == count, (len(seen), pages)


@pytest.mark.parametrize("size", [(1920, 1080), (1280, 720)])
def test_the_clock_with_fifty_paid_places_clips_nothing(
    live_service: str, browser: Browser, screenshots: Path, size: tuple[int, int]
) -> None:
    tournament = _fifty_paid()
    width, height = size
    page = browser.new_page(viewport={"width": width, "height": height})
    errors = console_errors(page)
    page.goto(f"{live_service}/clock/{tournament.id}/")
    assert page.locator("#payouts li").count() == PAID
    assert page.evaluate(CLIPPED) == []
    page.screenshot(path=str(screenshots / f"clock-50-paid-{width}x{height}.png"))
    _all_places_shown(page, "payouts", PAID)
    assert errors == []


def test_a_finished_tournament_shows_its_results_and_deal_not_a_next_level(
    live_service: str, browser: Browser, screenshots: Path
) -> None:
    tournament = _fifty_paid()
    entries = list(Entry.objects.filter(tournament=tournament).order_by("id"))
    for place, entry in enumerate(entries, start=1):
        entry.place, entry.prize = place, 100 if place <= PAID else 0
        entry.status = EntryStatus.WINNER if place == 1 else EntryStatus.ELIMINATED
        entry.save()
    tournament.status, tournament.finished_at = Status.FINISHED, timezone.now()
    tournament.deal = {
        "method": "icm",
        "entries": {str(entries[0].id): 900, str(entries[1].id): 700},
    }
    tournament.save()
    for width, height in [(1920, 1080), (1280, 720)]:
        page = browser.new_page(viewport={"width": width, "height": height})
        errors = console_errors(page)
        page.goto(f"{live_service}/clock/{tournament.id}/")
        text = page.locator("main").inner_text()
        assert "Next" not in text and "Level 7" not in text
        assert "Winner: P00Longname" in text and "Deal (ICM)" in text
        assert page.evaluate(CLIPPED) == []
        page.screenshot(path=str(screenshots / f"clock-finished-{width}x{height}.png"))
        if width == 1920:
            _all_places_shown(page, "results", len(entries))
        assert errors == []
        page.close()


def test_the_players_pages_fit_a_phone(
    live_service: str, browser: Browser, screenshots: Path
) -> None:
    alice = make_person("alice", "correct horse battery")
    bob = make_player("bob")
    table = make_table(name="Evening Stud")
    seat_sit(table_id=table.id, player=alice, seat_number=1, buy_in=200)
    seat_sit(table_id=table.id, player=bob, seat_number=2, buy_in=200)
    hand = hand_bob_never_shows(table, alice, bob, _bob_mucks)
    make_tournament(name="Sunday Stud")
    page = browser.new_page(viewport={"width": 390, "height": 844})
    errors = console_errors(page)
    sign_in(page, live_service, "alice", "correct horse battery")
    for name, path in [
        ("account", "/me/"),
        ("hand-replay", f"/me/hands/{hand.id}/?step=1"),
        ("lobby", "/play/"),
    ]:
        page.goto(f"{live_service}{path}")
        assert page.evaluate(NO_SIDE_SCROLL) <= 0, name
        page.screenshot(path=str(screenshots / f"{name}-phone.png"), full_page=True)
    # The replayer steps with the keyboard alone: Tab to "Next street", Enter.
    page.goto(f"{live_service}/me/hands/{hand.id}/?step=1")
    page.get_by_role("link", name="Next street").focus()
    page.keyboard.press("Enter")
    page.wait_for_url(lambda url: "step=2" in url)
    assert "step 2 of" in page.locator("main").inner_text()
    assert errors == []


def test_a_wait_list_offer_taken_with_the_keyboard_on_a_phone(
    live_service: str, browser: Browser, screenshots: Path
) -> None:
    game = make_game(name="Stud 5/10")
    table = tables_of(game)[0]
    fill_table(table, 3)
    make_person("alice", "correct horse battery")
    page = browser.new_page(viewport={"width": 390, "height": 844})
    errors = console_errors(page)
    sign_in(page, live_service, "alice", "correct horse battery")
    page.goto(f"{live_service}/play/")
    page.get_by_role("button", name="Join the list").focus()
    page.keyboard.press("Enter")
    # The worker offers the free seat; the lobby's list shows it within its poll.
    offer = page.get_by_label("Buy-in", exact=True).last
    offer.wait_for(timeout=15_000)
    assert page.locator(".offer [data-deadline]").inner_text().strip() not in ("", "0:00")
    assert page.evaluate(NO_SIDE_SCROLL) <= 0
    page.screenshot(path=str(screenshots / "lobby-offer-phone.png"), full_page=True)
    offer.focus()
    offer.fill("300")
    page.keyboard.press("Enter")
    page.wait_for_url(f"**/play/tables/{table.id}/", timeout=10_000)
    assert errors == []


def test_the_print_sheets_fit_the_page_and_a_phone(
    live_service: str, browser: Browser, screenshots: Path
) -> None:
    tournament = make_tournament(name="Thursday Stud", players=12, starting_stack=100_000)
    tournament_start(tournament_id=tournament.id)
    make_person("desk", "correct horse battery", staff=True)
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    errors = console_errors(page)
    sign_in(page, live_service, "desk", "correct horse battery")
    page.goto(f"{live_service}/console/tournaments/{tournament.id}/")
    page.get_by_role("link", name="seat cards").click()
    page.locator(".seat-card").first.wait_for()
    assert page.locator(".seat-card").count() == 12
    page.screenshot(path=str(screenshots / "print-seat-cards.png"), full_page=True)
    page.emulate_media(media="print")
    assert page.locator(".top").is_hidden()
    page.emulate_media(media="screen")
    for sheet in ("seats", "payouts", "results"):
        page.set_viewport_size({"width": 390, "height": 844})
        page.goto(f"{live_service}/console/tournaments/{tournament.id}/print/{sheet}/")
        assert page.evaluate(NO_SIDE_SCROLL) <= 0, sheet
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(f"{live_service}/console/tournaments/{tournament.id}/print/payouts/")
    page.screenshot(path=str(screenshots / "print-payouts.png"), full_page=True)
    assert errors == []


ALARM_LEVELS = [
    {"game": "stud_hi", "ante": 5, "bring_in": 10, "small_bet": 30, "big_bet": 60, "minutes": 12},
    {"game": "razz", "ante": 10, "bring_in": 15, "small_bet": 50, "big_bet": 100, "minutes": 63},
    {"is_break": True, "minutes": 10},
    {"game": "stud_8", "ante": 25, "bring_in": 50, "small_bet": 100, "big_bet": 200, "minutes": 90},
]


def test_the_clock_sounds_and_flashes_at_the_level_change_and_a_minute_before(
    live_service: str, browser: Browser, screenshots: Path
) -> None:
    schedule = schedule_create(name="Alarm test", chip_unit=5, entries=ALARM_LEVELS)
    tournament = make_tournament(
        name="Friday Stud",
        players=6,
        schedule_id=schedule.id,
        minute_seconds=1,  # a level of 12 "minutes" lasts 12 s
        starting_stack=100_000,
    )
    tournament_start(tournament_id=tournament.id)
    page = browser.new_page(viewport={"width": 1920, "height": 1080})
    errors = console_errors(page)
    page.goto(f"{live_service}/clock/{tournament.id}/")
    switch = page.locator("#sound-switch")
    switch.focus()
    page.keyboard.press("Enter")  # a click (or Enter) starts the sound, as browsers require
    assert switch.get_attribute("aria-pressed") == "true"
    assert page.evaluate("() => document.body.dataset.lastAlarm || ''") == ""
    assert page.evaluate(CLIPPED) == []
    page.screenshot(path=str(screenshots / "clock-1920x1080.png"))
    seconds_until(
        lambda: page.evaluate("() => document.body.dataset.lastAlarm || ''") == "level",
        20,
        "the level-change alarm",
    )
    assert "flash-level" in (page.locator("body").get_attribute("class") or "")
    assert "Colour-up at the break" in page.locator(".clock-next").inner_text()
    seconds_until(
        lambda: page.evaluate("() => document.body.dataset.lastAlarm || ''") == "minute",
        10,
        "the one-minute alarm",
    )
    page.keyboard.press("Enter")  # muted again
    assert switch.get_attribute("aria-pressed") == "false"
    assert errors == []
