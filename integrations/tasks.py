"""Celery tasks of the webhooks: deliver a subscription's events; the sweep that finds
deliveries whose task was lost or whose retry is due."""

from __future__ import annotations

from celery import shared_task

from integrations.webhooks.delivery import due_subscription_ids, subscription_deliver


@shared_task(acks_late=True)
def webhook_deliver(subscription_id: int) -> str:
    """Send a subscription's pending deliveries in order (safe to run twice or late)."""
    return subscription_deliver(subscription_id)


@shared_task
def webhook_sweep() -> int:
    """Beat's safety net: deliver for every subscription with a due pending delivery."""
    due = due_subscription_ids()
    for subscription_id in due:
        webhook_deliver.delay(subscription_id)
    return len(due)


@shared_task
def idempotency_expire() -> int:
    """Forget responses to idempotent requests older than ``IDEMPOTENCY_KEY_HOURS`` (a retry
    after that runs as a new request)."""
    from datetime import timedelta

    from django.conf import settings
    from django.utils import timezone

    from integrations.models import IdempotentRequest

    cutoff = timezone.now() - timedelta(hours=settings.IDEMPOTENCY_KEY_HOURS)
    deleted, _ = IdempotentRequest.objects.filter(created_at__lt=cutoff).delete()
    return deleted
