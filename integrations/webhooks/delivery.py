"""Delivering a subscription's events: one at a time, in order, with retries and back-off.

A worker takes the subscription's lease (a conditional update, so two workers never send
for one subscription at once), sends the oldest pending delivery, records the attempt and
goes on to the next. A failure (no answer, or not 2xx) schedules a retry after an
exponential back-off and holds back the deliveries after it, so a receiver that is down
gets every event once it is up, in order. No database transaction is open while a request
is in flight.
"""

from __future__ import annotations

import ipaddress
import json
import logging
import secrets
import socket
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from urllib.parse import urlsplit

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from integrations.models import Delivery, DeliveryAttempt, DeliveryStatus, Subscription
from integrations.webhooks.schedule import retry_after_commit
from integrations.webhooks.signing import HEADER, signature_header
from observability import metrics

logger = logging.getLogger(__name__)

LEASE = timedelta(seconds=60)
TIMEOUT_SECONDS = 10
BATCH = 100
"""Deliveries sent per task run before it hands over to a new run."""


@dataclass(frozen=True)
class Answer:
    """What the receiver answered: an HTTP status, or why there was none."""

    status: int | None
    error: str = ""

    @property
    def ok(self) -> bool:
        return self.status is not None and 200 <= self.status < 300


Sender = Callable[[str, dict[str, str], bytes], Answer]


def backoff_seconds(attempts: int) -> float:
    """Wait before retry number ``attempts``: base * 2^(attempts-1), capped."""
    base = settings.WEBHOOK_RETRY_BASE_SECONDS
    return float(min(base * 2 ** max(attempts - 1, 0), settings.WEBHOOK_RETRY_MAX_SECONDS))


def url_refusal(url: str) -> str | None:
    """Why ``url`` may not receive webhooks, or None. Private, loopback and link-local
    addresses are refused unless ``WEBHOOK_ALLOW_PRIVATE_HOSTS`` (tests, development)."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return "the url must be http:// or https:// with a host name"
    if settings.WEBHOOK_ALLOW_PRIVATE_HOSTS:
        return None
    try:
        infos = socket.getaddrinfo(parts.hostname, parts.port or 443, type=socket.SOCK_STREAM)
    except OSError:
        return f"the host {parts.hostname} does not resolve"
    for info in infos:
        address = ipaddress.ip_address(info[4][0])
        if not address.is_global:
            return f"the host {parts.hostname} is a private address ({address})"
    return None


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: object, **kwargs: object) -> None:
        return None  # a redirect is an answer that is not 2xx: retried, never followed


_opener = urllib.request.build_opener(_NoRedirects)


def http_send(url: str, headers: dict[str, str], body: bytes) -> Answer:
    """POST ``body`` to ``url``."""
    refusal = url_refusal(url)
    if refusal:
        return Answer(None, refusal)
    request = urllib.request.Request(url, data=body, headers=headers, method="POST")
    try:
        with _opener.open(request, timeout=TIMEOUT_SECONDS) as response:
            return Answer(response.status)
    except urllib.error.HTTPError as error:
        return Answer(error.code, f"HTTP {error.code}")
    except (OSError, ValueError) as error:
        return Answer(None, str(error)[:300] or type(error).__name__)


def event_body(delivery: Delivery) -> bytes:
    """The JSON body of a delivery: the event (the same bytes for every try and replay)."""
    event = delivery.event
    document = {
        "id": event.pk,
        "type": event.type,
        "created": event.created_at.isoformat(),
        "club": event.club_id,
        "data": event.payload,
    }
    return json.dumps(document, separators=(",", ":"), sort_keys=True, default=str).encode()


def _lease_take(subscription_id: int, token: str) -> bool:
    now = timezone.now()
    free = Q(lease_until__isnull=True) | Q(lease_until__lt=now) | Q(lease_token=token)
    with transaction.atomic():
        taken = Subscription.objects.filter(free, pk=subscription_id, active=True).update(
            lease_token=token, lease_until=now + LEASE
        )
    return bool(taken)


def _lease_release(subscription_id: int, token: str) -> None:
    with transaction.atomic():
        Subscription.objects.filter(pk=subscription_id, lease_token=token).update(
            lease_token="", lease_until=None
        )


def subscription_deliver(subscription_id: int, *, send: Sender = http_send) -> str:
    """Send the subscription's pending deliveries in order; returns what it did. Safe to
    run twice at once (the second finds the lease taken) or late (nothing pending)."""
    token = secrets.token_hex(16)
    sent = 0
    try:
        while sent < BATCH:
            if not _lease_take(subscription_id, token):
                return f"sent {sent}; busy or inactive"
            delivery = (
                Delivery.objects.select_related("event", "subscription")
                .filter(subscription_id=subscription_id, status=DeliveryStatus.PENDING)
                .order_by("id")
                .first()
            )
            if delivery is None:
                return f"sent {sent}; nothing pending"
            now = timezone.now()
            if delivery.next_attempt_at and delivery.next_attempt_at > now:
                return f"sent {sent}; retry due at {delivery.next_attempt_at.isoformat()}"
            answer = _attempt(delivery, send)
            if not answer.ok:
                return f"sent {sent}; delivery {delivery.pk} failed ({answer.error})"
            sent += 1
        return f"sent {sent}; more to come"
    finally:
        _lease_release(subscription_id, token)


def _attempt(delivery: Delivery, send: Sender) -> Answer:
    body = event_body(delivery)
    subscription = delivery.subscription
    headers = {
        "Content-Type": "application/json",
        "User-Agent": "stud-webhooks/1",
        "Stud-Event": delivery.event.type,
        "Stud-Event-Id": str(delivery.event_id),
        "Stud-Delivery": str(delivery.pk),
        HEADER: signature_header(subscription.secret, body),
    }
    started = time.perf_counter()
    answer = send(subscription.url, headers, body)
    duration_ms = int((time.perf_counter() - started) * 1000)
    with transaction.atomic():
        DeliveryAttempt.objects.create(
            delivery=delivery,
            status_code=answer.status,
            error=answer.error[:300],
            duration_ms=duration_ms,
        )
        delivery.attempts += 1
        delivery.last_status_code = answer.status
        delivery.last_error = answer.error[:300]
        if answer.ok:
            delivery.status = DeliveryStatus.DELIVERED
            delivery.delivered_at = timezone.now()
            delivery.next_attempt_at = None
        else:
            wait = backoff_seconds(delivery.attempts)
            metrics.webhook_failed(answer.status)
            delivery.next_attempt_at = timezone.now() + timedelta(seconds=wait)
            logger.warning(
                "webhook delivery %s to %s failed (%s); retry %s in %.0f s",
                delivery.pk,
                subscription.url,
                answer.error or answer.status,
                delivery.attempts,
                wait,
            )
            retry_after_commit(subscription.pk, wait)
        delivery.save(
            update_fields=[
                "attempts",
                "last_status_code",
                "last_error",
                "status",
                "delivered_at",
                "next_attempt_at",
            ]
        )
    return answer


def due_subscription_ids() -> list[int]:
    """Active subscriptions with a pending delivery that is due (for the sweep)."""
    now = timezone.now()
    return list(
        Delivery.objects.filter(
            Q(next_attempt_at__isnull=True) | Q(next_attempt_at__lte=now),
            status=DeliveryStatus.PENDING,
            subscription__active=True,
        )
        .values_list("subscription_id", flat=True)
        .distinct()
    )
