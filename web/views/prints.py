"""Printed sheets for a live room, from the console's tournament page: the seat cards of the
draw (one card a player, cut along the lines), the payout sheet and the results. Print CSS
(``app.css``, ``@media print``) drops the navigation and keeps each card on one page."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import path

from tourney import selectors
from web.views.common import refusals_as_pages, sign_in_required, tournament_directed


@sign_in_required
@refusals_as_pages
def seat_cards(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = tournament_directed(request, tournament_id)
    state = selectors.tournament_state(tournament)
    cards = [
        {**seat, "table": table["number"]}
        for table in state["tables"]
        for seat in sorted(table["seats"], key=lambda seat: seat["seat"])
    ]
    return render(request, "web/print/seat_cards.html", {"tournament": tournament, "cards": cards})


@sign_in_required
@refusals_as_pages
def payout_sheet(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = tournament_directed(request, tournament_id)
    return render(
        request,
        "web/print/payouts.html",
        {
            "tournament": tournament,
            "state": selectors.tournament_state(tournament),
            "payouts": selectors.payouts_list(tournament),
            "deal": selectors.deal_summary(tournament),
        },
    )


@sign_in_required
@refusals_as_pages
def results_sheet(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = tournament_directed(request, tournament_id)
    return render(
        request,
        "web/print/results.html",
        {
            "tournament": tournament,
            "results": [r for r in selectors.results_list(tournament) if r["place"]],
            "deal": selectors.deal_summary(tournament),
        },
    )


urlpatterns = [
    path("console/tournaments/<int:tournament_id>/print/seats/", seat_cards, name="print-seats"),
    path(
        "console/tournaments/<int:tournament_id>/print/payouts/",
        payout_sheet,
        name="print-payouts",
    ),
    path(
        "console/tournaments/<int:tournament_id>/print/results/",
        results_sheet,
        name="print-results",
    ),
]
