"""The clock screen: no login, made for a TV on the wall (and readable on a phone), for the
tournaments every player sees (the house's and public clubs'); a members-only club's clock
shows to its members signed in (``clubs.access``), else it is a 404."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse

from tourney import selectors
from web.clockboard import clock_board, clock_fingerprint
from web.views.common import fingerprint, live_region, refusals_as_pages


def _region(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = selectors.tournament_seen_get(request.user, tournament_id)
    return live_region(
        request,
        region_id="clock",
        url=reverse("web:clock-live", args=[tournament_id]),
        version=fingerprint(clock_fingerprint(tournament)),
        template="web/clock/board.html",
        context=lambda: clock_board(tournament),
    )


@refusals_as_pages
def clock_page(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = selectors.tournament_seen_get(request.user, tournament_id)
    region = _region(request, tournament_id)
    return render(
        request,
        "web/clock/page.html",
        {"tournament": tournament, "region": region.content.decode()},
    )


@refusals_as_pages
def clock_live(request: HttpRequest, tournament_id: int) -> HttpResponse:
    return _region(request, tournament_id)
