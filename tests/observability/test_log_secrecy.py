"""No card, seed, token or password in any log line: hands played through the API and by
the worker's service, everything logged at DEBUG (SQL statements included, as DEBUG=true
would log them) and scanned for every down card dealt, every seed, the token and the
passwords."""

from __future__ import annotations

import logging
import re

import pytest
from django.db import connection
from rest_framework.test import APIClient

from games import selectors
from games.models import Hand, Table
from tests.games.factories import make_player, make_table, seat_players
from tests.games.test_api_support import Session, client_for, table_url
from tests.observability.logged import logged

pytestmark = pytest.mark.django_db

PASSWORD = "Correct-Horse-42-Battery"
WRONG_PASSWORD = "Wrong-Horse-17-Stapler"


def card_pattern(code: str) -> re.Pattern[str]:
    """A card's code as a word of its own ("Th", not the "Th" of "The")."""
    return re.compile(rf"(?<![A-Za-z0-9]){re.escape(code)}(?![A-Za-z0-9])")


def secrets_of(table: Table) -> dict[str, list[str]]:
    """Every down card dealt at ``table``, and each hand's seed and the next one's, in the
    forms a log line could show them."""
    down, seeds = set(), []
    for hand in Hand.objects.filter(table=table):
        state = selectors.hand_state(hand)
        down.update(repr(card) for player in state.players for card in player.down)
        seeds.append(bytes(hand.seed))
    table.refresh_from_db()
    seeds.append(bytes(table.next_seed))
    return {
        "down cards": sorted(down),
        "seeds": [form for seed in seeds for form in (seed.hex(), repr(seed)[2:-1])],
    }


@pytest.fixture
def statements_logged():
    """SQL statements made as with DEBUG=true (their parameters hold seeds and cards), and
    Django's loggers at DEBUG as an operator debugging it would set them."""
    django_logger = logging.getLogger("django")
    level = django_logger.level
    connection.force_debug_cursor = True
    django_logger.setLevel(logging.DEBUG)
    yield
    connection.force_debug_cursor = False
    django_logger.setLevel(level)


def test_no_card_seed_token_or_password_in_any_log_line(statements_logged):
    alice = make_player("alice")
    alice.user.set_password(PASSWORD)
    alice.user.save()
    table = make_table()
    seat_players(table, [make_player(bot="station"), make_player(bot="rules")], buy_in=300)

    with logged() as captured:
        signing_in = APIClient()
        refused = signing_in.post(
            "/api/v1/auth/token/",
            {"username": "alice", "password": WRONG_PASSWORD},
            format="json",
        )
        token = signing_in.post(
            "/api/v1/auth/token/", {"username": "alice", "password": PASSWORD}, format="json"
        ).json()["token"]
        client = client_for(alice)
        assert client.post(table_url(table, "sit"), {"seat": 3, "buy_in": 300}).status_code == 200
        session = Session(table, {"alice": client})
        for _ in range(4):
            session.play_hand()

    assert refused.status_code in (400, 401)
    text = captured.text
    assert captured.lines(), "nothing was logged: the scan would prove nothing"
    assert "SELECT" not in text  # the statements' DEBUG lines are never written
    hidden = secrets_of(table)
    assert len(hidden["down cards"]) >= 6 and len(hidden["seeds"]) == 10
    for code in hidden["down cards"]:
        assert not card_pattern(code).search(text), f"down card {code} logged"
    for seed in hidden["seeds"]:
        assert seed not in text, "a seed was logged"
    for secret in (PASSWORD, WRONG_PASSWORD, token):
        assert secret not in text
