"""The webhooks API: subscriptions (staff site-wide, directors for their clubs), the
delivery log, and replaying a delivery. Lists are paginated and filtered (django-filter)."""

from __future__ import annotations

from typing import Any

import django_filters
from django.db.models import QuerySet
from drf_spectacular.utils import extend_schema
from rest_framework import generics, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api_conventions import path_id, validated
from integrations.api.pagination import Page
from integrations.models import Delivery, DeliveryStatus, EventType, Subscription
from integrations.webhooks import subscriptions as service

SUBSCRIPTION_FIELDS = [
    "id",
    "club",
    "url",
    "event_types",
    "active",
    "description",
    "created_at",
]


class SubscriptionOutputSerializer(serializers.ModelSerializer[Subscription]):
    class Meta:
        model = Subscription
        fields = SUBSCRIPTION_FIELDS
        read_only_fields = SUBSCRIPTION_FIELDS


class SubscriptionCreatedSerializer(SubscriptionOutputSerializer):
    class Meta(SubscriptionOutputSerializer.Meta):
        fields = [*SUBSCRIPTION_FIELDS, "secret"]
        read_only_fields = fields


class SubscriptionInputSerializer(serializers.Serializer[Any]):
    url = serializers.URLField(max_length=500)
    event_types = serializers.ListField(
        child=serializers.ChoiceField(choices=EventType.choices), min_length=1
    )
    club = serializers.IntegerField(
        min_value=1,
        max_value=10**18,
        allow_null=True,
        default=None,
        help_text="The club whose events to receive; null: every club's (staff only).",
    )
    description = serializers.CharField(max_length=200, required=False, default="")


class SubscriptionUpdateSerializer(serializers.Serializer[Any]):
    url = serializers.URLField(max_length=500, required=False)
    event_types = serializers.ListField(
        child=serializers.ChoiceField(choices=EventType.choices), min_length=1, required=False
    )
    active = serializers.BooleanField(required=False)
    description = serializers.CharField(max_length=200, required=False)


class DeliveryOutputSerializer(serializers.ModelSerializer[Delivery]):
    event_type = serializers.CharField(source="event.type")

    class Meta:
        model = Delivery
        fields = [
            "id",
            "subscription",
            "event",
            "event_type",
            "status",
            "attempts",
            "next_attempt_at",
            "last_status_code",
            "last_error",
            "delivered_at",
            "replay_of",
            "created_at",
        ]
        read_only_fields = fields


MAX_ID = 10**18 - 1
"""Filters on ids refuse larger numbers (400) before the database sees them."""


class SubscriptionFilter(django_filters.FilterSet):
    club = django_filters.NumberFilter(min_value=1, max_value=MAX_ID)
    active = django_filters.BooleanFilter()

    class Meta:
        model = Subscription
        fields = ["club", "active"]


class SubscriptionListCreateApi(generics.ListAPIView):  # type: ignore[type-arg]
    """Webhook subscriptions you manage (paginated; ``?club=``, ``?active=``); create one:
    the response carries the signing ``secret``, shown only this once."""

    serializer_class = SubscriptionOutputSerializer
    pagination_class = Page
    filterset_class = SubscriptionFilter
    filter_backends = [django_filters.rest_framework.DjangoFilterBackend]
    # The model for the schema, so that building it reads no database (check --deploy).
    queryset = Subscription.objects.none()

    def get_queryset(self) -> QuerySet[Subscription]:
        return service.visible_subscriptions(self.request.user).order_by("id")

    @extend_schema(
        request=SubscriptionInputSerializer, responses={201: SubscriptionCreatedSerializer}
    )
    def post(self, request: Request) -> Response:
        data = validated(SubscriptionInputSerializer, request.data)
        subscription = service.subscription_create(
            by=request.user,
            url=data["url"],
            event_types=data["event_types"],
            club_id=data["club"],
            description=data["description"],
        )
        return Response(
            SubscriptionCreatedSerializer(subscription).data, status=status.HTTP_201_CREATED
        )


@path_id("subscription_id")
class SubscriptionDetailApi(APIView):
    """One subscription: read, change (``active: false`` holds its deliveries), delete."""

    @extend_schema(responses={200: SubscriptionOutputSerializer})
    def get(self, request: Request, subscription_id: int) -> Response:
        subscription = service.subscription_get(by=request.user, subscription_id=subscription_id)
        return Response(SubscriptionOutputSerializer(subscription).data)

    @extend_schema(
        request=SubscriptionUpdateSerializer, responses={200: SubscriptionOutputSerializer}
    )
    def patch(self, request: Request, subscription_id: int) -> Response:
        data = validated(SubscriptionUpdateSerializer, request.data)
        subscription = service.subscription_update(
            by=request.user, subscription_id=subscription_id, **data
        )
        return Response(SubscriptionOutputSerializer(subscription).data)

    @extend_schema(responses={204: None})
    def delete(self, request: Request, subscription_id: int) -> Response:
        service.subscription_delete(by=request.user, subscription_id=subscription_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class DeliveryFilter(django_filters.FilterSet):
    subscription = django_filters.NumberFilter(min_value=1, max_value=MAX_ID)
    status = django_filters.ChoiceFilter(choices=DeliveryStatus.choices)
    event_type = django_filters.ChoiceFilter(field_name="event__type", choices=EventType.choices)

    class Meta:
        model = Delivery
        fields = ["subscription", "status", "event_type"]


class DeliveryListApi(generics.ListAPIView):  # type: ignore[type-arg]
    """The delivery log, newest first (paginated; ``?subscription=``, ``?status=``,
    ``?event_type=``): attempts, the receiver's last answer, when it is retried."""

    serializer_class = DeliveryOutputSerializer
    pagination_class = Page
    filterset_class = DeliveryFilter
    filter_backends = [django_filters.rest_framework.DjangoFilterBackend]
    # The model for the schema, so that building it reads no database (check --deploy).
    queryset = Delivery.objects.none()

    def get_queryset(self) -> QuerySet[Delivery]:
        return service.visible_deliveries(self.request.user).select_related("event").order_by("-id")


@path_id("delivery_id")
class DeliveryReplayApi(APIView):
    """Send a delivery's event again (a new delivery, after the subscription's pending ones)."""

    @extend_schema(request=None, responses={201: DeliveryOutputSerializer})
    def post(self, request: Request, delivery_id: int) -> Response:
        replay = service.delivery_replay(by=request.user, delivery_id=delivery_id)
        return Response(DeliveryOutputSerializer(replay).data, status=status.HTTP_201_CREATED)
