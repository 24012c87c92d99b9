"""Rebuy, add-on and re-entry from the lobby while their windows are open: the buttons call
the services the API's purchase endpoints call (``tourney.services.commands``)."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import path
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from games.models import Player, Seat
from refusals import Refusal
from tourney.models import PAID, EntryStatus, Tournament
from tourney.selectors import tournament_seen_get
from tourney.services.commands import purchases, registration
from tourney.windows import add_on_open, re_entry_open, rebuy_open
from web.views.common import refusals_as_pages, sign_in_required
from web.views.players import player_required


@dataclass(frozen=True)
class Purchase:
    """A button the lobby shows: what it buys, its price and the chips it brings."""

    kind: str  # the URL's name: "rebuy", "add-on", "re-enter"
    label: str
    price: int
    chips: int


def purchases_open(tournament: Tournament, player: Player | None) -> list[Purchase]:
    """What ``player`` may buy in ``tournament`` now (the service still checks everything)."""
    if player is None or tournament.deal:
        return []
    entries = list(tournament.entries.filter(player=player, status__in=PAID))
    playing = next((e for e in entries if e.status == EntryStatus.PLAYING), None)
    found = []
    if playing is not None:
        stack = (
            Seat.objects.filter(player=player, table__tournament_table__tournament=tournament)
            .values_list("stack", flat=True)
            .first()
        )
        small_enough = stack is not None and stack <= tournament.starting_stack
        if rebuy_open(tournament) and playing.rebuys < tournament.rebuy_max and small_enough:
            found.append(
                Purchase("rebuy", _("Rebuy"), tournament.rebuy_price, tournament.rebuy_chips)
            )
        if add_on_open(tournament) and not playing.add_ons:
            found.append(
                Purchase("add-on", _("Add-on"), tournament.add_on_price, tournament.add_on_chips)
            )
    elif (
        entries
        and all(e.status == EntryStatus.ELIMINATED for e in entries)
        and len(entries) - 1 < tournament.re_entry_max
        and re_entry_open(tournament)
    ):
        found.append(
            Purchase("re-enter", _("Re-enter"), tournament.buy_in, tournament.starting_stack)
        )
    return found


SERVICES = {
    "rebuy": (purchases.entry_rebuy, gettext_lazy("You rebought: the chips are on your stack.")),
    "add-on": (purchases.entry_add_on, gettext_lazy("You took the add-on.")),
    "re-enter": (registration.entry_re_enter, gettext_lazy("You re-entered: you are seated.")),
}


@sign_in_required
@require_POST
@refusals_as_pages
def tournament_purchase(request: HttpRequest, tournament_id: int, kind: str) -> HttpResponse:
    tournament_seen_get(request.user, tournament_id)
    player = player_required(request)
    service, done = SERVICES[kind]
    try:
        service(tournament_id=tournament_id, player_id=player.id)
    except Refusal as error:
        messages.error(request, error.message)
    else:
        messages.success(request, str(done))
    return redirect("web:lobby")


urlpatterns = [
    path(
        f"play/tournaments/<int:tournament_id>/{kind}/",
        tournament_purchase,
        {"kind": kind},
        name=f"tournament-{kind}",
    )
    for kind in SERVICES
]
