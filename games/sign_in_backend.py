"""The authentication backend: Django's own, behind the sign-in limits (``games.services.sign_in``).

Every password sign-in goes through ``django.contrib.auth.authenticate`` with its request: the
API's token, the pages' sign-in and the admin's. Checking the limits here, not in each view,
keeps a new sign-in form from forgetting them. Over a limit, ``SignInThrottled`` leaves
``authenticate`` (it is not a ``PermissionDenied``, which Django would turn into a wrong
password) and each entry point answers 429 with ``Retry-After``. A call without a request (a
management command, a test's ``client.login``) has no address and is not limited.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.base_user import AbstractBaseUser
from django.http import HttpRequest

from api_conventions.client_address import client_ip
from games.services import sign_in


class SignInLimitsBackend(ModelBackend):
    """``ModelBackend`` whose password check counts failures per address and username."""

    def authenticate(
        self,
        request: HttpRequest | None,
        username: str | None = None,
        password: str | None = None,
        **kwargs: Any,
    ) -> AbstractBaseUser | None:
        if request is None or not isinstance(username, str) or not username:
            return super().authenticate(request, username, password, **kwargs)
        return sign_in.password_checked(
            address=client_ip(request),
            username=username,
            check=lambda: super(SignInLimitsBackend, self).authenticate(
                request, username, password, **kwargs
            ),
        )
