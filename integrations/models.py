"""Idempotent requests and webhooks: subscriptions, the outbox and the delivery log."""

from __future__ import annotations

from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class IdempotentRequest(models.Model):
    """The first response to a POST carrying an ``Idempotency-Key``, kept for its retries.

    ``scope`` is the account the request authenticated as (``user:<id>``), so two accounts
    never share keys; ``fingerprint`` hashes the method, path and body."""

    scope = models.CharField(max_length=64)
    key = models.CharField(max_length=255)
    fingerprint = models.CharField(max_length=64)
    status = models.PositiveSmallIntegerField()
    content_type = models.CharField(max_length=100, blank=True, default="")
    body = models.BinaryField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["scope", "key"], name="idempotent_request_key")
        ]
        indexes = [models.Index(fields=["created_at"], name="idempotent_request_age")]

    def __str__(self) -> str:
        return f"{self.key} -> {self.status}"


class EventType(models.TextChoices):
    HAND_FINISHED = "hand.finished", _("a hand finished")
    TOURNAMENT_REGISTERED = "tournament.registered", _("a player registered (or re-entered)")
    TOURNAMENT_STARTED = "tournament.started", _("a tournament started (the draw)")
    TOURNAMENT_LEVEL = "tournament.level", _("a new level")
    TOURNAMENT_BREAK = "tournament.break", _("a break")
    TOURNAMENT_BUST = "tournament.bust", _("players busted")
    TOURNAMENT_PLACES = "tournament.places", _("finishing places made final (sent once)")
    TOURNAMENT_TABLE_BROKEN = "tournament.table_broken", _("a table was broken")
    TOURNAMENT_MOVE = "tournament.move", _("players moved")
    TOURNAMENT_FINISHED = "tournament.finished", _("a tournament finished")
    PAYOUT = "payout", _("prizes paid")
    LEDGER_TRANSACTION = "ledger.transaction", _("a ledger transaction")
    STANDINGS_UPDATED = "standings.updated", _("league standings updated")


class Subscription(models.Model):
    """An endpoint that receives some event types: a club's (its directors manage it) or
    site-wide (staff only; it receives every club's events too)."""

    club = models.ForeignKey(
        "clubs.Club", on_delete=models.CASCADE, null=True, blank=True, related_name="webhooks"
    )
    url = models.URLField(max_length=500)
    secret = models.CharField(max_length=64)
    event_types = models.JSONField(default=list)
    active = models.BooleanField(default=True)
    description = models.CharField(max_length=200, blank=True, default="")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    # the worker delivering this subscription's events holds the lease (one at a time keeps
    # them in order); a lost worker's lease runs out
    lease_token = models.CharField(max_length=32, blank=True, default="")
    lease_until = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return f"{self.url} ({', '.join(self.event_types)})"


class OutboxEvent(models.Model):
    """An event for the outside, written in the same transaction as what it reports."""

    type = models.CharField(max_length=40, choices=EventType.choices)
    club = models.ForeignKey(
        "clubs.Club", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    payload = models.JSONField(encoder=DjangoJSONEncoder)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return f"#{self.pk} {self.type}"


class DeliveryStatus(models.TextChoices):
    PENDING = "pending", _("waiting (or retrying)")
    DELIVERED = "delivered", _("delivered (the receiver answered 2xx)")


class Delivery(models.Model):
    """One event for one subscription. Deliveries of a subscription go out one at a time in
    id order; a failed one is retried with back-off and holds back the ones after it."""

    subscription = models.ForeignKey(
        Subscription, on_delete=models.CASCADE, related_name="deliveries"
    )
    event = models.ForeignKey(OutboxEvent, on_delete=models.CASCADE, related_name="deliveries")
    status = models.CharField(
        max_length=10, choices=DeliveryStatus.choices, default=DeliveryStatus.PENDING
    )
    attempts = models.PositiveIntegerField(default=0)
    next_attempt_at = models.DateTimeField(null=True, blank=True)
    last_status_code = models.PositiveSmallIntegerField(null=True, blank=True)
    last_error = models.CharField(max_length=300, blank=True, default="")
    delivered_at = models.DateTimeField(null=True, blank=True)
    replay_of = models.ForeignKey(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="replays"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        indexes = [
            models.Index(
                fields=["subscription", "id"],
                condition=Q(status="pending"),
                name="delivery_pending_idx",
            )
        ]

    def __str__(self) -> str:
        return f"{self.event_id} -> {self.subscription_id} ({self.status})"


class DeliveryAttempt(models.Model):
    """One try at a delivery: what the receiver answered, or why it could not."""

    delivery = models.ForeignKey(Delivery, on_delete=models.CASCADE, related_name="attempts_log")
    status_code = models.PositiveSmallIntegerField(null=True, blank=True)
    error = models.CharField(max_length=300, blank=True, default="")
    duration_ms = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
