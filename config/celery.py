"""The Celery application: configured from Django settings (``CELERY_*``)."""

import os
from typing import Any

from celery import Celery
from celery.signals import worker_ready

from config import broker, heartbeat

assert broker.Transport  # imported for its effect: filesystem:// writes messages atomically

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("stud")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
app.autodiscover_tasks(["config"])


@worker_ready.connect
def _announce_ready_worker(sender: Any, **kwargs: Any) -> None:
    """Record a heartbeat at start-up, so /healthz sees a new worker before beat's next tick."""
    heartbeat.record_heartbeat(worker=sender.hostname)
