"""Players and their money: the players list for staff, a player's account and its
transactions, and the cashier (deposits and withdrawals).

A player reads their own account; staff read any; a club's director reads and serves the
accounts in their club (``?club=<id>``; without it, the site-wide account, staff only).
"""

from __future__ import annotations

from typing import Any

import django_filters
from django.db.models import Q, QuerySet
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import generics, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api_conventions import refusals, validated
from api_conventions.bodies import BodySerializer
from api_conventions.pagination import Page
from clubs.access import can_serve
from games.api import serializers as s
from games.api.permissions import IsStaff
from games.api.views import PlayerCreateApi
from games.codes import Code
from games.errors import Forbidden, NotFound
from games.models import Player
from games.services import profiles
from money import cashier, selectors
from money.ledger import AccountKey, player_account
from money.models import Posting, Reason

CLUB = OpenApiParameter(
    "club", int, OpenApiParameter.QUERY, description="The club of the account (omit: site-wide)."
)
PLAYER = OpenApiParameter("player_id", int, OpenApiParameter.PATH)
IDEMPOTENCY_KEY = OpenApiParameter(
    "Idempotency-Key",
    str,
    OpenApiParameter.HEADER,
    required=False,
    description="Any POST: a retry with the same key and body replays the first response.",
)


class PlayerFilter(django_filters.FilterSet):
    search = django_filters.CharFilter(
        method="search_filter", help_text="Part of the display name or username."
    )
    bot = django_filters.BooleanFilter(method="bot_filter", help_text="Bots only, or people.")
    club = django_filters.NumberFilter(
        field_name="user__club_memberships__club_id",
        help_text="Members of this club.",
        min_value=1,
        max_value=10**18 - 1,
    )

    class Meta:
        model = Player
        fields = ["search", "bot", "club"]

    def search_filter(self, queryset: QuerySet[Player], name: str, value: str) -> QuerySet[Player]:
        return queryset.filter(
            Q(display_name__icontains=value) | Q(user__username__icontains=value)
        )

    def bot_filter(self, queryset: QuerySet[Player], name: str, value: bool) -> QuerySet[Player]:
        return queryset.exclude(bot="") if value else queryset.filter(bot="")


class PlayerListCreateApi(generics.ListAPIView, PlayerCreateApi):  # type: ignore[misc]
    """Staff: list and search players (paginated; ``?search=``, ``?bot=``, ``?club=``);
    create one."""

    permission_classes = [IsStaff]
    serializer_class = s.PlayerOutputSerializer
    pagination_class = Page
    filterset_class = PlayerFilter
    filter_backends = [django_filters.rest_framework.DjangoFilterBackend]
    queryset = Player.objects.select_related("user").order_by("id").distinct()


class PlayerUpdateInputSerializer(BodySerializer):
    display_name = serializers.CharField(max_length=profiles.DISPLAY_NAME_MAX)


class PlayerDetailApi(APIView):
    """Staff: one player (GET); change the name they are shown by (PATCH)."""

    permission_classes = [IsStaff]

    @extend_schema(
        parameters=[PLAYER], responses={200: s.PlayerOutputSerializer, **refusals(401, 403, 404)}
    )
    def get(self, request: Request, player_id: int) -> Response:
        return Response(s.PlayerOutputSerializer(_player(player_id)).data)

    @extend_schema(
        parameters=[PLAYER],
        request=PlayerUpdateInputSerializer,
        responses={200: s.PlayerOutputSerializer, **refusals(400, 401, 403, 404)},
    )
    def patch(self, request: Request, player_id: int) -> Response:
        data = validated(PlayerUpdateInputSerializer, request.data)
        player = profiles.player_update(player=_player(player_id), **data)
        return Response(s.PlayerOutputSerializer(player).data)


def _club(request: Request) -> int | None:
    raw = request.query_params.get("club")
    if raw in (None, ""):
        return None
    if not raw.isdigit() or len(raw) > 18:
        raise NotFound(
            _("no club %(raw)s: club is a club id") % {"raw": repr(raw)}, code=Code.NO_CLUB
        )
    return int(raw)


def _player(player_id: int) -> Player:
    player = Player.objects.filter(pk=player_id).first()
    if player is None:
        raise NotFound(
            _("no player %(player_id)s: staff list players at /api/v1/players/")
            % {"player_id": player_id}
        )
    return player


def _readable(request: Request, player_id: int) -> tuple[Player, int | None]:
    """The player and club of the account the caller asks for, if they may read it."""
    club_id = _club(request)
    player = _player(player_id)
    if player.user_id != request.user.pk and not can_serve(request.user, club_id, player.id):
        raise Forbidden(
            _(
                "you may read your own account; staff, and the club's director its "
                "members', read others'"
            ),
            code=Code.NOT_YOUR_ACCOUNT,
        )
    return player, club_id


class AccountOutputSerializer(serializers.Serializer[Any]):
    player = serializers.IntegerField()
    club = serializers.IntegerField(allow_null=True)
    balance = serializers.IntegerField(help_text="Units held, the sum of the postings.")


class PostingOutputSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    transaction = serializers.IntegerField(source="transaction_id")
    amount = serializers.IntegerField(help_text="Into the account (+) or out of it (-).")
    reason = serializers.CharField(source="transaction.reason")
    ref_kind = serializers.CharField(source="transaction.ref_kind")
    ref_id = serializers.IntegerField(source="transaction.ref_id", allow_null=True)
    memo = serializers.CharField(source="transaction.memo")
    created_at = serializers.DateTimeField(source="transaction.created_at")


class CashierInputSerializer(BodySerializer):
    amount = serializers.IntegerField(min_value=1, max_value=cashier.MAX_AMOUNT)
    memo = serializers.CharField(max_length=200, required=False, default="")


class CashierOutputSerializer(AccountOutputSerializer):
    transaction = serializers.IntegerField()


class PlayerAccountApi(APIView):
    """A player's account: its balance (their own, or any for staff and directors)."""

    @extend_schema(
        parameters=[PLAYER, CLUB],
        responses={200: AccountOutputSerializer, **refusals(401, 403, 404)},
    )
    def get(self, request: Request, player_id: int) -> Response:
        player, club_id = _readable(request, player_id)
        account = selectors.account_find(player_account(player.id, club_id))
        data = {"player": player.id, "club": club_id, "balance": account.balance if account else 0}
        return Response(AccountOutputSerializer(data).data)


class PostingFilter(django_filters.FilterSet):
    reason = django_filters.ChoiceFilter(field_name="transaction__reason", choices=Reason.choices)
    ref_kind = django_filters.CharFilter(field_name="transaction__ref_kind")
    since = django_filters.IsoDateTimeFilter(
        field_name="transaction__created_at", lookup_expr="gte"
    )
    until = django_filters.IsoDateTimeFilter(field_name="transaction__created_at", lookup_expr="lt")

    class Meta:
        model = Posting
        fields = ["reason", "ref_kind", "since", "until"]


class AccountPostingsApi(generics.ListAPIView):  # type: ignore[type-arg]
    """An account's postings, newest first (paginated; ``?reason=``, ``?ref_kind=``,
    ``?since=``, ``?until=``): a subclass names the account (``account``), checking that
    the caller may read it."""

    serializer_class = PostingOutputSerializer
    pagination_class = Page
    filterset_class = PostingFilter
    filter_backends = [django_filters.rest_framework.DjangoFilterBackend]

    def account(self) -> AccountKey:
        raise NotImplementedError

    def get_queryset(self) -> QuerySet[Posting]:
        if getattr(self, "swagger_fake_view", False):
            return Posting.objects.none()
        return selectors.account_postings(self.account())


@extend_schema(parameters=[PLAYER, CLUB])
class PlayerTransactionsApi(AccountPostingsApi):
    """A player's account postings, newest first (paginated; ``?reason=``, ``?ref_kind=``,
    ``?since=``, ``?until=``)."""

    def account(self) -> AccountKey:
        player, club_id = _readable(self.request, self.kwargs["player_id"])
        return player_account(player.id, club_id)


class _CashierApi(APIView):
    move = staticmethod(cashier.deposit)

    @extend_schema(
        parameters=[PLAYER, CLUB, IDEMPOTENCY_KEY],
        request=CashierInputSerializer,
        responses={201: CashierOutputSerializer, **refusals(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, player_id: int) -> Response:
        data = validated(CashierInputSerializer, request.data)
        club_id = _club(request)
        player = _player(player_id)
        record = self.move(
            player_id=player.id,
            amount=data["amount"],
            by=request.user,
            club_id=club_id,
            memo=data["memo"],
        )
        account = selectors.account_find(player_account(player.id, club_id))
        body = {
            "player": player.id,
            "club": club_id,
            "balance": account.balance if account else 0,
            "transaction": record.pk,
        }
        return Response(CashierOutputSerializer(body).data, status=status.HTTP_201_CREATED)


class PlayerDepositApi(_CashierApi):
    """The cashier (staff, or the club's director): credit units to a player's account.
    Send an ``Idempotency-Key`` so a retry never pays twice."""

    move = staticmethod(cashier.deposit)


class PlayerWithdrawApi(_CashierApi):
    """The cashier (staff, or the club's director): pay units out of a player's account;
    409 if it holds less. Send an ``Idempotency-Key`` so a retry never pays twice."""

    move = staticmethod(cashier.withdraw)
