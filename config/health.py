"""GET /healthz: are the database, the broker and at least one worker reachable, and does
the work they do succeed?

Answers 200 when all is fine. 503 ``unavailable`` when the database, the broker or every
worker is gone; 503 ``degraded`` when they are up but a periodic task keeps failing or a hand
is overdue by more than its clock plus the sweep interval (the table is named). ``reason``
says what is wrong and ``message`` what to do.
"""

import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from django.conf import settings
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET
from kombu import Connection

from config.heartbeat import last_heartbeat
from games import task_failures
from games.models import Hand, HandStatus, TableStatus

BROKER_TIMEOUT_SECONDS = 3


@dataclass(frozen=True)
class Check:
    """The outcome of one check: "ok", or a problem and what to do about it."""

    status: str
    advice: str = ""

    @property
    def ok(self) -> bool:
        return self.status == "ok"


def check_database() -> Check:
    """Run a trivial query on the default database."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except Exception as error:
        return Check(
            f"error: {error}",
            "Start the database, or fix DATABASE_URL (unset, a SQLite file under var/ is used).",
        )
    return Check("ok")


def check_broker() -> Check:
    """Connect to the Celery broker (for the embedded one: find its folders)."""
    options = settings.CELERY_BROKER_TRANSPORT_OPTIONS
    advice = (
        "Start Redis, or fix REDIS_URL / CELERY_BROKER_URL (unset, an embedded broker is used)."
    )
    missing = [
        folder for key, folder in options.items() if "folder" in key and not Path(folder).is_dir()
    ]
    if missing:
        return Check(f"error: missing broker folder {missing[0]}", advice)
    try:
        with Connection(
            settings.CELERY_BROKER_URL,
            transport_options=options,
            connect_timeout=BROKER_TIMEOUT_SECONDS,
        ) as broker:
            broker.ensure_connection(max_retries=1, interval_start=0, interval_step=0)
    except Exception as error:
        return Check(f"error: {error}", advice)
    return Check("ok")


def check_worker() -> Check:
    """Find a recent heartbeat from a worker that uses our database."""
    advice = (
        "Start a Celery worker and beat (`make run` starts both; or `celery -A config worker` "
        "and `celery -A config beat`) with the same DATABASE_URL and broker as the web."
    )
    try:
        beat = last_heartbeat()
    except Exception as error:
        return Check(f"error: cannot read heartbeats: {error}", advice)
    if beat is None:
        return Check("error: no worker heartbeat yet", advice)
    age = time.time() - beat["at"]
    if age > settings.WORKER_HEARTBEAT_MAX_AGE:
        return Check(f"error: last worker heartbeat {age:.0f} s ago ({beat['worker']})", advice)
    our_database = str(connection.settings_dict["NAME"])
    if beat["database"] != our_database:
        return Check(
            f"error: worker {beat['worker']} uses database {beat['database']!r}, "
            f"not {our_database!r}",
            advice,
        )
    return Check("ok")


def check_periodic_tasks() -> Check:
    """No periodic work (the sweep of a table, the tournament tick) failed recently."""
    failures = task_failures.failures_now()
    if not failures:
        return Check("ok")
    described = "; ".join(
        f"{f['what']} failed {f['count']} times since "
        f"{datetime.fromtimestamp(f['since'], tz=UTC):%H:%M:%S} UTC: {f['error']}"
        for f in failures
    )
    return Check(
        f"error: {described}",
        "The worker log has each failure's traceback (logged once). Pause a table that cannot "
        "go on (POST /api/v1/tables/{id}/pause/) and report the failure.",
    )


def check_hands() -> Check:
    """No hand at an open table is overdue by more than the sweep should ever let it be."""
    limit = timezone.now() - timedelta(seconds=settings.HEALTH_HAND_OVERDUE_SECONDS)
    overdue = list(
        Hand.objects.filter(
            status=HandStatus.RUNNING, table__status=TableStatus.OPEN, deadline__lt=limit
        )
        .select_related("table")
        .order_by("deadline")[:5]
    )
    if not overdue:
        return Check("ok")
    now = timezone.now()
    described = ", ".join(
        f"table {h.table_id} ({h.table.name}) hand {h.number} overdue by "
        f"{(now - h.deadline).total_seconds():.0f} s"
        for h in overdue
        if h.deadline is not None
    )
    return Check(
        f"error: {described}",
        "A hand is stuck past its clock: check that beat and a worker run (the sweep moves "
        "overdue hands every few seconds) and read the worker log for that table.",
    )


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    """Report each dependency and the work; 200 if all are ok, else 503 with the reason and
    advice."""
    dependencies = {
        "database": check_database(),
        "broker": check_broker(),
        "worker": check_worker(),
    }
    work = {"tasks": check_periodic_tasks()}
    work["hands"] = check_hands() if dependencies["database"].ok else Check("unknown")
    checks = {**dependencies, **work}
    body: dict[str, str] = {name: check.status for name, check in checks.items()}
    failing = {name: check for name, check in checks.items() if not check.ok}
    if not failing:
        body["status"] = "ok"
        return JsonResponse(body)
    unavailable = any(not check.ok for check in dependencies.values())
    body["status"] = "unavailable" if unavailable else "degraded"
    body["reason"] = "; ".join(f"{name}: {check.status}" for name, check in failing.items())
    body["message"] = " ".join(dict.fromkeys(c.advice for c in failing.values() if c.advice))
    return JsonResponse(body, status=503)
