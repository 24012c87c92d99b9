"""Signing in to the pages: Django's session login; failed attempts slow down like the API's
(``games.services.sign_in``, applied by the authentication backend): over the limit the page
says how long to wait (429 with ``Retry-After``)."""

from __future__ import annotations

from django.contrib.auth import views as auth_views
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from games.services.sign_in import SignInThrottled

sign_in_form = auth_views.LoginView.as_view(
    template_name="web/registration/login.html", redirect_authenticated_user=True
)


def throttled_page(request: HttpRequest, throttled: SignInThrottled) -> HttpResponse:
    """429: how long to wait before the next attempt."""
    response = render(
        request, "web/registration/throttled.html", {"wait": throttled.wait}, status=429
    )
    response["Retry-After"] = str(throttled.wait)
    return response


def sign_in(request: HttpRequest) -> HttpResponse:
    try:
        return sign_in_form(request)
    except SignInThrottled as throttled:
        return throttled_page(request, throttled)
