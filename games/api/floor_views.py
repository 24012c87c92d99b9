"""The ring-game floor API: games, wait lists, seat offers, seat changes and live reports.

Same conventions as ``games.api.views``: one view per action, explicit serializers, every
refusal a ``ServiceError`` rendered as ``{"error": {"code", "message", "detail"}}``.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.permissions import BasePermission, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api_conventions import path_id, refusals, validated
from api_conventions.pagination import Page, paginated
from games import floor_selectors as selectors
from games.api import floor_serializers as fs
from games.api.permissions import IsStaff, caller_player, require_player
from games.api.views import TableApi
from games.models import WaitEntry
from games.services import floor_tables, offers, waitlist


@path_id("game_id")
class GameApi(APIView):
    """A view of one game (``game_id`` in the path)."""


@path_id("entry_id")
class EntryApi(APIView):
    """A view of one wait-list entry (``entry_id`` in the path)."""


def _entry(entry: WaitEntry) -> dict[str, Any]:
    return dict(fs.WaitEntryOutputSerializer(selectors.entry_view(entry)).data)


class GameListCreateApi(APIView):
    """Running games with their tables, free seats and list length (paginated); staff create
    games."""

    pagination_class = Page

    def get_permissions(self) -> list[BasePermission]:
        return [IsStaff()] if self.request.method == "POST" else [IsAuthenticated()]

    @extend_schema(responses={200: fs.GameOutputSerializer(many=True), **refusals(401)})
    def get(self, request: Request) -> Response:
        return paginated(
            request,
            self,
            selectors.running_games(),
            lambda page: (
                fs.GameOutputSerializer(
                    [selectors.game_detail(game) for game in page], many=True
                ).data
            ),
        )

    @extend_schema(
        request=fs.GameCreateInputSerializer,
        responses={201: fs.GameOutputSerializer, **refusals(400, 401, 403)},
    )
    def post(self, request: Request) -> Response:
        data = validated(fs.GameCreateInputSerializer, request.data)
        game = floor_tables.game_create(**data)
        return Response(
            fs.GameOutputSerializer(selectors.game_detail(game)).data,
            status=status.HTTP_201_CREATED,
        )


class GameDetailApi(GameApi):
    """One game, its tables and list length."""

    @extend_schema(responses={200: fs.GameOutputSerializer, **refusals(401, 404)})
    def get(self, request: Request, game_id: int) -> Response:
        game = selectors.get_game(game_id)
        return Response(fs.GameOutputSerializer(selectors.game_detail(game)).data)


class GameConfirmTableApi(GameApi):
    """Staff (live): open the table the floor proposed; its seats are offered to the list."""

    permission_classes = [IsStaff]

    @extend_schema(
        request=None, responses={200: fs.GameOutputSerializer, **refusals(401, 403, 404, 409)}
    )
    def post(self, request: Request, game_id: int) -> Response:
        floor_tables.game_table_confirm(game_id=game_id)
        game = selectors.get_game(game_id)
        return Response(fs.GameOutputSerializer(selectors.game_detail(game)).data)


class GameWaitlistApi(GameApi):
    """Staff: the game's whole list in order; add a walk-in by name."""

    permission_classes = [IsStaff]

    @extend_schema(
        operation_id="v1_games_waitlist_of_game",
        responses={200: fs.WaitEntryOutputSerializer(many=True), **refusals(401, 403, 404)},
    )
    def get(self, request: Request, game_id: int) -> Response:
        game = selectors.get_game(game_id)
        return Response(fs.WaitEntryOutputSerializer(selectors.game_waitlist(game), many=True).data)

    @extend_schema(
        operation_id="v1_games_waitlist_walk_in",
        request=fs.WalkInInputSerializer,
        responses={201: fs.WaitEntryOutputSerializer, **refusals(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, game_id: int) -> Response:
        data = validated(fs.WalkInInputSerializer, request.data)
        entry = waitlist.entry_walk_in(game_id=game_id, name=data["name"], by=request.user)
        return Response(_entry(entry), status=status.HTTP_201_CREATED)


class WaitlistApi(APIView):
    """The caller's wait-list entries (position, estimated wait, offer); join a list."""

    @extend_schema(responses={200: fs.WaitEntryOutputSerializer(many=True), **refusals(401, 403)})
    def get(self, request: Request) -> Response:
        entries = selectors.my_entries(require_player(request))
        return Response(fs.WaitEntryOutputSerializer(entries, many=True).data)

    @extend_schema(
        request=fs.JoinInputSerializer,
        responses={201: fs.WaitEntryOutputSerializer, **refusals(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request) -> Response:
        data = validated(fs.JoinInputSerializer, request.data)
        player = require_player(request)
        if "game" in data:
            game_id = selectors.get_game(data["game"]).id
        else:
            game_id = waitlist.game_for(variant=data["variant"], small_bet=data["small_bet"]).id
        entry = waitlist.entry_join(game_id=game_id, player=player, table_id=data.get("table"))
        return Response(_entry(entry), status=status.HTTP_201_CREATED)


class WaitlistEntryApi(EntryApi):
    """Leave the list (your entry), or staff remove a name with a reason."""

    @extend_schema(
        parameters=[fs.RemoveQuerySerializer],
        responses={200: fs.WaitEntryOutputSerializer, **refusals(400, 401, 403, 404, 409)},
    )
    def delete(self, request: Request, entry_id: int) -> Response:
        query = validated(fs.RemoveQuerySerializer, request.query_params)
        entry = waitlist.entry_leave(
            entry_id=entry_id,
            caller=caller_player(request),
            by=request.user,
            staff=bool(request.user.is_staff),
            reason=query["reason"],
        )
        return Response(_entry(entry))


class WaitlistAcceptApi(EntryApi):
    """Take the seat offered to the entry with a buy-in (staff: for a walk-in)."""

    @extend_schema(
        request=fs.AcceptInputSerializer,
        responses={200: fs.AcceptOutputSerializer, **refusals(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, entry_id: int) -> Response:
        data = validated(fs.AcceptInputSerializer, request.data)
        offer = offers.offer_accept(
            entry_id=entry_id,
            caller=caller_player(request),
            staff=bool(request.user.is_staff),
            buy_in=data["buy_in"],
        )
        body = {"table": offer.table_id, "seat": offer.seat, "buy_in": data["buy_in"]}
        return Response(fs.AcceptOutputSerializer(body).data)


class WaitlistDeclineApi(EntryApi):
    """Turn the offered seat down: the next name is called."""

    @extend_schema(
        request=None, responses={200: fs.WaitEntryOutputSerializer, **refusals(401, 403, 404, 409)}
    )
    def post(self, request: Request, entry_id: int) -> Response:
        entry = offers.offer_decline(
            entry_id=entry_id, caller=caller_player(request), staff=bool(request.user.is_staff)
        )
        return Response(_entry(entry))


class WaitlistMoveApi(EntryApi):
    """Staff: move a name to another position on its list, with a reason (logged)."""

    permission_classes = [IsStaff]

    @extend_schema(
        request=fs.MoveInputSerializer,
        responses={200: fs.WaitEntryOutputSerializer, **refusals(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, entry_id: int) -> Response:
        data = validated(fs.MoveInputSerializer, request.data)
        entry = waitlist.entry_move(
            entry_id=entry_id, position=data["position"], reason=data["reason"], by=request.user
        )
        return Response(_entry(entry))


class TableSeatChangeApi(TableApi):
    """Ask for another seat or table of the same game, honoured in request order when that
    seat opens, between hands; ``DELETE`` withdraws the request."""

    @extend_schema(
        request=fs.SeatChangeInputSerializer,
        responses={201: fs.SeatChangeOutputSerializer, **refusals(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, table_id: int) -> Response:
        data = validated(fs.SeatChangeInputSerializer, request.data)
        change = waitlist.change_request(
            table_id=table_id,
            player=require_player(request),
            to_table_id=data.get("table"),
            to_seat=data.get("seat"),
        )
        return Response(fs.SeatChangeOutputSerializer(change).data, status=status.HTTP_201_CREATED)

    @extend_schema(responses={200: fs.SeatChangeOutputSerializer, **refusals(401, 403, 404, 409)})
    def delete(self, request: Request, table_id: int) -> Response:
        change = waitlist.change_cancel(table_id=table_id, player=require_player(request))
        return Response(fs.SeatChangeOutputSerializer(change).data)


class TableReportLeftApi(TableApi):
    """Staff at a live table: the player in a seat left; the next name is called."""

    permission_classes = [IsStaff]

    @extend_schema(
        request=fs.ReportLeftInputSerializer,
        responses={204: None, **refusals(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, table_id: int) -> Response:
        data = validated(fs.ReportLeftInputSerializer, request.data)
        floor_tables.live_report_left(table_id=table_id, seat=data["seat"])
        return Response(status=status.HTTP_204_NO_CONTENT)
