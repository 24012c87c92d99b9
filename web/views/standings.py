"""The standings of a league season: the table, each event with its results, and how points
are made and counted. Read through ``leagues.access`` (a season of a club the caller is not
in is a 404) and ``leagues.selectors``, the same paths as the leagues API."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext_lazy

from leagues import access, selectors
from leagues.models import Season
from web.views.common import refusals_as_pages, sign_in_required
from web.words import word

FORMULAS = {
    "pokerstars": "10 * sqrt(n / k) * (1 + log10(b + 0.25))",
    "neau": "sqrt(n * b * b / e) / (k + 1)",
    "reverse_rank": "(n - k + 1) * {multiplier}",
    "table": gettext_lazy("fixed points by place: {points}"),
    "expression": "{expression}",
}
VARIABLES = gettext_lazy(
    "n entrants, k place, b buy-in, e what the player spent (buy-in, rebuys, add-ons)"
)


def formula_text(season: Season) -> str:
    """The season's points formula in words, with its parameters."""
    params: dict[str, Any] = {"multiplier": "1", **season.formula_params}
    if "points" in params:
        params["points"] = ", ".join(str(p) for p in params["points"])
    return str(FORMULAS.get(season.formula, season.formula)).format(**params)


@sign_in_required
@refusals_as_pages
def season_page(request: HttpRequest, season_id: int) -> HttpResponse:
    season = access.season_get(request.user, season_id)
    events = [
        {"event": event, "results": selectors.event_results(event)}
        for event in selectors.season_events(season)
    ]
    return render(
        request,
        "web/leagues/season.html",
        {
            "season": season,
            "standings": selectors.season_standings(season),
            "events": events,
            "formula": formula_text(season),
            "variables": VARIABLES,
            "finale": selectors.finale_field(season),
            "tie_breaks": [word(name) for name in season.tie_breaks],
        },
    )
