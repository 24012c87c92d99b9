"""Project-wide test setup: the `postgres` marker and its CI guard.

Tests marked `postgres` need real row locks: on SQLite they are skipped with a reason, and
when CI=true a skipped one fails the whole run, so CI can never pass without them.
"""

import os
from collections.abc import Iterator
from typing import Any

import pytest
from django.db import connection

SKIPPED_POSTGRES_TESTS = pytest.StashKey[list[str]]()


def running_in_ci() -> bool:
    """True when the CI environment variable says so."""
    return os.environ.get("CI", "").lower() in {"1", "true", "yes"}


def pytest_configure(config: pytest.Config) -> None:
    config.stash[SKIPPED_POSTGRES_TESTS] = []


def pytest_runtest_setup(item: pytest.Item) -> None:
    if item.get_closest_marker("postgres") and connection.vendor != "postgresql":
        item.config.stash[SKIPPED_POSTGRES_TESTS].append(item.nodeid)
        pytest.skip("needs PostgreSQL (row locks): set DATABASE_URL=postgres://...")


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if running_in_ci() and session.config.stash[SKIPPED_POSTGRES_TESTS]:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    skipped = terminalreporter.config.stash[SKIPPED_POSTGRES_TESTS]
    if running_in_ci() and skipped:
        terminalreporter.section("PostgreSQL tests skipped in CI", red=True)
        terminalreporter.write_line("CI must run these on PostgreSQL (set DATABASE_URL):")
        for nodeid in skipped:
            terminalreporter.write_line(f"  {nodeid}")


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings: object) -> None:
    """Tests create many users: hash their passwords cheaply (never in production)."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # type: ignore[attr-defined]


@pytest.fixture(autouse=True)
def _default_language() -> Iterator[None]:
    """Every test starts and ends in the default language: a request's LocaleMiddleware
    leaves its language active in the thread, where the next test's service calls would say
    their messages in it."""
    from django.utils import translation

    translation.deactivate()
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _fresh_rate_limits(settings: Any) -> None:
    """Every test starts with no failed sign-ins counted (all tests come from 127.0.0.1): the
    sign-in limits count in a memory cache of the test's own."""
    import uuid

    alias = "sign-in-test"
    settings.CACHES = {
        **settings.CACHES,
        alias: {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": f"sign-in-{uuid.uuid4().hex}",
        },
    }
    settings.SIGN_IN_CACHE = alias


@pytest.fixture(autouse=True)
def _players_funded_in_new_clubs() -> Any:
    """A club created in a test funds the players that exist already (make_player funds
    them in the clubs that exist when it is called)."""
    from django.db.models.signals import post_save

    from clubs.models import Club
    from tests.games.factories import fund_club_players

    def funded(sender: Any, instance: Club, created: bool, **kwargs: Any) -> None:
        if created:
            fund_club_players(instance.id)

    post_save.connect(funded, sender=Club, dispatch_uid="tests.fund_club_players")
    yield
    post_save.disconnect(sender=Club, dispatch_uid="tests.fund_club_players")
