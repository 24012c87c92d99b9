"""The Celery application: configured from Django settings (``CELERY_*``)."""

import inspect
import logging
import os
import time
from typing import Any

from celery import Celery
from celery.signals import (
    before_task_publish,
    task_failure,
    task_postrun,
    task_prerun,
    task_revoked,
    task_success,
    worker_ready,
)
from django.db import close_old_connections

from config import broker, heartbeat
from observability import context, metrics

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


@task_prerun.connect
@task_postrun.connect
def _recycle_old_connections(sender: Any, **kwargs: Any) -> None:
    """Around each task, what Django does around each request: close the database connection
    if it is older than CONN_MAX_AGE or broken (a database restart), keep it otherwise. Not
    for an eager task, which runs inside its caller's transaction."""
    if not getattr(sender.request, "is_eager", False):
        close_old_connections()


# --- Log context and metrics of tasks (docs/operations.md) -----------------------------------
CONTEXT_HEADER = "stud_context"
"""The message header that carries the sender's request id and user into the task."""

_running: dict[str, tuple[object, float]] = {}
"""Each running task's context token and start time, by task id."""


@before_task_publish.connect
def _send_context(headers: dict[str, Any], **kwargs: Any) -> None:
    """A task sent while a request or task is served carries its request id and user."""
    fields = context.current()
    carried = {name: fields[name] for name in ("request_id", "user") if name in fields}
    if carried:
        headers[CONTEXT_HEADER] = carried


_parameters: dict[str, tuple[str, ...]] = {}
"""Each task's parameter names, by task name (read once)."""


def _arguments(task: Any, args: Any, kwargs: Any) -> dict[str, Any]:
    names = _parameters.get(task.name)
    if names is None:
        names = _parameters[task.name] = tuple(inspect.signature(task.run).parameters)
    named = dict(zip(names, args or (), strict=False))
    return {**named, **(kwargs or {})}


@task_prerun.connect
def _task_context(task_id: str, task: Any, args: Any, kwargs: Any, **_: Any) -> None:
    """Bind the task's log context: the request id it was sent with (else the caller's, for an
    eager task, else its own task id), the sender's user, and the table, hand or tournament
    its arguments name."""
    sent = getattr(task.request, CONTEXT_HEADER, None) or {}
    request_id = sent.get("request_id") or context.current().get("request_id") or task_id
    token = context.start(
        request_id=request_id,
        user=sent.get("user"),
        **context.ids_from(_arguments(task, args, kwargs)),
    )
    _running[task_id] = (token, time.perf_counter())


@task_postrun.connect
def _task_done(task_id: str, task: Any, state: str | None = None, **_: Any) -> None:
    token, started = _running.pop(task_id, (None, None))
    seconds = None if started is None else time.perf_counter() - started
    metrics.task_done(task.name, (state or "unknown").lower(), seconds)
    if token is not None:
        context.end(token)


@task_revoked.connect
def _task_revoked(sender: Any, expired: bool = False, **_: Any) -> None:
    metrics.task_done(getattr(sender, "name", "unknown"), "expired" if expired else "revoked")


def _periodic(task_name: str) -> bool:
    from django.conf import settings

    return any(entry["task"] == task_name for entry in settings.CELERY_BEAT_SCHEDULE.values())


_repeated_failures: set[str] = set()
"""Ids of failed periodic task runs whose error is already in the log (see below)."""


@task_failure.connect
def _remember_periodic_failure(
    sender: Any, task_id: str, exception: BaseException, **kw: Any
) -> None:
    """A periodic task failed: record it for /healthz; its traceback is logged by Celery only
    the first time (or when the error changes), not at every run."""
    from games import task_failures

    if not _periodic(sender.name):
        return
    news = task_failures.failure_seen(
        key=f"task:{sender.name}", what=f"periodic task {sender.name}", error=exception, log=False
    )
    if not news:
        _repeated_failures.add(task_id)


@task_success.connect
def _forget_periodic_failure(sender: Any, **kwargs: Any) -> None:
    from games import task_failures

    if _periodic(sender.name):
        task_failures.failure_over(key=f"task:{sender.name}")


class RepeatedFailureFilter(logging.Filter):
    """Drops Celery's log of a periodic task failure that is already in the log."""

    def filter(self, record: logging.LogRecord) -> bool:
        task_id = getattr(record, "data", {}).get("id")
        if task_id in _repeated_failures:
            _repeated_failures.discard(task_id)
            return False
        return True


logging.getLogger("celery.app.trace").addFilter(RepeatedFailureFilter())
