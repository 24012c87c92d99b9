"""API tokens that bring the caller's player profile along: nearly every endpoint needs it,
and reading it with the token saves a query on every request (a table poll made six)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from rest_framework import authentication, exceptions


class PlayerTokenAuthentication(authentication.TokenAuthentication):
    """DRF's token authentication (``Authorization: Token <key>``), the user's player profile
    read in the same query (``games.api.permissions.caller_player`` then asks for none)."""

    def authenticate_credentials(self, key: str) -> tuple[Any, Any]:
        model = self.get_model()
        try:
            token = model.objects.select_related("user__player").get(key=key)
        except model.DoesNotExist:
            raise exceptions.AuthenticationFailed(_("Invalid token.")) from None
        if not token.user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        return (token.user, token)
