"""Player accounts."""

from __future__ import annotations

import pytest

from games.errors import Invalid
from games.services.players import player_create

pytestmark = pytest.mark.django_db


def test_a_bot_may_have_no_password_and_then_cannot_sign_in():
    bot = player_create(username="robo", password=None, display_name="Robo", bot="station")
    assert bot.is_bot
    assert not bot.user.has_usable_password()


def test_a_person_needs_a_password():
    with pytest.raises(Invalid, match="needs a password"):
        player_create(username="ann", password=None, display_name="Ann")
