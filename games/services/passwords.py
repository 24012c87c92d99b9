"""Passwords nobody but their owner knows: staff create a person's account without one and hand
over a one-time link to set it; the owner changes it knowing the old one.

A set-password link is Django's password-reset token (``default_token_generator``): it is
signed with the secret key over the account's password hash and last sign-in, so it stops
working as soon as a password is set, and after ``PASSWORD_RESET_TIMEOUT`` seconds. Staff get
a link only for an account that has no password yet: once its owner chose one, nobody else can
(an account someone else can sign in as protects nobody, e.g. its client seed). Setting or
changing a password signs every API client of the account out (its token is replaced).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.contrib.auth.tokens import default_token_generator
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_decode, urlsafe_base64_encode
from django.utils.translation import gettext as _
from rest_framework.authtoken.models import Token

from games.codes import Code
from games.errors import Conflict, Invalid
from games.models import Player
from games.services import sign_in


@dataclass(frozen=True, slots=True)
class PasswordLink:
    """What a set-password link carries (the page's URL is built from both) and its end."""

    uid: str
    token: str
    expires_at: datetime


def password_link_create(*, player: Player) -> PasswordLink:
    """A one-time link for ``player``'s owner to set the account's first password (staff
    only, checked by the caller)."""
    if player.bot:
        raise Invalid(_("a bot never signs in: it has no password"), code=Code.BOT_NO_PASSWORD)
    user = player.user
    if user.has_usable_password():
        raise Conflict(
            _("the account has a password already: only its owner can change it"),
            code=Code.PASSWORD_SET,
        )
    return PasswordLink(
        uid=urlsafe_base64_encode(force_bytes(user.pk)),
        token=default_token_generator.make_token(user),
        expires_at=timezone.now() + timedelta(seconds=settings.PASSWORD_RESET_TIMEOUT),
    )


def password_link_user(*, uid: str, token: str) -> Any:
    """The account a set-password link is for, while the link works; else a refusal."""
    try:
        user = get_user_model().objects.get(pk=int(urlsafe_base64_decode(uid)))
    except (ValueError, OverflowError, get_user_model().DoesNotExist):
        user = None
    if user is None or not default_token_generator.check_token(user, token):
        raise Invalid(
            _(
                "this set-password link does not work: it was used already, has "
                "expired or is mistyped; ask staff for a new one"
            ),
            code=Code.BAD_PASSWORD_LINK,
        )
    return user


def password_set_by_link(*, uid: str, token: str, password: str) -> str:
    """Set the password of the account the link is for; the link stops working. Returns the
    account's API token."""
    with transaction.atomic():
        user = password_link_user(uid=uid, token=token)
        return _password_set(user, password)


def password_change(*, user: Any, old_password: str, new_password: str, address: str) -> str:
    """Change ``user``'s password, given the old one. Wrong old passwords count against the
    sign-in limits of ``address`` (``games.services.sign_in``), as a sign-in would. Returns
    the new API token: every client that used the old one is signed out."""
    if sign_in.password_checked(
        address=address,
        username=user.get_username(),
        check=lambda: user.check_password(old_password) or None,
    ):
        return _password_set(user, new_password)
    raise Invalid(_("the current password is wrong"), code=Code.WRONG_PASSWORD)


def _password_set(user: Any, password: str) -> str:
    try:
        validate_password(password, user)
    except ValidationError as error:
        raise Invalid(
            _("the password is too weak"), code=Code.WEAK_PASSWORD, detail=error.messages
        ) from error
    with transaction.atomic():
        user.set_password(password)
        user.save(update_fields=["password"])
        Token.objects.filter(user=user).delete()
        return str(Token.objects.create(user=user).key)
