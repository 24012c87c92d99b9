"""The tables API: one view per action, each a thin call into games.services or selectors.

Views parse input with an input serializer, call one service or selector, and render with an
output serializer. Every refusal is a ``games.errors.ServiceError`` or a DRF exception, which
``config.api_errors`` turns into ``{"error": {"code", "message", "detail"}}``.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import authenticate
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    PolymorphicProxySerializer,
    extend_schema,
)
from rest_framework import serializers, status
from rest_framework.authtoken.models import Token
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.permissions import AllowAny, BasePermission, IsAuthenticated
from rest_framework.renderers import BaseRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games import selectors
from games.api import serializers as s
from games.api.permissions import IsStaff, caller_player, require_player
from games.engine.phh import dump_phh
from games.errors import Forbidden, Invalid, NotFound
from games.models import Player, TableStatus
from games.services import hands, players, seating, tables

ERRORS = OpenApiResponse(s.ErrorOutputSerializer, description="The request was refused.")


def _errors(*statuses: int) -> dict[int, OpenApiResponse]:
    return dict.fromkeys(statuses, ERRORS)


@extend_schema(parameters=[OpenApiParameter("table_id", int, OpenApiParameter.PATH)])
class TableApi(APIView):
    """A view of one table (``table_id`` in the path)."""


@extend_schema(parameters=[OpenApiParameter("hand_id", int, OpenApiParameter.PATH)])
class HandApi(APIView):
    """A view of one hand (``hand_id`` in the path)."""


def _table_detail(table_id: int, request: Request) -> dict[str, Any]:
    """The table's fields, seats and current hand as the caller may see them."""
    table = selectors.get_table(table_id)
    detail = selectors.table_detail(table, caller_player(request))
    return s.TableDetailOutputSerializer({**s.TableOutputSerializer(table).data, **detail}).data


# ----------------------------------------------------------------------------- auth, players


class TokenObtainApi(APIView):
    """Exchange a username and password for an API token."""

    authentication_classes: list[type] = []
    permission_classes = [AllowAny]

    @extend_schema(
        request=s.TokenInputSerializer,
        responses={200: s.TokenOutputSerializer, **_errors(400)},
        auth=[],
    )
    def post(self, request: Request) -> Response:
        data = _valid(s.TokenInputSerializer, request.data)
        user = authenticate(request, username=data["username"], password=data["password"])
        if user is None or not user.is_active:
            raise Invalid("wrong username or password", code="invalid_credentials")
        token, _ = Token.objects.get_or_create(user=user)
        return Response(s.TokenOutputSerializer({"token": token.key}).data)


class PlayerCreateApi(APIView):
    """Staff: create a player account (a person, or a bot of a given kind)."""

    permission_classes = [IsStaff]

    @extend_schema(
        request=s.PlayerCreateInputSerializer,
        responses={201: s.PlayerOutputSerializer, **_errors(400, 401, 403, 409)},
    )
    def post(self, request: Request) -> Response:
        data = _valid(s.PlayerCreateInputSerializer, request.data)
        player = players.player_create(**data)
        return Response(s.PlayerOutputSerializer(player).data, status=status.HTTP_201_CREATED)


class PlayerMeApi(APIView):
    """The caller's own player profile."""

    @extend_schema(responses={200: s.PlayerOutputSerializer, **_errors(401, 404)})
    def get(self, request: Request) -> Response:
        player = Player.objects.select_related("user").filter(user_id=request.user.pk).first()
        if player is None:
            raise NotFound("this account has no player profile", code="no_player")
        return Response(s.PlayerOutputSerializer(player).data)


# ----------------------------------------------------------------------------- tables


class TableListCreateApi(APIView):
    """List the tables (anyone signed in); create one (staff)."""

    def get_permissions(self) -> list[BasePermission]:
        return [IsStaff()] if self.request.method == "POST" else [IsAuthenticated()]

    @extend_schema(responses={200: s.TableListItemSerializer(many=True), **_errors(401)})
    def get(self, request: Request) -> Response:
        return Response(s.TableListItemSerializer(selectors.table_list(), many=True).data)

    @extend_schema(
        request=s.TableCreateInputSerializer,
        responses={201: s.TableOutputSerializer, **_errors(400, 401, 403)},
    )
    def post(self, request: Request) -> Response:
        data = _valid(s.TableCreateInputSerializer, request.data)
        table = tables.table_create(**data)
        return Response(s.TableOutputSerializer(table).data, status=status.HTTP_201_CREATED)


class TableDetailApi(TableApi):
    """The table, its seats and the current hand as the caller may see it: own down cards
    only, everyone's up cards, pots, stacks, whose turn, the deadline, and the caller's legal
    actions with their amounts when it is their turn."""

    @extend_schema(responses={200: s.TableDetailOutputSerializer, **_errors(401, 404)})
    def get(self, request: Request, table_id: int) -> Response:
        return Response(_table_detail(table_id, request))


class TableSitApi(TableApi):
    """Take a free seat with a buy-in; staff may seat another player (such as a bot)."""

    @extend_schema(
        request=s.SitInputSerializer,
        responses={200: s.TableDetailOutputSerializer, **_errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, table_id: int) -> Response:
        data = _valid(s.SitInputSerializer, request.data)
        if "player" in data:
            if not request.user.is_staff:
                raise _staff_only("seating another player")
            player = Player.objects.filter(pk=data["player"]).first()
            if player is None:
                raise NotFound(f"no player {data['player']}")
        else:
            player = require_player(request)
        seating.seat_sit(
            table_id=table_id,
            player=player,
            seat_number=data["seat"],
            buy_in=data["buy_in"],
            by_staff=bool(request.user.is_staff),
        )
        return Response(_table_detail(table_id, request))


class TableLeaveApi(TableApi):
    """Leave the table: at once between hands, else folded and gone when the hand ends."""

    @extend_schema(
        request=None,
        responses={200: s.TableDetailOutputSerializer, **_errors(401, 403, 404, 409)},
    )
    def post(self, request: Request, table_id: int) -> Response:
        seating.seat_leave(table_id=table_id, player=require_player(request))
        return Response(_table_detail(table_id, request))


class TableSitOutApi(TableApi):
    """Sit out: not dealt in from the next hand (folded at the current hand's next decision)."""

    sitting_out = True

    @extend_schema(
        request=None,
        responses={200: s.TableDetailOutputSerializer, **_errors(401, 403, 404, 409)},
    )
    def post(self, request: Request, table_id: int) -> Response:
        seating.seat_sit_out(
            table_id=table_id, player=require_player(request), sitting_out=self.sitting_out
        )
        return Response(_table_detail(table_id, request))


class TableSitInApi(TableSitOutApi):
    """Sit back in: dealt in again from the next hand (ring games); at a tournament table the
    same as back/."""

    sitting_out = False


class TableBackApi(TableApi):
    """Come back after being away (a timeout, or sitting out), at any table: from the current
    hand's next decision you decide again with your full clock. Until then an away player
    posts antes and bring-ins and is folded (checked when free) at once (RULES.md 9)."""

    @extend_schema(
        request=None,
        responses={200: s.TableDetailOutputSerializer, **_errors(401, 403, 404, 409)},
    )
    def post(self, request: Request, table_id: int) -> Response:
        seating.seat_back(table_id=table_id, player=require_player(request))
        return Response(_table_detail(table_id, request))


class TablePauseApi(TableApi):
    """Staff: pause the table (stops the clock and new hands)."""

    permission_classes = [IsStaff]
    status_to_set = TableStatus.PAUSED

    @extend_schema(
        request=None,
        responses={200: s.TableDetailOutputSerializer, **_errors(401, 403, 404, 409)},
    )
    def post(self, request: Request, table_id: int) -> Response:
        tables.table_set_status(table_id=table_id, status=self.status_to_set)
        return Response(_table_detail(table_id, request))


class TableResumeApi(TablePauseApi):
    """Staff: resume a paused table (the player to act gets a fresh clock)."""

    status_to_set = TableStatus.OPEN


class TableActApi(TableApi):
    """Act in the current hand; applied at once when legal and the caller's turn."""

    @extend_schema(
        request=s.ActInputSerializer,
        responses={200: s.ActOutputSerializer, **_errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, table_id: int) -> Response:
        data = _valid(s.ActInputSerializer, request.data)
        result = hands.hand_act(
            table_id=table_id,
            player=require_player(request),
            action=data["action"],
            amount=data.get("amount"),
            seq=data.get("seq"),
        )
        option = result.option
        body = {"seq": result.seq, "action": option.action, "to": option.to, "chips": option.chips}
        return Response(s.ActOutputSerializer(body).data)


class TableEventsApi(TableApi):
    """The table's events after ``after`` as the caller may see them (for polling)."""

    @extend_schema(
        parameters=[s.EventsQuerySerializer],
        responses={200: s.EventsOutputSerializer, **_errors(400, 401, 404)},
    )
    def get(self, request: Request, table_id: int) -> Response:
        query = _valid(s.EventsQuerySerializer, request.query_params)
        table = selectors.get_table(table_id)
        events = selectors.table_events(table, caller_player(request), query["after"])
        return Response(s.EventsOutputSerializer({"seq": table.seq, "events": events}).data)


# ----------------------------------------------------------------------------- hands


class HandDetailApi(HandApi):
    """A hand as the caller may see it; the seed only once it is over."""

    @extend_schema(responses={200: s.HandOutputSerializer, **_errors(401, 404)})
    def get(self, request: Request, hand_id: int) -> Response:
        hand = selectors.get_hand(hand_id)
        public = selectors.hand_public(hand, hands.hand_state(hand), caller_player(request))
        body = {
            **public,
            "table": hand.table_id,
            "started_at": hand.started_at,
            "finished_at": hand.finished_at,
        }
        return Response(s.HandOutputSerializer(body).data)


class JsonOnlyNegotiation(DefaultContentNegotiation):
    """Always JSON: ``?format=`` names the history's format here, not a DRF renderer."""

    def select_renderer(
        self, request: Request, renderers: list[BaseRenderer], format_suffix: str | None = None
    ) -> tuple[BaseRenderer, str]:
        return renderers[0], renderers[0].media_type


class HandHistoryApi(HandApi):
    """A finished hand's log (JSON) or its PHH text; down cards only where shown (or the
    caller's own, in JSON)."""

    content_negotiation_class = JsonOnlyNegotiation

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "format",
                str,
                enum=["json", "phh"],
                default="json",
                description="json: the event log; phh: Poker Hand History text.",
            )
        ],
        responses={
            200: PolymorphicProxySerializer(
                component_name="HandHistoryResponse",
                serializers=[s.HandHistoryOutputSerializer, s.HandPhhOutputSerializer],
                resource_type_field_name=None,
            ),
            **_errors(400, 401, 404, 409),
        },
    )
    def get(self, request: Request, hand_id: int) -> Response:
        query = _valid(s.HistoryQuerySerializer, request.query_params)
        hand = selectors.get_hand(hand_id)
        history = selectors.hand_history(hand, caller_player(request))
        if query["format"] == "json":
            return Response(s.HandHistoryOutputSerializer(history).data)
        text = dump_phh(
            hands.hand_state(hand),
            players=[entry["name"] for entry in hand.lineup],
            table=hand.table_id,
            hand=hand.number,
        )
        return Response(s.HandPhhOutputSerializer({"hand": hand.id, "phh": text}).data)


class HandVerifyApi(HandApi):
    """Check a finished hand's dealing: the revealed seed matches the commitment, and the
    deck it makes deals exactly the cards that were dealt."""

    @extend_schema(responses={200: s.HandVerifyOutputSerializer, **_errors(401, 404, 409)})
    def get(self, request: Request, hand_id: int) -> Response:
        return Response(
            s.HandVerifyOutputSerializer(selectors.hand_verify(selectors.get_hand(hand_id))).data
        )


# ----------------------------------------------------------------------------- helpers


def _valid(serializer_class: type[serializers.Serializer[Any]], data: Any) -> dict[str, Any]:
    """Validated input, or a 400 naming each bad field."""
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


def _staff_only(what: str) -> Forbidden:
    return Forbidden(f"only staff can do this: {what}", code="staff_only")
