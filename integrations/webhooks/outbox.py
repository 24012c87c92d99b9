"""Writing events to the outbox, in the caller's database transaction.

``event_emit`` writes one ``OutboxEvent`` and a pending ``Delivery`` for each active
subscription that wants it (the club's own and the site-wide ones), and asks a worker to
deliver them after commit. A change that rolls back takes its event with it; an event
committed is delivered even if the worker is lost (the sweep finds it).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from django.db import connection

from integrations.models import Delivery, EventType, OutboxEvent, Subscription
from integrations.webhooks.schedule import deliver_after_commit


def wanted_by(event_type: str, club_id: int | None) -> list[int]:
    """The active subscriptions that receive ``event_type`` events of ``club_id``.

    Every hand's end asks, so the query's SQL is compiled once per process."""
    sql, params = _active_subscriptions_sql(connection.vendor)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        found = cursor.fetchall()
    types_field = Subscription._meta.get_field("event_types")
    return [
        pk
        for pk, club, types in found
        if (club is None or club == club_id)
        and event_type in types_field.from_db_value(types, None, connection)
    ]


@cache
def _active_subscriptions_sql(vendor: str) -> tuple[str, tuple[Any, ...]]:
    active = Subscription.objects.filter(active=True)
    return active.values_list("pk", "club_id", "event_types").query.sql_with_params()


def event_emit(event_type: str, payload: dict[str, Any], *, club_id: int | None = None) -> None:
    """Record ``event_type`` with ``payload`` for every subscription that wants it."""
    events_emit(event_type, [payload], club_id=club_id)


def events_emit(
    event_type: str, payloads: list[dict[str, Any]], *, club_id: int | None = None
) -> None:
    """Record ``event_type`` events with ``payloads``, in order, for every subscription that
    wants them: a few statements however many."""
    EventType(event_type)  # an unknown type is a bug in the caller: fail loudly
    subscriptions = wanted_by(event_type, club_id)
    if not subscriptions or not payloads:
        return
    events = OutboxEvent.objects.bulk_create(
        OutboxEvent(type=event_type, club_id=club_id, payload=payload) for payload in payloads
    )
    Delivery.objects.bulk_create(
        Delivery(subscription_id=pk, event=event) for event in events for pk in subscriptions
    )
    deliver_after_commit(subscriptions)
