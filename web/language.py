"""The pages' language: the player's saved choice, then the browser's cookie, then its
Accept-Language (Django's ``LocaleMiddleware`` does those two), else English.

The saved choice (``Player.language``) is copied into the session at sign-in and whenever the
player picks a language, so a page costs no query for it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.views.decorators.http import require_POST
from django.views.i18n import set_language

from games.models import Player

SESSION_KEY = "stud_language"
"""The signed-in player's saved language, as the session keeps it."""


def supported(code: str) -> bool:
    return code in dict(settings.LANGUAGES)


def session_language_set(*, request: HttpRequest, user: Any, **_: Any) -> None:
    """At sign-in (``user_logged_in``, connected in ``web.apps``): the player's saved
    language, if any, becomes the session's."""
    saved = Player.objects.filter(user_id=user.pk).values_list("language", flat=True).first()
    if saved and supported(saved):
        request.session[SESSION_KEY] = saved


class SavedLanguageMiddleware:
    """After the authentication: a signed-in player's saved language beats the cookie and
    Accept-Language that ``LocaleMiddleware`` read."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        session = getattr(request, "session", None)
        saved = session.get(SESSION_KEY) if session is not None else None
        if saved and supported(saved) and request.user.is_authenticated:
            translation.activate(saved)
            request.LANGUAGE_CODE = saved
        return self.get_response(request)


@require_POST
def language_choose(request: HttpRequest) -> HttpResponse:
    """Django's ``set_language`` (the cookie, back to ``next``), and for a signed-in player
    the choice saved on their profile and in the session."""
    response = set_language(request)
    code = request.POST.get("language", "")
    if supported(code) and request.user.is_authenticated:
        Player.objects.filter(user_id=request.user.pk).update(language=code)
        request.session[SESSION_KEY] = code
    return response
