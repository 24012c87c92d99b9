"""The lobby's wait lists: the ring games running, the player's place on their lists, and a
seat offered to them with its countdown. Join, leave, accept and decline call the services the
API's wait-list endpoints call (``games.services.waitlist`` and ``offers``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.urls import path, reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games import floor_selectors
from games.models import Player
from games.services import offers, waitlist
from web.games import game_name
from web.views.common import (
    after_action,
    fingerprint,
    live_region,
    posted_number,
    refusals_as_pages,
    sign_in_required,
)
from web.views.players import player_of, player_required

MAX_CHIPS = 10**12
"""The largest buy-in a form may name (the API's bound)."""


def _lists(player: Player | None) -> dict[str, Any]:
    mine = floor_selectors.my_entries(player) if player is not None else []
    by_game = {entry["game"]: entry for entry in mine}
    games = []
    for game in floor_selectors.running_games():
        detail = floor_selectors.game_detail(game)
        games.append({**detail, "game_name": game_name(game.variant), "mine": by_game.get(game.id)})
    limits = {game["id"]: (game["buy_in_min"], game["buy_in_max"]) for game in games}
    table_names = {table["id"]: table["name"] for game in games for table in game["tables"]}
    for entry in mine:
        wait = entry["estimated_wait_seconds"]
        entry["wait_minutes"] = -(-wait // 60) if wait else None
        offer = entry["offer"]
        if offer is not None:
            entry["offer_deadline_ms"] = int(offer["expires_at"].timestamp() * 1000)
            entry["offer_table"] = table_names.get(offer["table"], offer["table"])
            entry["buy_in_min"], entry["buy_in_max"] = limits.get(entry["game"], (1, MAX_CHIPS))
    return {"player": player, "games": games, "offers": [e for e in mine if e["offer"]]}


def waitlists_region(request: HttpRequest, message: str = "", status: int = 200) -> HttpResponse:
    """The live region of the lobby's wait lists (polled every two seconds)."""
    player = player_of(request)
    lists = _lists(player)
    return live_region(
        request,
        region_id="waitlists",
        url=reverse("web:waitlists-live"),
        version=fingerprint(lists["games"], message),
        template="web/play/waitlists.html",
        context=lambda: {**lists, "message": message, "message_is_error": status >= 400},
        every="2s",
        status=status,
    )


@sign_in_required
@refusals_as_pages
def waitlists_live(request: HttpRequest) -> HttpResponse:
    return waitlists_region(request)


def _action(request: HttpRequest, done: str, run: Callable[[], Any]) -> HttpResponse:
    return after_action(
        request,
        done=done,
        run=run,
        page_url=reverse("web:lobby"),
        region=lambda message, status: waitlists_region(request, message, status),
    )


@sign_in_required
@require_POST
@refusals_as_pages
def waitlist_join(request: HttpRequest, game_id: int) -> HttpResponse:
    player = player_required(request)
    return _action(
        request,
        _("You are on the list: a seat is offered to you here when your turn comes."),
        lambda: waitlist.entry_join(game_id=floor_selectors.get_game(game_id).id, player=player),
    )


@sign_in_required
@require_POST
@refusals_as_pages
def waitlist_leave(request: HttpRequest, entry_id: int) -> HttpResponse:
    player = player_required(request)
    return _action(
        request,
        _("You left the list."),
        lambda: waitlist.entry_leave(
            entry_id=entry_id, caller=player, by=request.user, staff=False, reason=""
        ),
    )


@sign_in_required
@require_POST
@refusals_as_pages
def offer_accept(request: HttpRequest, entry_id: int) -> HttpResponse:
    player = player_required(request)
    taken: dict[str, int] = {}

    def accept() -> None:
        buy_in = posted_number(request, "buy_in", _("the buy-in"), low=1, high=MAX_CHIPS)
        offer = offers.offer_accept(entry_id=entry_id, caller=player, staff=False, buy_in=buy_in)
        taken["table"] = offer.table_id

    response = _action(request, _("You took the seat."), accept)
    if "table" in taken:  # seated: the table is where the player goes next
        table_url = reverse("web:table", args=[taken["table"]])
        if request.htmx:
            response["HX-Redirect"] = table_url
        else:
            response["Location"] = table_url
    return response


@sign_in_required
@require_POST
@refusals_as_pages
def offer_decline(request: HttpRequest, entry_id: int) -> HttpResponse:
    player = player_required(request)
    return _action(
        request,
        _("You turned the seat down: the next name is called."),
        lambda: offers.offer_decline(entry_id=entry_id, caller=player, staff=False),
    )


urlpatterns = [
    path("play/waitlists/live/", waitlists_live, name="waitlists-live"),
    path("play/games/<int:game_id>/join/", waitlist_join, name="waitlist-join"),
    path("play/waitlist/<int:entry_id>/leave/", waitlist_leave, name="waitlist-leave"),
    path("play/waitlist/<int:entry_id>/accept/", offer_accept, name="offer-accept"),
    path("play/waitlist/<int:entry_id>/decline/", offer_decline, name="offer-decline"),
]
