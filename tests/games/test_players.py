"""Player accounts."""

from __future__ import annotations

import pytest

from games.services.players import player_create

pytestmark = pytest.mark.django_db


def test_a_bot_may_have_no_password_and_then_cannot_sign_in():
    bot = player_create(username="robo", password=None, display_name="Robo", bot="station")
    assert bot.is_bot
    assert not bot.user.has_usable_password()


def test_a_person_may_be_created_without_a_password_and_cannot_sign_in_until_setting_one():
    ann = player_create(username="ann", password=None, display_name="Ann")
    assert not ann.is_bot
    assert not ann.user.has_usable_password()
