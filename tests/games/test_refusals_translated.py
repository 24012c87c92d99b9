"""The API's refusals follow Accept-Language (English, Arabic, Greek); the code never does."""

from __future__ import annotations

import re

import pytest
from django.utils import translation

from games.codes import Code as GamesCode
from games.errors import Invalid
from games.models import Table
from games.services.tables import table_create
from tests.games.test_api_refusals import hand_in_progress  # noqa: F401 (a fixture)
from tests.games.test_api_support import client_for, table_state, table_url

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("language", "message"),
    [("en", "it is not your turn"), ("ar", "ليس دورك"), ("el", "δεν είναι η σειρά σου")],
)
def test_acting_out_of_turn_is_refused_in_the_readers_language(
    hand_in_progress,  # noqa: F811
    language,
    message,
):
    table, _actor, other = hand_in_progress
    before = table_state(table.id)

    response = client_for(other).post(
        table_url(table, "act"), {"action": "fold"}, format="json", HTTP_ACCEPT_LANGUAGE=language
    )

    assert response.status_code == 403
    assert response.json()["error"] == {"code": "not_your_turn", "message": message, "detail": None}
    assert table_state(table.id) == before


@pytest.mark.parametrize(
    ("language", "message"),
    [
        (
            "en",
            "check is not allowed: the bring-in must bring in or complete "
            "(legal: bring_in, complete)",
        ),
        (
            "ar",
            "تراجع غير مسموح: على صاحب رسم الاشتراك أن يدفع رسم الاشتراك أو يُكمل الرهان "
            "(المسموح: رسم الاشتراك، إكمال الرهان)",
        ),
        (
            "el",
            "check δεν επιτρέπεται: ο παίκτης του bring-in πρέπει να κάνει bring-in ή complete "
            "(επιτρέπονται: bring-in, complete)",
        ),
    ],
)
def test_the_engines_refusal_names_the_rule_and_the_actions_in_the_readers_language(
    hand_in_progress,  # noqa: F811
    language,
    message,
):
    table, actor, _other = hand_in_progress
    before = table_state(table.id)

    response = client_for(actor).post(
        table_url(table, "act"), {"action": "check"}, format="json", HTTP_ACCEPT_LANGUAGE=language
    )

    assert response.status_code == 400
    assert response.json()["error"]["code"] == "illegal_action"
    assert response.json()["error"]["message"] == message
    assert table_state(table.id) == before


@pytest.mark.parametrize(
    ("language", "variant", "bring_in", "english"),
    [
        ("ar", "stud_hi", 5, "stakes: need"),
        ("el", "stud_hi", 5, "stakes: need"),
        ("ar", "omaha", 2, "variant must be one of"),
        ("el", "omaha", 2, "variant must be one of"),
    ],
)
def test_stakes_and_games_the_engine_refuses_are_refused_in_the_readers_language(
    language, variant, bring_in, english
):
    """The engine's stakes and house-rule refusals are templates too (``Refused``): a table
    created with a bring-in above the small bet, or a game that does not exist, is refused
    in the reader's language with the same code, and nothing is created."""
    with translation.override("en"), pytest.raises(Invalid) as in_english:
        table_create(name="t", variant=variant, ante=1, bring_in=bring_in, small_bet=4, big_bet=8)
    with translation.override(language), pytest.raises(Invalid) as refused:
        table_create(name="t", variant=variant, ante=1, bring_in=bring_in, small_bet=4, big_bet=8)

    assert in_english.value.message.startswith(english)
    assert refused.value.code == in_english.value.code == GamesCode.INVALID_RULES
    assert english not in refused.value.message
    assert re.findall(r"\d+", refused.value.message) == re.findall(r"\d+", in_english.value.message)
    assert not Table.objects.exists()
