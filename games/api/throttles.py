"""Rate limits on signing in: per client address, and per username from any address.

A password can be guessed from one machine (the address limit stops that) or from many (the
username limit). Over the limit the API answers 429 with ``Retry-After``. Rates are in
``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]`` under ``sign_in`` and ``sign_in_username``, read
at each request so that settings changes apply at once.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping

from rest_framework.request import Request
from rest_framework.settings import api_settings
from rest_framework.throttling import SimpleRateThrottle
from rest_framework.views import APIView


class _SettingsRateThrottle(SimpleRateThrottle):
    def get_rate(self) -> str | None:
        rate: str | None = api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)
        return rate


class SignInAddressThrottle(_SettingsRateThrottle):
    """Sign-in attempts from one client address."""

    scope = "sign_in"

    def get_cache_key(self, request: Request, view: APIView) -> str | None:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class SignInUsernameThrottle(_SettingsRateThrottle):
    """Sign-in attempts for one username, from any address."""

    scope = "sign_in_username"

    def get_cache_key(self, request: Request, view: APIView) -> str | None:
        # request.data for the API, the form for the admin's sign-in page (config.admin_login)
        data = request.data if hasattr(request, "data") else request.POST
        username = data.get("username") if isinstance(data, Mapping) else None
        if not isinstance(username, str) or not username:
            return None  # refused as invalid input by the view, not counted here
        ident = hashlib.sha256(username.casefold().encode()).hexdigest()[:32]
        return self.cache_format % {"scope": self.scope, "ident": ident}


SIGN_IN_THROTTLES = [SignInAddressThrottle, SignInUsernameThrottle]
