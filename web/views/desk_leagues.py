"""The desk's leagues: create a league in a club one directs, its seasons with the points
formula and a preview of the points it gives, and the season's events (a tournament of the
club attached). Staff run every league, a club's director their club's (``leagues.access``);
each form is read through the API's input serializer and calls the service its endpoint
calls (``leagues.api.views``)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _l
from django.views.decorators.http import require_http_methods, require_POST

from clubs.access import can_direct
from leagues import access, selectors
from leagues.api.serializers import (
    LeagueInputSerializer,
    PreviewInputSerializer,
    SeasonEventInputSerializer,
    SeasonInputSerializer,
)
from leagues.formulas import PRESETS
from leagues.models import League
from leagues.services import events, seasons
from refusals import Refusal
from tourney.models import Tournament
from web.views.common import refusals_as_pages, sign_in_required
from web.views.desk_forms import (
    Field,
    Form,
    club_choices,
    desk_required,
    form_errors,
    form_filled,
    form_read,
    form_refused,
)

FORMULA = [
    Field("formula", _l("Points formula"), kind="select", choices=[(p, p) for p in PRESETS]),
    Field("multiplier", _l("Multiplier (reverse_rank)"), kind="text"),
    Field("points", _l("Points by place (table)"), kind="list", help=_l("e.g. 10, 7, 5")),
    Field("expression", _l("Expression"), kind="text", help=_l("e.g. 10 * sqrt(n / k)")),
    Field("decimals", _l("Decimals (0 to 4)")),
]
PREVIEW = [
    Field("n", _l("Players in the preview")),
    Field("b", _l("Buy-in in the preview")),
]
SEASON = [
    Field("name", _l("Season name"), kind="text", required=True),
    Field("starts_on", _l("Starts on"), kind="date", required=True),
    Field("ends_on", _l("Ends on"), kind="date", required=True),
    *FORMULA,
    Field("participation_points", _l("Points for taking part"), kind="text"),
    Field("knockout_points", _l("Points a knockout"), kind="text"),
    Field("events_planned", _l("Events planned")),
    Field("best_of", _l("Best N events count (empty: all)")),
    Field("final_table_size", _l("Final table size")),
    Field("league_fee", _l("League fee an entry")),
    Field("pot_payout", _l("Pot payout percentages"), kind="list"),
    Field("finale_qualifiers", _l("Finale qualifiers")),
]
PARAMS = {"reverse_rank": "multiplier", "table": "points", "expression": "expression"}


def _formula_data(data: dict[str, Any]) -> dict[str, Any]:
    """The form's formula fields as the API's ``formula`` and ``formula_params``."""
    params = {name: data.pop(name) for name in set(PARAMS.values()) if name in data}
    wanted = PARAMS.get(str(data.get("formula")))
    if wanted in params:
        value = params[wanted]
        if wanted == "points":
            value = [int(p) if p.isdigit() else p for p in value]
        data["formula_params"] = {wanted: value}
    return data


def _league_fields(request: HttpRequest) -> list[Field]:
    return [
        Field("club_id", _l("Club"), kind="select", choices=club_choices(request), integer=True),
        Field("name", _l("League name"), kind="text", required=True),
    ]


def _leagues(request: HttpRequest, form: Form, status: int = 200) -> HttpResponse:
    leagues = [
        league
        for league in access.leagues_visible(request.user)
        if can_direct(request.user, league.club_id)
    ]
    return render(
        request, "web/desk/leagues.html", {"leagues": leagues, "form": form}, status=status
    )


@sign_in_required
@refusals_as_pages
@require_http_methods(["GET", "POST"])
def league_list(request: HttpRequest) -> HttpResponse:
    desk_required(request)
    if request.method == "GET":
        return _leagues(request, form_filled(_league_fields(request), {}))
    form, data = form_read(request, _league_fields(request), LeagueInputSerializer)
    if form.invalid:
        return _leagues(request, form, status=400)
    try:
        league = seasons.league_create(user=request.user, **data)
    except Refusal as error:
        return _leagues(request, form_refused(form, error), status=error.status)
    messages.success(request, _("League %(name)s is created.") % {"name": league.name})
    return redirect("web:desk-league", league_id=league.id)


def _directed_league(request: HttpRequest, league_id: int) -> League:
    desk_required(request)
    return access.league_get(request.user, league_id, direct=True)


def _league_page(
    request: HttpRequest,
    league: League,
    *,
    form: Form | None = None,
    preview: list[dict[str, Any]] | None = None,
    event_form: Form | None = None,
    status: int = 200,
) -> HttpResponse:
    if form is None:
        form = form_filled(SEASON + PREVIEW, {"formula": "pokerstars", "n": 20, "b": 100})
    season_list = list(league.seasons.order_by("-starts_on"))
    return render(
        request,
        "web/desk/league.html",
        {
            "league": league,
            "seasons": [{"season": s, "events": selectors.season_events(s)} for s in season_list],
            "form": form,
            "preview": preview,
            "event_form": event_form or form_filled(_event_fields(league), {}),
        },
        status=status,
    )


@sign_in_required
@refusals_as_pages
def league_page(request: HttpRequest, league_id: int) -> HttpResponse:
    return _league_page(request, _directed_league(request, league_id))


@sign_in_required
@refusals_as_pages
@require_POST
def season_new(request: HttpRequest, league_id: int) -> HttpResponse:
    """Create a season (``season_create``), or with "Preview the points" only show what the
    formula gives every place (``points_preview``), saving nothing."""
    league = _directed_league(request, league_id)
    form, data = form_read(request, SEASON + PREVIEW)
    data = _formula_data(data)
    if "preview" in request.POST:
        wanted = {"formula", "formula_params", "decimals", "n", "b"}
        checked = PreviewInputSerializer(data={k: v for k, v in data.items() if k in wanted})
        if form.invalid or not checked.is_valid():
            form_errors(form, {} if form.invalid else checked.errors)
            return _league_page(request, league, form=form, status=400)
        try:
            rows = seasons.points_preview(**checked.validated_data)
        except Refusal as error:
            return _league_page(request, league, form=form_refused(form, error), status=400)
        return _league_page(request, league, form=form, preview=rows)
    season_data = {k: v for k, v in data.items() if k not in ("n", "b")}
    checked = SeasonInputSerializer(data=season_data)
    if form.invalid or not checked.is_valid():
        form_errors(form, {} if form.invalid else checked.errors)
        return _league_page(request, league, form=form, status=400)
    try:
        season = seasons.season_create(league=league, **checked.validated_data)
    except Refusal as error:
        return _league_page(request, league, form=form_refused(form, error), status=error.status)
    messages.success(request, _("Season %(name)s is created.") % {"name": season.name})
    return redirect("web:desk-league", league_id=league.id)


def _event_fields(league: League) -> list[Field]:
    tournaments = Tournament.objects.filter(club_id=league.club_id).order_by("-id")[:300]
    return [
        Field(
            "season",
            _l("Season"),
            kind="select",
            choices=[(str(s.id), s.name) for s in league.seasons.order_by("-starts_on")],
            integer=True,
            required=True,
        ),
        Field(
            "tournament",
            _l("Tournament of the club"),
            kind="select",
            choices=[("", "")] + [(str(t.id), f"{t.name} (#{t.id})") for t in tournaments],
            integer=True,
            required=True,
        ),
        Field("played_on", _l("Played on (empty: its day)"), kind="date"),
    ]


@sign_in_required
@refusals_as_pages
@require_POST
def event_attach(request: HttpRequest, league_id: int) -> HttpResponse:
    """Attach a tournament of the club to a season (``event_attach_tournament``)."""
    league = _directed_league(request, league_id)
    form, data = form_read(request, _event_fields(league))
    season_id = data.pop("season", None)
    checked = SeasonEventInputSerializer(data=data)
    if form.invalid or not checked.is_valid():
        form_errors(form, {} if form.invalid else checked.errors)
        return _league_page(request, league, event_form=form, status=400)
    try:
        with transaction.atomic():
            season = access.season_get(request.user, season_id, direct=True, lock=True)
            if season.league_id != league.id:
                form_errors(form, {"season": [_("Choose a season of this league.")]})
                return _league_page(request, league, event_form=form, status=400)
            events.event_attach_tournament(
                season=season,
                tournament_id=checked.validated_data["tournament"],
                played_on=checked.validated_data.get("played_on"),
            )
    except Refusal as error:
        form_errors(form, {"tournament": [error.message]})
        return _league_page(request, league, event_form=form, status=error.status)
    messages.success(request, _("The tournament counts for %(season)s.") % {"season": season.name})
    return redirect("web:desk-league", league_id=league.id)


urlpatterns = [
    path("desk/leagues/", league_list, name="desk-leagues"),
    path("desk/leagues/<int:league_id>/", league_page, name="desk-league"),
    path("desk/leagues/<int:league_id>/seasons/", season_new, name="desk-league-season"),
    path("desk/leagues/<int:league_id>/events/", event_attach, name="desk-league-event"),
]
