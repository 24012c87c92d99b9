"""The leagues API: one view per action, each a thin call into leagues.services or
leagues.selectors. Members of a club read its leagues; its directors (and staff) create and
run them. Another club's rows are 404s (``leagues.access``)."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api_conventions import path_id, refusals, validated
from games.api.accounts import IDEMPOTENCY_KEY, AccountPostingsApi
from leagues import access, selectors
from leagues.api import serializers as s
from leagues.api.renderers import CsvRenderer
from leagues.models import Season, SeasonEvent
from leagues.services import events, fees, finale, pot, seasons
from money.ledger import AccountKey, balance_of


class LeagueListCreateApi(APIView):
    """The leagues of your clubs (staff: all); create one in a club you direct."""

    @extend_schema(responses={200: s.LeagueOutputSerializer(many=True)})
    def get(self, request: Request) -> Response:
        leagues = access.leagues_visible(request.user)
        return Response(s.LeagueOutputSerializer(leagues, many=True).data)

    @extend_schema(
        request=s.LeagueInputSerializer,
        responses={201: s.LeagueOutputSerializer, **refusals(400, 403, 404, 409)},
    )
    def post(self, request: Request) -> Response:
        data = validated(s.LeagueInputSerializer, request.data)
        league = seasons.league_create(user=request.user, **data)
        return Response(s.LeagueOutputSerializer(league).data, status=status.HTTP_201_CREATED)


@path_id("league_id")
class LeagueDetailApi(APIView):
    @extend_schema(responses={200: s.LeagueOutputSerializer, **refusals(404)})
    def get(self, request: Request, league_id: int) -> Response:
        league = access.league_get(request.user, league_id)
        return Response(s.LeagueOutputSerializer(league).data)


@path_id("league_id")
class LeagueSeasonsApi(APIView):
    """The league's seasons; create one (its directors): dates, points formula, counting,
    tie-breaks, pot and finale."""

    @extend_schema(responses={200: s.SeasonOutputSerializer(many=True), **refusals(404)})
    def get(self, request: Request, league_id: int) -> Response:
        league = access.league_get(request.user, league_id)
        return Response(s.SeasonOutputSerializer(league.seasons.all(), many=True).data)

    @extend_schema(
        request=s.SeasonInputSerializer,
        responses={201: s.SeasonOutputSerializer, **refusals(400, 403, 404)},
    )
    def post(self, request: Request, league_id: int) -> Response:
        league = access.league_get(request.user, league_id, direct=True)
        data = validated(s.SeasonInputSerializer, request.data)
        season = seasons.season_create(league=league, **data)
        return Response(s.SeasonOutputSerializer(season).data, status=status.HTTP_201_CREATED)


def _season_detail(season: Season) -> dict[str, Any]:
    data = s.SeasonOutputSerializer(season).data
    data["pot"] = pot.season_pot(season)
    data["pot_balance"] = balance_of(fees.pot_account(season))
    data["pot_payouts"] = (
        season.pot_payouts if season.pot_payouts is not None else pot.pot_payouts(season)
    )
    return data


@path_id("season_id")
class SeasonDetailApi(APIView):
    """A season, its pot and how the pot is paid (as the standings stand, until it closes)."""

    @extend_schema(responses={200: s.SeasonDetailOutputSerializer, **refusals(404)})
    def get(self, request: Request, season_id: int) -> Response:
        return Response(_season_detail(access.season_get(request.user, season_id)))


@path_id("season_id")
class SeasonCloseApi(APIView):
    """Close the season after its last event: the pot is paid by the standings, through the
    ledger, once (its directors; a second close is a 409). Send an ``Idempotency-Key`` so a
    retry gets the first answer back."""

    @extend_schema(
        parameters=[IDEMPOTENCY_KEY],
        request=None,
        responses={200: s.SeasonDetailOutputSerializer, **refusals(403, 404, 409)},
    )
    def post(self, request: Request, season_id: int) -> Response:
        access.season_get(request.user, season_id, direct=True)
        return Response(_season_detail(pot.season_close(season_id=season_id)))


@path_id("season_id")
class SeasonPotTransactionsApi(AccountPostingsApi):
    """The season pot's account postings, newest first: league fees in (+), refunds and the
    payout out (-) (paginated; ``?reason=``, ``?ref_kind=``, ``?since=``, ``?until=``)."""

    def account(self) -> AccountKey:
        return fees.pot_account(access.season_get(self.request.user, self.kwargs["season_id"]))


def _event(event: SeasonEvent, *, detail: bool = False) -> dict[str, Any]:
    if not detail:
        return s.SeasonEventOutputSerializer(event).data
    data = s.SeasonEventOutputSerializer(event).data
    data["results"] = s.SeasonEventResultOutputSerializer(
        selectors.event_results(event), many=True
    ).data
    return data


@path_id("season_id")
class SeasonEventsApi(APIView):
    """The season's events; attach a tournament of the club (its results enter when it
    finishes, or at once if it has) or enter a live event's finishing order (directors)."""

    @extend_schema(responses={200: s.SeasonEventOutputSerializer(many=True), **refusals(404)})
    def get(self, request: Request, season_id: int) -> Response:
        season = access.season_get(request.user, season_id)
        return Response(
            s.SeasonEventOutputSerializer(selectors.season_events(season), many=True).data
        )

    @extend_schema(
        parameters=[IDEMPOTENCY_KEY],
        request=s.SeasonEventInputSerializer,
        responses={201: s.SeasonEventDetailOutputSerializer, **refusals(400, 403, 404, 409)},
    )
    def post(self, request: Request, season_id: int) -> Response:
        access.season_get(request.user, season_id, direct=True)
        data = validated(s.SeasonEventInputSerializer, request.data)
        with transaction.atomic():
            season = access.season_get(request.user, season_id, direct=True, lock=True)
            if "tournament" in data:
                event = events.event_attach_tournament(
                    season=season,
                    tournament_id=data["tournament"],
                    played_on=data.get("played_on"),
                )
            else:
                event = events.event_enter_live(season=season, **data)
        return Response(_event(event, detail=True), status=status.HTTP_201_CREATED)


@path_id("event_id")
class EventDetailApi(APIView):
    """One event with its results and points."""

    @extend_schema(responses={200: s.SeasonEventDetailOutputSerializer, **refusals(404)})
    def get(self, request: Request, event_id: int) -> Response:
        return Response(_event(access.event_get(request.user, event_id), detail=True))


@path_id("event_id")
class EventResultsApi(APIView):
    """Enter a live event's results again (a correction): the season is recomputed."""

    @extend_schema(
        request=s.LiveResultsInputSerializer,
        responses={200: s.SeasonEventDetailOutputSerializer, **refusals(400, 403, 404, 409)},
    )
    def put(self, request: Request, event_id: int) -> Response:
        event = access.event_get(request.user, event_id, direct=True)
        data = validated(s.LiveResultsInputSerializer, request.data)
        return Response(_event(events.event_results_replace(event=event, **data), detail=True))


@path_id("event_id")
class EventRefreshApi(APIView):
    """Read a finished tournament's results again (a result fixed, or an entry that
    failed): the season is recomputed."""

    @extend_schema(
        request=None,
        responses={200: s.SeasonEventDetailOutputSerializer, **refusals(400, 403, 404, 409)},
    )
    def post(self, request: Request, event_id: int) -> Response:
        event = access.event_get(request.user, event_id, direct=True)
        return Response(_event(events.event_refresh(event=event), detail=True))


@path_id("season_id")
class SeasonStandingsApi(APIView):
    """The standings (``?format=csv``: the same rows as CSV). Tie-breaks: the season's, in
    order; players still equal share a rank. ``movement``: ranks gained since the previous
    event."""

    renderer_classes = [JSONRenderer, CsvRenderer]

    @extend_schema(
        parameters=[OpenApiParameter("format", str, enum=["json", "csv"])],
        responses={200: s.StandingOutputSerializer(many=True), **refusals(404)},
    )
    def get(self, request: Request, season_id: int) -> Response:
        season = access.season_get(request.user, season_id)
        rows = selectors.season_standings(season)
        return Response(s.StandingOutputSerializer(rows, many=True).data)


@path_id("season_id")
class SeasonFinaleApi(APIView):
    """The finale's qualifiers by the standings, with their chip bonus (GET); register them
    into a tournament of the club that is still registering (POST, directors): each starts
    with the starting stack plus their bonus."""

    @extend_schema(responses={200: s.FinaleOutputSerializer(many=True), **refusals(404)})
    def get(self, request: Request, season_id: int) -> Response:
        season = access.season_get(request.user, season_id)
        return Response(s.FinaleOutputSerializer(selectors.finale_field(season), many=True).data)

    @extend_schema(
        request=s.FinaleInputSerializer,
        responses={201: s.FinaleEntryOutputSerializer(many=True), **refusals(400, 403, 404, 409)},
    )
    def post(self, request: Request, season_id: int) -> Response:
        access.season_get(request.user, season_id, direct=True)
        data = validated(s.FinaleInputSerializer, request.data)
        field = finale.finale_register(season_id=season_id, tournament_id=data["tournament"])
        return Response(
            s.FinaleEntryOutputSerializer(field, many=True).data, status=status.HTTP_201_CREATED
        )


@path_id("player_id")
class PlayerSeasonsApi(APIView):
    """A player's history across seasons (of your clubs)."""

    @extend_schema(responses={200: s.HistoryOutputSerializer(many=True)})
    def get(self, request: Request, player_id: int) -> Response:
        history = selectors.player_history(request.user, player_id)
        return Response(s.HistoryOutputSerializer(history, many=True).data)


class PointsPreviewApi(APIView):
    """The points a formula gives every place of a field of ``n`` (buy-in ``b``, each
    player spending the buy-in)."""

    @extend_schema(
        request=s.PreviewInputSerializer,
        responses={200: s.PreviewOutputSerializer(many=True), **refusals(400)},
    )
    def post(self, request: Request) -> Response:
        data = validated(s.PreviewInputSerializer, request.data)
        rows = seasons.points_preview(**data)
        return Response(s.PreviewOutputSerializer(rows, many=True).data)
