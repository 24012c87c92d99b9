"""What every page shares: refusals shown as pages, live partials that answer 204 when
nothing changed, and actions that work with htmx and without JavaScript."""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable
from functools import wraps
from typing import Any
from urllib.parse import quote

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render, resolve_url
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django_htmx.http import HttpResponseClientRedirect

from clubs.access import can_direct
from games.errors import Forbidden, Invalid
from refusals import Refusal
from tourney import selectors as tourney_selectors
from tourney.models import Tournament
from web.codes import Code

View = Callable[..., HttpResponse]


def server_now_ms() -> int:
    return int(time.time() * 1000)


MAX_ID = 2**63 - 1
"""The largest id a form may name (a 64-bit key): a larger one is refused, not looked up."""


def parsed_int(text: str, what: str) -> int:
    """A form's whole number, or a refusal saying one is needed."""
    try:
        return int(text)
    except ValueError as error:
        raise Invalid(
            _("%(what)s must be a whole number") % {"what": what}, code=Code.INVALID
        ) from error


def whole_number(text: str, what: str, *, low: int, high: int) -> int:
    """A form's whole number within ``low..high`` (the API's bounds for the same value), or a
    refusal saying what to give (a larger one would overflow a column: a 500)."""
    number = parsed_int(text, what)
    if not low <= number <= high:
        raise Invalid(
            _("%(what)s must be from %(low)s to %(high)s")
            % {"what": what, "low": low, "high": high},
            code=Code.INVALID,
        )
    return number


def posted_number(request: HttpRequest, name: str, what: str, *, low: int, high: int) -> int:
    """The POSTed field ``name`` as a whole number within ``low..high`` (``whole_number``)."""
    return whole_number(request.POST.get(name, ""), what, low=low, high=high)


def refusals_as_pages(view: View) -> View:
    """Render a service's refusal (no such tournament, not allowed...) as an error page with
    its status, instead of Django's JSON error handlers meant for the API. Asked for by a live
    region (htmx), the page replaces the whole page, not the region."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        try:
            return view(request, *args, **kwargs)
        except Refusal as error:
            page = render(request, "web/error.html", {"error": error}, status=error.status)
            if request.htmx:
                page["HX-Retarget"], page["HX-Reswap"] = "body", "innerHTML"
            return page

    return wrapper


def _current_page(request: HttpRequest) -> str | None:
    """The page htmx says the browser is on (``HX-Current-URL``), if it is on this site."""
    try:
        return request.htmx.current_url_abs_path
    except ValueError:  # not a URL ("http://["): the header is the client's, not htmx's
        return None


def sign_in_required(view: View) -> View:
    """Pages for signed-in users. A live region polled after the session ended sends the
    whole page to the sign-in page (an htmx redirect) instead of drawing it in the region."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if request.user.is_authenticated:
            return view(request, *args, **kwargs)
        if request.htmx:
            page = _current_page(request) or request.get_full_path()
            login = resolve_url(settings.LOGIN_URL)
            return HttpResponseClientRedirect(f"{login}?next={quote(page)}")
        return redirect_to_login(request.get_full_path())

    return wrapper


def fingerprint(*parts: Any) -> str:
    """A short digest of what a live region shows: the browser sends it back when polling."""
    text = json.dumps(parts, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def live_region(
    request: HttpRequest,
    *,
    region_id: str,
    url: str,
    version: str,
    template: str,
    context: Callable[[], dict[str, Any]],
    every: str = "1s",
    status: int = 200,
) -> HttpResponse:
    """A region of a page that polls ``url`` and is replaced when it changed.

    The browser names the ``version`` it shows; if it is still current the answer is an empty
    204 (htmx keeps the region), so an idle poll costs one cheap fingerprint. Every answer
    carries the server's clock (``X-Server-Now``) for the countdowns.
    """
    if request.GET.get("v") == version and status == 200:
        response = HttpResponse(status=204)
    else:
        body = render_to_string(template, context(), request=request)
        response = render(
            request,
            "web/live.html",
            {
                "region_id": region_id,
                "url": url,
                "version": version,
                "every": every,
                "body": mark_safe(body),  # our own template's output, already escaped
            },
            status=status,
        )
    response["X-Server-Now"] = str(server_now_ms())
    response["Cache-Control"] = "no-store"
    return response


def after_action(
    request: HttpRequest,
    *,
    done: str,
    run: Callable[[], Any],
    page_url: str,
    region: Callable[[str, int], HttpResponse],
) -> HttpResponse:
    """Run a service for a POSTed form. With htmx, answer with the updated region (a refusal
    shown in it with the refusal's status); without JavaScript, redirect back to the page with
    a message."""
    try:
        run()
    except Refusal as error:
        if request.htmx:
            return region(error.message, error.status)
        messages.error(request, error.message)
        return redirect(page_url)
    if request.htmx:
        return region(done, 200)
    if done:
        messages.success(request, done)
    return redirect(page_url)


def tournament_directed(request: HttpRequest, tournament_id: int) -> Tournament:
    """The tournament, if the caller may direct it (staff, or its club's director); a 404
    for one they do not see, a 403 for one they see but do not direct (as the API)."""
    tournament = tourney_selectors.tournament_seen_get(request.user, tournament_id)
    if not can_direct(request.user, tournament.club_id):
        raise Forbidden(
            _("only staff or a director of this tournament's club can direct it"),
            code=Code.NOT_DIRECTOR,
        )
    return tournament
