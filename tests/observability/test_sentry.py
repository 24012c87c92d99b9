"""Error reports (Sentry, when SENTRY_DSN is set): the request id and the table, hand,
tournament attached; no card, seed, token or password in what is sent. A fake transport
keeps what would have been sent."""

from __future__ import annotations

import json
import logging
import re

import pytest
import sentry_sdk
from sentry_sdk.transport import Transport

from observability import context
from observability.sentry import before_send, sentry_init

SEED = bytes(range(32))
TOKEN = "9944b09199c62bcf9418ad846dd0e4bbdfc6ee4b"
PASSWORD = "Correct-Horse-42-Battery"


class KeptTransport(Transport):
    """Keeps each envelope instead of sending it."""

    sent: list = []

    def capture_envelope(self, envelope) -> None:
        KeptTransport.sent.append(envelope)


@pytest.fixture
def reports():
    KeptTransport.sent = []
    sentry_init(
        dsn="https://public@sentry.invalid/1",
        environment="test",
        release="",
        transport=KeptTransport,
    )
    yield KeptTransport.sent
    sentry_sdk.get_client().close()
    sentry_sdk.init()  # no DSN: nothing is sent any more


def events(sent) -> list[dict]:
    return [envelope.get_event() for envelope in sent if envelope.get_event() is not None]


def test_an_error_report_carries_the_context_and_none_of_the_secrets(reports):
    deck = ["As", "Kd", "7c", "Th"]
    with context.bound(request_id="req-4711", user=12, table=3, hand=99):
        logging.getLogger("games.test").warning("dealing %s with seed %s", deck, SEED.hex())
        try:
            raise RuntimeError(f"bad deal {deck} seed={SEED.hex()} Authorization: Token {TOKEN}")
        except RuntimeError as error:
            sentry_sdk.capture_exception(error)
    sentry_sdk.flush()

    [event] = events(reports)
    assert event["tags"]["request_id"] == "req-4711"
    assert (event["tags"]["table"], event["tags"]["hand"], event["tags"]["user"]) == (
        "3",
        "99",
        "12",
    )
    assert event["exception"]["values"][0]["type"] == "RuntimeError"
    sent = json.dumps(event)
    for card in deck:  # as a word of its own: "7c" may be part of the event's hex id
        assert not re.search(rf"(?<![A-Za-z0-9]){card}(?![A-Za-z0-9])", sent), card
    for secret in (SEED.hex(), TOKEN):
        assert secret not in sent
    assert "[card]" in sent  # masked, not dropped: the report still reads
    frames = event["exception"]["values"][0]["stacktrace"]["frames"]
    assert all("vars" not in frame for frame in frames)  # a frame's locals hold the deck


def test_before_send_scrubs_a_request_and_extra_data():
    event = {
        "request": {
            "url": "https://stud.example/api/v1/auth/token/",
            "headers": {"Authorization": f"Token {TOKEN}", "Cookie": "sessionid=abc"},
            "data": {"username": "alice", "password": PASSWORD},
        },
        "extra": {"server_seed": SEED.hex(), "down_cards": ["Qs", "2h"], "note": "Qs up"},
        "breadcrumbs": {"values": [{"message": f"Authorization: Bearer {TOKEN}"}]},
    }

    with context.bound(request_id="req-1"):
        cleaned = before_send(event, {})

    assert cleaned["tags"] == {"request_id": "req-1"}
    assert cleaned["request"]["headers"] == {"Authorization": "[Filtered]", "Cookie": "[Filtered]"}
    assert cleaned["request"]["data"] == {"username": "alice", "password": "[Filtered]"}
    assert cleaned["extra"] == {
        "server_seed": "[Filtered]",
        "down_cards": "[Filtered]",
        "note": "[card] up",
    }
    assert TOKEN not in json.dumps(cleaned)
    assert event["request"]["data"]["password"] == PASSWORD  # the given event is not changed


SETTINGS_WITH_A_DSN = """
import sys
{block}
import django
django.setup()
import sentry_sdk
print("active" if sentry_sdk.get_client().is_active() else "inactive")
"""


def _start(dsn: str, *, without_sentry: bool = False):
    import os
    import subprocess
    import sys
    from pathlib import Path

    block = "sys.modules['sentry_sdk'] = None" if without_sentry else ""
    environment = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", "SENTRY_DSN": dsn}
    return subprocess.run(
        [sys.executable, "-c", SETTINGS_WITH_A_DSN.format(block=block)],
        cwd=Path(__file__).resolve().parents[2],
        env=environment,
        capture_output=True,
        text=True,
    )


def test_a_dsn_starts_reporting_and_none_sends_nothing():
    assert _start("https://public@sentry.invalid/1").stdout.strip() == "active"
    assert _start("").stdout.strip() == "inactive"


def test_a_dsn_without_sentry_sdk_installed_stops_the_start_saying_what_to_install():
    started = _start("https://public@sentry.invalid/1", without_sentry=True)
    assert started.returncode != 0
    assert "SENTRY_DSN is set but sentry-sdk is not installed" in started.stderr
