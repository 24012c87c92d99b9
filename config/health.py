"""GET /healthz: are the database, the broker and at least one worker reachable?

Answers 200 when all three are fine and 503 otherwise, with a message saying what to do.
"""

import time
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET
from kombu import Connection

from config.heartbeat import last_heartbeat

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


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    """Report each dependency; 200 if all are ok, else 503 with advice."""
    checks = {
        "database": check_database(),
        "broker": check_broker(),
        "worker": check_worker(),
    }
    body: dict[str, str] = {name: check.status for name, check in checks.items()}
    problems = [check.advice for check in checks.values() if not check.ok]
    body["status"] = "ok" if not problems else "unavailable"
    if problems:
        body["message"] = " ".join(dict.fromkeys(problems))
    return JsonResponse(body, status=200 if not problems else 503)
