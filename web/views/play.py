"""The player's pages: the lobby (tables to sit at, tournaments to register for) and the
table (play with buttons, live updates). Every action is a call into ``games.services`` or
``tourney.services``, exactly as the API makes it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games import selectors as table_selectors
from games.errors import Conflict
from games.models import TableKind
from games.services import client_seeds, hands, seating
from refusals import Refusal
from tourney.models import Status
from tourney.selectors import tournament_seen_get, tournaments_seen
from tourney.services.commands import registration
from web.games import game_name
from web.tableview import table_page
from web.views.common import (
    after_action,
    live_region,
    parsed_int,
    refusals_as_pages,
    sign_in_required,
)
from web.views.players import player_of, player_required
from web.views.purchases import purchases_open
from web.views.waitlists import waitlists_region

LOBBY_TOURNAMENTS = [Status.REGISTERING, Status.RUNNING, Status.PAUSED]


def _int(request: HttpRequest, name: str, what: str) -> int:
    return parsed_int(request.POST.get(name, ""), what)


@sign_in_required
@refusals_as_pages
def lobby(request: HttpRequest) -> HttpResponse:
    player = player_of(request)
    tables = []
    ring = (
        table_selectors.table_list(request.user)
        .filter(kind=TableKind.RING)
        .exclude(status="closed")
    )
    for table in ring.prefetch_related("seats"):
        seats = list(table.seats.all())
        tables.append(
            {
                "table": table,
                "game": game_name(table.variant),
                "free": [s.number for s in seats if s.player_id is None],
                "mine": player is not None and any(s.player_id == player.id for s in seats),
            }
        )
    tournaments = tournaments_seen(request.user).filter(status__in=LOBBY_TOURNAMENTS).order_by("id")
    mine = set()
    seated_at: dict[int, int] = {}
    if player is not None:
        mine = set(
            player.entries.filter(status__in=["registered", "playing"]).values_list(
                "tournament_id", flat=True
            )
        )
        for seat in player.seats.filter(table__kind=TableKind.TOURNAMENT).select_related(
            "table__tournament_table"
        ):
            seated_at[seat.table.tournament_table.tournament_id] = seat.table_id
    return render(
        request,
        "web/play/lobby.html",
        {
            "player": player,
            "tables": tables,
            "tournaments": [
                {
                    "t": t,
                    "mine": t.id in mine,
                    "table_id": seated_at.get(t.id),
                    "purchases": purchases_open(t, player),
                }
                for t in tournaments
            ],
            "waitlists": waitlists_region(request).content.decode(),
        },
    )


def _table_region(
    request: HttpRequest, table_id: int, message: str = "", status: int = 200
) -> HttpResponse:
    table_selectors.table_seen_check(request.user, table_id)
    viewer = player_of(request)
    return live_region(
        request,
        region_id="table-live",
        url=reverse("web:table-live", args=[table_id]),
        version=table_selectors.table_version(table_id, viewer),
        template="web/play/table_live.html",
        context=lambda: {
            **table_page(table_id, viewer),
            "message": message,
            "message_is_error": status >= 400,
        },
        status=status,
    )


@sign_in_required
@refusals_as_pages
def table(request: HttpRequest, table_id: int) -> HttpResponse:
    table_selectors.table_seen_check(request.user, table_id)
    table = table_selectors.get_table(table_id)
    return render(
        request,
        "web/play/table.html",
        {"table": table, "region": _table_region(request, table_id).content.decode()},
    )


@sign_in_required
@refusals_as_pages
def table_live(request: HttpRequest, table_id: int) -> HttpResponse:
    return _table_region(request, table_id)


def _table_action(
    request: HttpRequest, table_id: int, done: str, run: Callable[[], Any]
) -> HttpResponse:
    table_selectors.table_seen_check(request.user, table_id)
    return after_action(
        request,
        done=done,
        run=run,
        page_url=reverse("web:table", args=[table_id]),
        region=lambda message, status: _table_region(request, table_id, message, status),
    )


@sign_in_required
@require_POST
@refusals_as_pages
def table_act(request: HttpRequest, table_id: int) -> HttpResponse:
    player = player_required(request)

    def act() -> None:
        amount = _int(request, "amount", _("the amount")) if request.POST.get("amount") else None
        hands.hand_act(
            table_id=table_id,
            player=player,
            action=request.POST.get("action", ""),
            amount=amount,
            seq=_int(request, "seq", _("the hand's sequence number")),
        )

    return _table_action(request, table_id, "", act)


@sign_in_required
@require_POST
@refusals_as_pages
def table_sit(request: HttpRequest, table_id: int) -> HttpResponse:
    player = player_required(request)

    def sit() -> None:
        seating.seat_sit(
            table_id=table_id,
            player=player,
            seat_number=_int(request, "seat", _("the seat")),
            buy_in=_int(request, "buy_in", _("the buy-in")),
        )

    return _table_action(
        request, table_id, _("You sat down: you are dealt in on the next hand."), sit
    )


@sign_in_required
@require_POST
@refusals_as_pages
def table_client_seed(request: HttpRequest, table_id: int) -> HttpResponse:
    """The client seed the page made for the next hand (fairness.js): 204 once held. A seed
    the table cannot take now (the hand started meanwhile, the player left, one was sent
    already) is not an error for the page, which sends a fresh one for the next commitment:
    200 with the reason, nothing held."""
    try:
        client_seeds.client_seed_send(
            table_id=table_id,
            player=player_required(request),
            commitment_hex=request.POST.get("commitment", ""),
            client_seed=request.POST.get("client_seed", ""),
        )
    except Conflict as not_now:
        return JsonResponse({"held": False, "code": not_now.code, "message": not_now.message})
    return HttpResponse(status=204)


@sign_in_required
@require_POST
@refusals_as_pages
def table_leave(request: HttpRequest, table_id: int) -> HttpResponse:
    player = player_required(request)
    return _table_action(
        request,
        table_id,
        _("You left the table (or leave when this hand ends)."),
        lambda: seating.seat_leave(table_id=table_id, player=player),
    )


@sign_in_required
@require_POST
@refusals_as_pages
def table_sit_out(request: HttpRequest, table_id: int, sitting_out: bool) -> HttpResponse:
    player = player_required(request)
    done = _("You are sitting out from the next hand.") if sitting_out else _("You are back in.")
    return _table_action(
        request,
        table_id,
        done,
        lambda: (
            seating.seat_sit_out(table_id=table_id, player=player, sitting_out=sitting_out)
            if sitting_out
            else seating.seat_back(table_id=table_id, player=player)
        ),
    )


@sign_in_required
@require_POST
@refusals_as_pages
def tournament_register(request: HttpRequest, tournament_id: int, register: bool) -> HttpResponse:
    tournament_seen_get(request.user, tournament_id)
    player = player_required(request)
    service = registration.entry_register if register else registration.entry_unregister
    try:
        service(tournament_id=tournament_id, player_id=player.id)
    except Refusal as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("You are registered.") if register else _("You unregistered."))
    return redirect("web:lobby")


@require_POST
def deck_colours(request: HttpRequest) -> HttpResponse:
    """Choose the two-colour or the four-colour deck (kept in the session)."""
    request.session["four_colour"] = request.POST.get("four_colour") == "on"
    back = request.POST.get("next", "")
    if not back.startswith("/") or not url_has_allowed_host_and_scheme(
        back, {request.get_host()}, request.is_secure()
    ):
        back = reverse("web:lobby")
    return HttpResponseRedirect(back)  # a URL: redirect() would take "lobby" for a view name
