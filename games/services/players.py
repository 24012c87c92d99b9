"""Player accounts: a Django user with a display name, optionally a labelled bot."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from games.codes import Code
from games.errors import Conflict, Invalid
from games.models import BotKind, Player


def player_create(
    *, username: str, password: str | None, display_name: str, bot: str = ""
) -> Player:
    """Create a user and its player profile (staff only, checked by the caller).

    The password goes through Django's configured validators; a taken username is a 409.
    Without a password (None) the account cannot sign in: a bot never does (and skipping the
    deliberately slow password hash makes seating a thousand bots quick), a person sets theirs
    with a one-time link (``games.services.passwords``), so staff never know it.
    """
    if bot and bot not in BotKind.values:
        raise Invalid(f"unknown bot kind {bot!r}: use one of {', '.join(BotKind.values)}")
    user_model = get_user_model()
    if password is not None:
        try:
            validate_password(password, user_model(username=username))
        except ValidationError as error:
            raise Invalid(
                "the password is too weak", code=Code.WEAK_PASSWORD, detail=error.messages
            ) from error
    if user_model.objects.filter(username=username).exists():
        raise Conflict(f"username {username!r} is taken", code=Code.USERNAME_TAKEN)
    try:
        with transaction.atomic():
            user = user_model.objects.create_user(username=username, password=password)
            return Player.objects.create(user=user, display_name=display_name, bot=bot)
    except IntegrityError as error:
        raise Conflict(f"username {username!r} is taken", code=Code.USERNAME_TAKEN) from error
