"""Helpers for the browser tests (no tests here)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from django.test import override_settings
from playwright.sync_api import ConsoleMessage, Page

from games.models import Player
from tests.games.factories import make_player

POLL_SECONDS = 0.05


def make_person(username: str, password: str, *, staff: bool = False) -> Player:
    """A player whose password the service itself can check: the tests hash passwords with
    MD5 for speed, which the running server (default settings) does not accept."""
    player = make_player(username, staff=staff)
    with override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.PBKDF2PasswordHasher"]):
        player.user.set_password(password)
        player.user.save(update_fields=["password"])
    return player


def sign_in(page: Page, base: str, username: str, password: str) -> None:
    """Sign in through the login page, as a person would."""
    page.goto(f"{base}/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(lambda url: "/accounts/login/" not in url)


def seconds_until(condition: Callable[[], Any], timeout: float, what: str) -> float:
    """How long until ``condition`` holds (polled every 50 ms); fails after ``timeout``."""
    start = time.monotonic()
    while not condition():
        if time.monotonic() - start > timeout:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        time.sleep(POLL_SECONDS)
    return time.monotonic() - start


def countdown_seconds(text: str) -> int:
    """ "1:05" -> 65, "1:02:03" -> 3723."""
    seconds = 0
    for part in text.strip().split(":"):
        seconds = seconds * 60 + int(part)
    return seconds


def console_errors(page: Page) -> list[str]:
    """Collect the page's console errors (a Content-Security-Policy violation is one):
    the list fills as the test goes on."""
    errors: list[str] = []

    def on_console(message: ConsoleMessage) -> None:
        if message.type == "error":
            errors.append(f"{message.text} ({message.location.get('url', '')})")

    page.on("console", on_console)
    page.on("pageerror", lambda error: errors.append(str(error)))
    return errors
