"""Tasks of the project itself: the workers' heartbeat."""

from typing import Any

from celery import shared_task

from config import heartbeat


@shared_task(bind=True)
def ping(self: Any) -> str:
    """Record a worker heartbeat (sent by beat every few seconds); returns "pong"."""
    heartbeat.record_heartbeat(worker=self.request.hostname or "unknown")
    return "pong"
