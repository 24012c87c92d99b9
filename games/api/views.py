"""The tables API: one view per action, each a thin call into games.services or selectors.

Views parse input with an input serializer, call one service or selector, and render with an
output serializer. Every refusal is a ``games.errors.ServiceError`` or a DRF exception, which
``config.api_errors`` turns into ``{"error": {"code", "message", "detail"}}``.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import authenticate
from django.db import transaction
from django.http import HttpResponse
from django.utils.http import parse_etags
from django.utils.translation import get_language, gettext
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
)
from rest_framework import exceptions, serializers, status
from rest_framework.authtoken.models import Token
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.permissions import AllowAny, BasePermission, IsAuthenticated
from rest_framework.renderers import BaseRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api_conventions import path_id, refusals, rendered, validated
from api_conventions.pagination import Page, paginated
from games import selectors
from games.api import serializers as s
from games.api.permissions import (
    IsStaff,
    ReadsHandRecord,
    SeesHand,
    SeesTable,
    caller_player,
    require_player,
    seen_first,
)
from games.codes import Code
from games.errors import Forbidden, Gone, Invalid, NotFound
from games.models import Hand, Player, TableStatus
from games.services import audits, client_seeds, hands, players, seating, tables
from games.services.sign_in import SignInThrottled


@path_id("table_id")
class TableApi(APIView):
    """A view of one table (``table_id`` in the path) the caller sees."""

    def get_permissions(self) -> list[BasePermission]:
        return seen_first(self, SeesTable())


@path_id("hand_id")
class HandApi(APIView):
    """A view of one hand (``hand_id`` in the path) at a table the caller sees."""

    def get_permissions(self) -> list[BasePermission]:
        return seen_first(self, SeesHand())


class HandRecordApi(HandApi):
    """A hand's history or proofs: for the players dealt in, the table's club's directors
    and staff."""

    def get_permissions(self) -> list[BasePermission]:
        return seen_first(self, ReadsHandRecord())


def _table_detail(
    table_id: int, request: Request, first: selectors.TableRead | None = None
) -> dict[str, Any]:
    """The table's fields, seats and current hand as the caller may see them, rendered in one
    pass (the table's fields go to the serializer as the model holds them: every poll of a
    table comes here, and a second serializer pass cost a tenth of its CPU); ``first``: a
    read of the table just made (``selectors.table_snapshot``)."""
    table, detail = selectors.table_snapshot(table_id, caller_player(request), first)
    fields = {name: getattr(table, name) for name in s.TABLE_FIELDS}
    return rendered(s.TableDetailOutputSerializer, {**fields, **detail})


# ----------------------------------------------------------------------------- auth, players


def sign_in_throttled(throttled: SignInThrottled) -> exceptions.Throttled:
    """The API's answer while the sign-in limits say wait: 429 with Retry-After."""
    return exceptions.Throttled(
        throttled.wait,
        detail="Too many failed sign-ins: wait for Retry-After seconds, then retry.",
    )


def authenticated(request: Request, *, username: str, password: str) -> Any:
    """The user whose password this is, or None; failures count against the sign-in limits
    (``games.sign_in_backend``), over which the answer is 429 with Retry-After."""
    try:
        return authenticate(request, username=username, password=password)
    except SignInThrottled as throttled:
        raise sign_in_throttled(throttled) from throttled


class TokenObtainApi(APIView):
    """Exchange a username and password for an API token (the same token until it is revoked
    or rotated). Failed attempts slow down, per address and per username from that address:
    429 with Retry-After."""

    authentication_classes: list[type] = []
    permission_classes = [AllowAny]

    @extend_schema(
        request=s.TokenInputSerializer,
        responses={200: s.TokenOutputSerializer, **refusals(400, 429)},
        auth=[],
    )
    def post(self, request: Request) -> Response:
        data = validated(s.TokenInputSerializer, request.data)
        user = authenticated(request, username=data["username"], password=data["password"])
        if user is None or not user.is_active:
            raise Invalid(gettext("wrong username or password"), code=Code.INVALID_CREDENTIALS)
        token, _ = Token.objects.get_or_create(user=user)
        return Response(s.TokenOutputSerializer({"token": token.key}).data)


class TokenRevokeApi(APIView):
    """Sign out: the caller's token stops working at once (every client using it)."""

    @extend_schema(request=None, responses={204: None, **refusals(401)})
    def post(self, request: Request) -> Response:
        Token.objects.filter(user_id=request.user.pk).delete()
        return Response(status=status.HTTP_204_NO_CONTENT)


class TokenRotateApi(APIView):
    """Replace the caller's token with a new one; the old one stops working at once."""

    @extend_schema(request=None, responses={200: s.TokenOutputSerializer, **refusals(401)})
    def post(self, request: Request) -> Response:
        with transaction.atomic():
            Token.objects.filter(user_id=request.user.pk).delete()
            token = Token.objects.create(user=request.user)
        return Response(s.TokenOutputSerializer({"token": token.key}).data)


class PlayerCreateApi(APIView):
    """Staff: create a player account (a person, or a bot of a given kind)."""

    permission_classes = [IsStaff]

    @extend_schema(
        request=s.PlayerCreateInputSerializer,
        responses={201: s.PlayerOutputSerializer, **refusals(400, 401, 403, 409)},
    )
    def post(self, request: Request) -> Response:
        data = validated(s.PlayerCreateInputSerializer, request.data)
        player = players.player_create(**data)
        return Response(s.PlayerOutputSerializer(player).data, status=status.HTTP_201_CREATED)


class PlayerClientSeedApi(APIView):
    """Gone: a standing client seed was known to the server before it drew later hands'
    seeds. Client seeds are sent per hand, to a table (``PUT /tables/{id}/client-seed/``)."""

    @extend_schema(request=None, responses=refusals(401, 410))
    def put(self, request: Request) -> Response:
        raise Gone(
            gettext(
                "client seeds are per hand now: PUT /api/v1/tables/{id}/client-seed/ "
                "with the table's next_commitment and your seed (bots send none)"
            ),
            code=Code.CLIENT_SEED_PER_HAND,
        )


class PlayerMeApi(APIView):
    """The caller's own player profile."""

    @extend_schema(responses={200: s.PlayerOutputSerializer, **refusals(401, 404)})
    def get(self, request: Request) -> Response:
        player = Player.objects.select_related("user").filter(user_id=request.user.pk).first()
        if player is None:
            raise NotFound(gettext("this account has no player profile"), code=Code.NO_PLAYER)
        return Response(s.PlayerOutputSerializer(player).data)


# ----------------------------------------------------------------------------- tables


class TableListCreateApi(APIView):
    """List the tables (anyone signed in; paginated); create one (staff)."""

    pagination_class = Page

    def get_permissions(self) -> list[BasePermission]:
        return [IsStaff()] if self.request.method == "POST" else [IsAuthenticated()]

    @extend_schema(responses={200: s.TableListItemSerializer(many=True), **refusals(401)})
    def get(self, request: Request) -> Response:
        return paginated(
            request,
            self,
            selectors.table_list(request.user),
            lambda page: s.TableListItemSerializer(page, many=True).data,
        )

    @extend_schema(
        request=s.TableCreateInputSerializer,
        responses={201: s.TableOutputSerializer, **refusals(400, 401, 403)},
    )
    def post(self, request: Request) -> Response:
        data = validated(s.TableCreateInputSerializer, request.data)
        table = tables.table_create(**data)
        return Response(s.TableOutputSerializer(table).data, status=status.HTTP_201_CREATED)


class TableDetailApi(TableApi):
    """The table, its seats and the current hand as the caller may see it: own down cards
    only, everyone's up cards, pots, stacks, whose turn, the deadline, and the caller's legal
    actions with their amounts when it is their turn.

    Poll it with the answer's `ETag` in `If-None-Match`: while nothing you would see has
    changed the answer is an empty 304, which costs the server a fraction of a full one."""

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "If-None-Match",
                OpenApiTypes.STR,
                OpenApiParameter.HEADER,
                description="The `ETag` of the answer you hold: 304 if it is still current.",
            )
        ],
        responses={
            200: s.TableDetailOutputSerializer,
            304: OpenApiResponse(
                description="Nothing changed since the answer whose `ETag` was sent."
            ),
            **refusals(401, 404),
        },
    )
    def get(self, request: Request, table_id: int) -> Response:
        viewer = caller_player(request)
        found = selectors.table_rows(table_id)  # the version's and, if still current, the answer's
        # The answer's hand names are in the caller's language: its tag names the language.
        etag = f'"{selectors.rows_version(found, viewer)}-{get_language()}"'
        headers = {"ETag": etag, "Cache-Control": "private, no-cache"}
        held = {
            tag.removeprefix("W/") for tag in parse_etags(request.headers.get("If-None-Match", ""))
        }
        if etag in held or "*" in held:
            return Response(status=status.HTTP_304_NOT_MODIFIED, headers=headers)
        return Response(_table_detail(table_id, request, found.read()), headers=headers)


class TableSitApi(TableApi):
    """Take a free seat with a buy-in; staff may seat another player (such as a bot)."""

    @extend_schema(
        request=s.SitInputSerializer,
        responses={200: s.TableDetailOutputSerializer, **refusals(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, table_id: int) -> Response:
        data = validated(s.SitInputSerializer, request.data)
        if "player" in data:
            if not request.user.is_staff:
                raise _staff_only("seating another player")
            player = Player.objects.filter(pk=data["player"]).first()
            if player is None:
                raise NotFound(gettext("no player %(player)s") % {"player": data["player"]})
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


class TableClientSeedApi(TableApi):
    """Send your client seed for the table's next hand (a seated person; bots send none). It
    must name that hand's ``next_commitment``, so it was chosen after the server seed was
    fixed; it stays secret until the hand starts and is then published in ``hand_start``."""

    @extend_schema(
        request=s.ClientSeedInputSerializer,
        responses={200: s.ClientSeedOutputSerializer, **refusals(400, 401, 403, 404, 409)},
    )
    def put(self, request: Request, table_id: int) -> Response:
        data = validated(s.ClientSeedInputSerializer, request.data)
        sent = client_seeds.client_seed_send(
            table_id=table_id,
            player=require_player(request),
            commitment_hex=data["commitment"],
            client_seed=data["client_seed"],
        )
        return Response(s.ClientSeedOutputSerializer(sent).data)


class TableLeaveApi(TableApi):
    """Leave the table: at once between hands, else folded and gone when the hand ends."""

    @extend_schema(
        request=None,
        responses={200: s.TableDetailOutputSerializer, **refusals(401, 403, 404, 409)},
    )
    def post(self, request: Request, table_id: int) -> Response:
        seating.seat_leave(table_id=table_id, player=require_player(request))
        return Response(_table_detail(table_id, request))


class TableTopUpApi(TableApi):
    """Buy more chips between hands, from your account, up to the table's maximum buy-in."""

    @extend_schema(
        request=s.TopUpInputSerializer,
        responses={200: s.TableDetailOutputSerializer, **refusals(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, table_id: int) -> Response:
        data = validated(s.TopUpInputSerializer, request.data)
        seating.seat_top_up(
            table_id=table_id, player=require_player(request), amount=data["amount"]
        )
        return Response(_table_detail(table_id, request))


class TableSitOutApi(TableApi):
    """Sit out: not dealt in from the next hand (folded at the current hand's next decision)."""

    sitting_out = True

    @extend_schema(
        request=None,
        responses={200: s.TableDetailOutputSerializer, **refusals(401, 403, 404, 409)},
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
    posts antes and bring-ins and is folded (checked when free) at once (docs/rules.md 9)."""

    @extend_schema(
        request=None,
        responses={200: s.TableDetailOutputSerializer, **refusals(401, 403, 404, 409)},
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
        responses={200: s.TableDetailOutputSerializer, **refusals(401, 403, 404, 409)},
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
        responses={200: s.ActOutputSerializer, **refusals(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, table_id: int) -> Response:
        data = validated(s.ActInputSerializer, request.data)
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
    """The table's events after ``after`` as the caller may see them (for polling), a page at
    a time: ``has_more`` says whether more follow, ``next_after`` is the next page's
    ``after``."""

    @extend_schema(
        parameters=[s.EventsQuerySerializer],
        responses={200: s.EventsOutputSerializer, **refusals(400, 401, 404)},
    )
    def get(self, request: Request, table_id: int) -> Response:
        query = validated(s.EventsQuerySerializer, request.query_params)
        table = selectors.get_table(table_id)
        page = selectors.table_events(
            table, caller_player(request), query["after"], limit=query["limit"]
        )
        return Response(rendered(s.EventsOutputSerializer, page))


# ----------------------------------------------------------------------------- hands


class HandDetailApi(HandApi):
    """A hand as the caller may see it: what was published at its start (seed commitment,
    client seeds, card root) and the server seed only once the reveal policy makes it
    public (``seed_reveal``, ``seed_public_from``)."""

    @extend_schema(responses={200: s.HandOutputSerializer, **refusals(401, 404)})
    def get(self, request: Request, hand_id: int) -> Response:
        hand = selectors.get_hand(hand_id)
        public = selectors.hand_public(hand, selectors.hand_state(hand), caller_player(request))
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


def _format_parameter(phh: str) -> OpenApiParameter:
    return OpenApiParameter(
        "format",
        str,
        enum=["json", "phh"],
        default="json",
        description=f"json: the event log; phh: a Poker Hand History file ({phh}).",
    )


def _history_responses(json_output: type[serializers.Serializer[Any]]) -> dict[Any, Any]:
    return {
        (200, "application/json"): json_output,
        (200, "text/plain"): OpenApiResponse(
            OpenApiTypes.STR, description="format=phh: the .phh file, as an attachment."
        ),
        **refusals(400, 401, 403, 404, 409),
    }


def _phh_file(hand: Hand, text: str, name: str) -> HttpResponse:
    """The PHH text as a download named after the table and hand."""
    response = HttpResponse(text, content_type="text/plain; charset=utf-8")
    filename = f"table-{hand.table_id}-hand-{hand.number}{name}.phh"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


class HandHistoryApi(HandRecordApi):
    """A finished hand's log (JSON) or its .phh file; other players' down cards only where
    shown (the caller's own are included)."""

    content_negotiation_class = JsonOnlyNegotiation

    @extend_schema(
        parameters=[_format_parameter("unshown down cards of others as '??'")],
        responses=_history_responses(s.HandHistoryOutputSerializer),
    )
    def get(self, request: Request, hand_id: int) -> HttpResponse:
        query = validated(s.HistoryQuerySerializer, request.query_params)
        hand = selectors.get_hand(hand_id)
        viewer = caller_player(request)
        if query["format"] == "phh":
            return _phh_file(hand, selectors.hand_phh(hand, viewer), "")
        return Response(s.HandHistoryOutputSerializer(selectors.hand_history(hand, viewer)).data)


class HandVerifyApi(HandRecordApi):
    """Check a finished hand's dealing: a Merkle proof of every card the caller may see
    (their own, up cards, shown cards) against the card root published before the first
    card, and, once the server seed is public, the full check of every position with it."""

    @extend_schema(responses={200: s.HandVerifyOutputSerializer, **refusals(401, 404, 409)})
    def get(self, request: Request, hand_id: int) -> Response:
        hand = selectors.get_hand(hand_id)
        result = selectors.hand_verify(hand, caller_player(request))
        return Response(s.HandVerifyOutputSerializer(result).data)


class HandAuditApi(HandApi):
    """Staff: a finished hand in full for a dispute (every card, the server seed, every
    proof). Every access is logged (``/api/v1/hands/audits/``)."""

    permission_classes = [IsStaff]
    content_negotiation_class = JsonOnlyNegotiation

    @extend_schema(
        parameters=[_format_parameter("every card")],
        responses=_history_responses(s.HandAuditOutputSerializer),
    )
    def get(self, request: Request, hand_id: int) -> HttpResponse:
        query = validated(s.HistoryQuerySerializer, request.query_params)
        hand = selectors.get_hand(hand_id)
        if query["format"] == "phh":
            text = selectors.hand_phh(hand, None, every_card=True)
            audits.hand_audit_record(hand=hand, user=request.user, format="phh")
            return _phh_file(hand, text, "-audit")
        body = selectors.hand_audit(hand)
        audits.hand_audit_record(hand=hand, user=request.user, format="json")
        return Response(s.HandAuditOutputSerializer(body).data)


class HandAuditLogApi(APIView):
    """Staff: who saw which hand in full, and when (newest first; ``hand`` filters)."""

    permission_classes = [IsStaff]

    @extend_schema(
        parameters=[s.AuditLogQuerySerializer],
        responses={200: s.HandAuditLogSerializer(many=True), **refusals(400, 401, 403)},
    )
    def get(self, request: Request) -> Response:
        query = validated(s.AuditLogQuerySerializer, request.query_params)
        rows = selectors.hand_audits(query.get("hand"))[: query["limit"]]
        return Response(s.HandAuditLogSerializer(rows, many=True).data)


# ----------------------------------------------------------------------------- helpers


def _staff_only(what: str) -> Forbidden:
    return Forbidden(
        gettext("only staff can do this: %(what)s") % {"what": what}, code=Code.STAFF_ONLY
    )
