"""Signing in to the pages: Django's session login behind the same rate limits as the API's
token endpoint and the admin's sign-in (``games.api.throttles``): per client address and per
username; over them the page says how long to wait (429 with ``Retry-After``)."""

from __future__ import annotations

import math

from django.contrib.auth import views as auth_views
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from games.api.throttles import SIGN_IN_THROTTLES

sign_in_form = auth_views.LoginView.as_view(
    template_name="web/registration/login.html", redirect_authenticated_user=True
)


def sign_in(request: HttpRequest) -> HttpResponse:
    if request.method == "POST":
        for throttle_class in SIGN_IN_THROTTLES:
            throttle = throttle_class()
            if not throttle.allow_request(request, None):  # type: ignore[arg-type]
                wait = math.ceil(throttle.wait() or 1)
                response = render(
                    request, "web/registration/throttled.html", {"wait": wait}, status=429
                )
                response["Retry-After"] = str(wait)
                return response
    return sign_in_form(request)
