"""API tokens that bring the caller's player profile along: nearly every endpoint needs it,
and reading it with the token saves a query on every request (a table poll made six)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from rest_framework import authentication, exceptions

from games import rows


class PlayerTokenAuthentication(authentication.TokenAuthentication):
    """DRF's token authentication (``Authorization: Token <key>``), the user's player profile
    read in the same statement (``games.api.permissions.caller_player`` then asks for none),
    its SQL built once (``games.rows.token``): every table poll authenticates."""

    def authenticate_credentials(self, key: str) -> tuple[Any, Any]:
        token = rows.token(key)
        if token is None:
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        if not token.user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        return (token.user, token)
