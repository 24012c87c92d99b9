"""The service's own counters and histograms, counted where the event happens (a hand dealt,
a hand finished, a ledger transaction, a webhook that failed, a task's outcome).

In-process ``prometheus_client`` metrics: one increment costs a microsecond and no I/O, so
the hot path (a bot hand's task) pays no statement and no round trip for them. With
``PROMETHEUS_MULTIPROC_DIR`` set (gunicorn's workers, Celery's pool processes) each process
writes them to files in that folder and ``/metrics`` adds them up (``config.metrics``).

What is state rather than an event (tables held, tournaments running, seated players, the
outbox's backlog, queue lengths) is read when Prometheus scrapes (``config.metrics_state``).
"""

from __future__ import annotations

import os
import socket

from prometheus_client import Counter, Histogram, disable_created_metrics, values

disable_created_metrics()  # no "_created" series beside every counter: noise for the scraper


def _files_named_by_host_and_process() -> None:
    """In multiprocess mode, name each process's files by its host and process id, not by its
    process id alone: the web's, the workers' and beat's containers may share the folder (one
    volume, deploy/compose.yaml), and each container numbers its processes from 1. Set before
    the first metric is made (this module is imported with the Celery app, before Django's
    middleware and database backends make theirs)."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        host = socket.gethostname().replace("_", "-")
        values.ValueClass = values.MultiProcessValue(lambda: f"{host}-{os.getpid()}")


_files_named_by_host_and_process()

HAND_SECONDS_BUCKETS = (0.01, 0.05, 0.1, 0.5, 1, 5, 15, 30, 60, 120, 300, 600, 1200, 3600)
"""From a bot hand (milliseconds) to a slow human one (many minutes)."""

TASK_SECONDS_BUCKETS = (0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30)

hands_dealt = Counter("stud_hands_dealt", "Hands started at our tables.", ["variant"])
hand_duration = Histogram(
    "stud_hand_duration_seconds",
    "From a hand's start to its settlement.",
    ["variant"],
    buckets=HAND_SECONDS_BUCKETS,
)
ledger_transactions = Counter(
    "stud_ledger_transactions", "Transactions written to the ledger.", ["reason"]
)
webhook_delivery_failures = Counter(
    "stud_webhook_delivery_failures",
    "Webhook delivery attempts that failed (a retry follows).",
    ["reason"],
)
tasks = Counter("stud_celery_tasks", "Celery tasks run, by name and outcome.", ["task", "outcome"])
task_duration = Histogram(
    "stud_celery_task_duration_seconds",
    "Celery tasks' run time, by name.",
    ["task"],
    buckets=TASK_SECONDS_BUCKETS,
)


cache_seconds = Histogram(
    "stud_cache_operation_seconds",
    "Cache operations' time, by operation.",
    ["operation"],
    buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1),
)
cache_gets = Counter("stud_cache_gets", "Cache gets, by result.", ["result"])


def hand_dealt(variant: str) -> None:
    hands_dealt.labels(variant).inc()


def hand_finished(variant: str, seconds: float) -> None:
    hand_duration.labels(variant).observe(seconds)


def ledger_posted(reason: str) -> None:
    ledger_transactions.labels(reason).inc()


def webhook_failed(status: int | None) -> None:
    """A delivery attempt failed: no answer (``status`` None: refused, timed out, unreachable)
    or an answer that was not 2xx."""
    if status is None:
        reason = "no_answer"
    elif 400 <= status < 600:
        reason = f"http_{status // 100}xx"
    else:
        reason = "http_other"
    webhook_delivery_failures.labels(reason).inc()


def task_done(task: str, outcome: str, seconds: float | None = None) -> None:
    tasks.labels(task, outcome).inc()
    if seconds is not None:
        task_duration.labels(task).observe(seconds)
