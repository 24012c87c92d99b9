"""Managing subscriptions (a club's: its directors; site-wide: staff) and replaying a
delivery. Reads are scoped in the query (``visible_subscriptions``): a subscription the
caller may not see is a 404, never a 403 that would confirm it exists."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.db.models import QuerySet
from django.utils.translation import gettext as _

from clubs.access import can_direct, directed_club_ids, is_staff
from clubs.models import Club
from integrations.codes import Code
from integrations.errors import Forbidden, Invalid, NotFound
from integrations.models import Delivery, EventType, Subscription
from integrations.webhooks.schedule import deliver_after_commit
from integrations.webhooks.targets import url_refusal


def visible_subscriptions(user: Any) -> QuerySet[Subscription]:
    """Staff see every subscription; a director those of their clubs."""
    if is_staff(user):
        return Subscription.objects.all()
    return Subscription.objects.filter(club_id__in=directed_club_ids(user))


def visible_deliveries(user: Any) -> QuerySet[Delivery]:
    return Delivery.objects.filter(subscription__in=visible_subscriptions(user))


def _check(url: str | None, event_types: Sequence[str] | None) -> None:
    if url is not None:
        refusal = url_refusal(url)
        if refusal:
            raise Invalid(refusal, code=Code.BAD_URL)
    if event_types is not None:
        unknown = sorted(set(event_types) - set(EventType.values))
        if unknown or not event_types:
            raise Invalid(
                _("event_types must name at least one of: %(names)s")
                % {"names": ", ".join(EventType.values)},
                code=Code.BAD_EVENT_TYPES,
                detail={"unknown": unknown},
            )


def subscription_create(
    *, by: Any, url: str, event_types: Sequence[str], club_id: int | None, description: str = ""
) -> Subscription:
    """Subscribe ``url`` to ``event_types``; the secret that signs them is made here."""
    if club_id is not None and not Club.objects.filter(pk=club_id).exists():
        raise NotFound(_("no club %(club_id)s") % {"club_id": club_id}, code=Code.NO_CLUB)
    if not can_direct(by, club_id):
        raise Forbidden(
            _("site-wide webhooks are for staff; a club's are for its directors"),
            code=Code.NOT_DIRECTOR,
        )
    _check(url, event_types)
    return Subscription.objects.create(
        club_id=club_id,
        url=url,
        event_types=sorted(set(event_types)),
        description=description,
        secret="whsec_" + secrets.token_hex(24),
        created_by=by,
    )


def subscription_get(*, by: Any, subscription_id: int) -> Subscription:
    subscription = visible_subscriptions(by).filter(pk=subscription_id).first()
    if subscription is None:
        raise NotFound(
            _("no webhook subscription %(subscription_id)s") % {"subscription_id": subscription_id},
            code=Code.NO_SUBSCRIPTION,
        )
    return subscription


def subscription_update(*, by: Any, subscription_id: int, **fields: Any) -> Subscription:
    """Change the url, event types, description or ``active`` (inactive: deliveries wait)."""
    _check(fields.get("url"), fields.get("event_types"))
    with transaction.atomic():
        subscription = subscription_get(by=by, subscription_id=subscription_id)
        for name, value in fields.items():
            setattr(subscription, name, sorted(set(value)) if name == "event_types" else value)
        subscription.save(update_fields=list(fields))
    if subscription.active:
        deliver_after_commit([subscription.pk])
    return subscription


def subscription_delete(*, by: Any, subscription_id: int) -> None:
    subscription_get(by=by, subscription_id=subscription_id).delete()


def delivery_replay(*, by: Any, delivery_id: int) -> Delivery:
    """Send a delivered event again: a new delivery, after the subscription's pending ones."""
    with transaction.atomic():
        delivery = visible_deliveries(by).filter(pk=delivery_id).first()
        if delivery is None:
            raise NotFound(
                _("no webhook delivery %(delivery_id)s") % {"delivery_id": delivery_id},
                code=Code.NO_DELIVERY,
            )
        replay = Delivery.objects.create(
            subscription_id=delivery.subscription_id, event_id=delivery.event_id, replay_of=delivery
        )
        deliver_after_commit([delivery.subscription_id])
    return replay
