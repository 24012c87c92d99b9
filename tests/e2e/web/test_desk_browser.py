"""The director's desk in a real browser against the running service, pages only: staff
create a club and a player, add the player to the club, deposit at the cashier (a refused
amount first, its error beside the field) and see the balance and the club's day. Every
desk page is shot at 1920x1080 and 390x844 and never scrolls sideways on the phone; the
forms are filled and sent with the keyboard."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page

from clubs.models import Club, Membership
from games.models import Player
from money.ledger import balance_of, player_account
from money.reconciliation import ledger_check
from tests.e2e.web.pages import console_errors, make_person, sign_in

pytestmark = [pytest.mark.e2e, pytest.mark.browser]

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1920, "height": 1080}


def _type_into(page: Page, field: str, text: str) -> None:
    """Focus a field by its id and type, as a keyboard user would after tabbing to it."""
    page.focus(f"#{field}")
    page.keyboard.type(text)


def _shoot(page: Page, screenshots: Path, name: str) -> None:
    """Screenshots at both sizes; the phone's page is no wider than the phone."""
    page.set_viewport_size(DESKTOP)
    page.screenshot(path=str(screenshots / f"{name}.png"), full_page=True)
    page.set_viewport_size(PHONE)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], name
    page.screenshot(path=str(screenshots / f"{name}-phone.png"), full_page=True)
    page.set_viewport_size(DESKTOP)


def test_staff_create_a_player_add_them_to_a_club_and_deposit_from_the_desk(
    live_service: str, browser: Browser, screenshots: Path
) -> None:
    make_person("cashier", "cashier-pw-123", staff=True)
    page = browser.new_page(viewport=DESKTOP)
    errors = console_errors(page)
    sign_in(page, live_service, "cashier", "cashier-pw-123")
    page.get_by_role("link", name="Desk", exact=True).click()
    page.wait_for_url("**/desk/")
    _shoot(page, screenshots, "desk")

    # A club
    page.get_by_role("link", name="Clubs", exact=True).click()
    _type_into(page, "id_name", "Harbour Club")
    page.keyboard.press("Enter")
    page.wait_for_url("**/desk/clubs/*/")
    club = Club.objects.get(name="Harbour Club")

    # A player: a taken username first, shown beside the field, then the right one
    page.goto(f"{live_service}/desk/players/")
    _type_into(page, "id_username", "cashier")
    _type_into(page, "id_display_name", "Rosa")
    page.keyboard.press("Enter")
    assert "is taken" in page.locator("#id_username-error").inner_text()
    assert page.locator("#id_username").get_attribute("aria-invalid") == "true"
    _shoot(page, screenshots, "desk-players-error")
    page.fill("#id_username", "rosa")
    page.focus("#id_username")
    page.keyboard.press("Enter")
    page.wait_for_url("**/desk/players/*/")
    rosa = Player.objects.get(user__username="rosa")
    page.get_by_role("button", name="Make a set-password link").click()
    assert "/accounts/set-password/" in page.locator("#id_link").input_value()
    _shoot(page, screenshots, "desk-player")

    # The club's member
    page.goto(f"{live_service}/desk/clubs/{club.id}/")
    _type_into(page, "id_username", "rosa")
    page.keyboard.press("Enter")
    page.wait_for_url(f"**/desk/clubs/{club.id}/")
    assert "rosa is a member of the club now" in page.locator(".messages").inner_text()
    assert Membership.objects.filter(club=club, user=rosa.user).exists()
    _shoot(page, screenshots, "desk-club")

    # The cashier: a refused amount, then a deposit, and the balance
    page.goto(f"{live_service}/desk/cashier/?club={club.id}")
    page.get_by_role("link", name="Deposit or withdraw for Rosa").click()
    page.wait_for_url(f"**/desk/cashier/players/{rosa.id}/?club={club.id}")
    _type_into(page, "id_deposit-amount", "0")
    page.keyboard.press("Enter")
    assert "greater than or equal to 1" in page.locator("#id_deposit-amount-error").inner_text()
    page.fill("#id_deposit-amount", "")
    _type_into(page, "id_deposit-amount", "500")
    _type_into(page, "id_deposit-memo", "receipt 1")
    page.keyboard.press("Enter")
    page.wait_for_url(f"**/desk/cashier/players/{rosa.id}/?club={club.id}")
    assert page.locator("#balance").inner_text() == "500"
    assert "Deposit at the cashier" in page.locator("table").inner_text()
    _shoot(page, screenshots, "desk-cashier-player")
    assert balance_of(player_account(rosa.id, club.id)) == 500

    page.get_by_role("link", name="Cashier", exact=True).click()
    page.wait_for_url(f"**/desk/cashier/?club={club.id}")
    assert "500" in page.locator(".totals").inner_text()
    _shoot(page, screenshots, "desk-cashier-day")
    assert ledger_check().ok
    # a refused form is a 400 (the browser logs it); anything else (a CSP violation) fails
    assert [error for error in errors if "status of 400" not in error] == []
