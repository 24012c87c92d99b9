"""The pages in Arabic and Greek in a real browser against the running service: the lobby, a
table with a hand in play, the clock screen and the director's console, on a 1920x1080
screen and a 390 px phone. Arabic is right to left; no page is wider than the screen; no
English sentence of the pages' catalogue is left in the visible text. Screenshots of each
(``docs/screenshots/*-ar*.png`` and ``*-el*.png`` come from here)."""

from __future__ import annotations

import re
from pathlib import Path

import polib
import pytest
from playwright.sync_api import Browser, Page

from games.services.seating import seat_sit
from tests.e2e.web.pages import console_errors, make_person, sign_in
from tests.games.factories import make_player, make_table
from tests.tourney.tournaments import make_tournament
from tourney.services.commands.draw import tournament_start

pytestmark = [pytest.mark.e2e, pytest.mark.browser]

ROOT = Path(__file__).resolve().parents[3]
SCREENS = {"wide": (1920, 1080), "phone": (390, 844)}
SPLIT = re.compile(r"%\(\w+\)[sdr]|%[sdr]|\{\w*\}|<[^>]+>|&\w+;")

# The visible text of a page, less the words that are not the pages' own: the language
# switch (each language names itself, marked with lang) and the hand names, which the
# engine's presentation (games.hand_names, with its own catalogue) writes.
VISIBLE_TEXT = """() => {
  const hidden = [...document.querySelectorAll('[lang]:not(html), .hand-name')];
  hidden.forEach(el => { el.dataset.display = el.style.display; el.style.display = 'none'; });
  const text = document.body.innerText;
  hidden.forEach(el => { el.style.display = el.dataset.display; });
  return text;
}"""


def english_phrases(language: str) -> list[str]:
    """The English phrases of the pages' catalogue that ``language`` says otherwise: the
    text between the placeholders and tags of each message, three letters or more, less the
    words the language's own catalogue uses (the glossary's terms kept in Latin letters, as
    "Fold" or "Seven Card Stud" in Greek)."""
    po = polib.pofile(str(ROOT / "web" / "locale" / language / "LC_MESSAGES" / "django.po"))
    entries = po.translated_entries()
    translated = " ".join(t for e in entries for t in [e.msgstr, *e.msgstr_plural.values()])
    phrases = set()
    for entry in entries:
        for source in filter(None, [entry.msgid, entry.msgid_plural]):
            for part in SPLIT.split(source):
                part = part.strip(" .,:;()+-/·")
                if sum(c.isalpha() for c in part) >= 3 and not shown_in(part, translated):
                    phrases.add(part)
    return sorted(phrases)


def shown_in(phrase: str, text: str) -> bool:
    return re.search(rf"(?<![A-Za-z0-9]){re.escape(phrase)}(?![A-Za-z0-9])", text) is not None


def english_left(text: str, phrases: list[str]) -> list[str]:
    return [phrase for phrase in phrases if shown_in(phrase, text)]


def check_page(page: Page, *, language: str, name: str, screenshots: Path) -> None:
    direction = "rtl" if language == "ar" else "ltr"
    phrases = english_phrases(language)
    for screen, (width, height) in SCREENS.items():
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(300)
        html = page.locator("html")
        assert html.get_attribute("lang") == language
        assert html.get_attribute("dir") == direction
        overflow = page.evaluate(
            "document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        assert overflow <= 1, f"{name} in {language} at {width}px is {overflow}px too wide"
        left = english_left(page.evaluate(VISIBLE_TEXT), phrases)
        assert not left, f"{name} in {language} shows English: {left}"
        suffix = "" if screen == "wide" else "-phone"
        page.screenshot(path=str(screenshots / f"{name}-{language}{suffix}.png"))


@pytest.mark.parametrize("language", ["ar", "el"])
def test_the_lobby_table_clock_and_console_in_arabic_and_greek(
    live_service: str, browser: Browser, screenshots: Path, language: str
) -> None:
    table = make_table(name="Salon 1", pause_ms=600_000, action_seconds=600)
    make_person("alice", "alice-pw-123", staff=True)
    bot = make_player("robot", bot="station")
    seat_sit(table_id=table.id, player=bot, seat_number=2, buy_in=300, by_staff=True)
    tournament = make_tournament(
        name="Friday Stud", players=7, mode="live", table_size=4, minute_seconds=60
    )
    tournament_start(tournament_id=tournament.id)

    context = browser.new_context(viewport={"width": 1920, "height": 1080})
    page = context.new_page()
    errors = console_errors(page)
    sign_in(page, live_service, "alice", "alice-pw-123")
    # The language switch on the page: the choice is saved for alice and kept in a cookie.
    page.locator(f'.languages button[value="{language}"]').click()
    page.wait_for_load_state()
    assert page.locator("html").get_attribute("lang") == language

    check_page(page, language=language, name="lobby", screenshots=screenshots)

    page.set_viewport_size({"width": 1920, "height": 1080})
    page.locator(f'form[action="/play/tables/{table.id}/sit/"] button[type="submit"]').click()
    page.wait_for_url(f"**/play/tables/{table.id}/")
    page.locator(".felt[data-hand] .seat.you .card").first.wait_for(timeout=60_000)
    check_page(page, language=language, name="table", screenshots=screenshots)

    page.goto(f"{live_service}/clock/{tournament.id}/")
    page.locator(".countdown").wait_for()
    check_page(page, language=language, name="clock", screenshots=screenshots)

    page.goto(f"{live_service}/console/tournaments/{tournament.id}/")
    page.locator("#console-live").wait_for()
    check_page(page, language=language, name="console", screenshots=screenshots)
    assert errors == []
