"""The gauges of /metrics that are state, not events: read when Prometheus scrapes, a few
aggregate queries and one look at the broker, so they are right in every process and after a
restart (a counter kept in memory would not be).
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from datetime import timedelta

from django.conf import settings
from django.db.models import Count, Min, Q
from django.utils import timezone
from kombu import Connection
from kombu.exceptions import ChannelError
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

from games import task_failures
from games.models import Hand, HandStatus, HoldReason, Seat, Table, TableStatus
from games.services.schedule import table_queue
from integrations.models import Delivery, DeliveryStatus
from tourney.models import Status as TournamentStatus
from tourney.models import Tournament

logger = logging.getLogger(__name__)

BROKER_TIMEOUT_SECONDS = 2
_HOLD_NAMES = {reason.value: reason.name.lower() for reason in HoldReason}


def queue_names() -> list[str]:
    """The default queue and, with ``TABLE_QUEUES=N``, the N table queues."""
    count = settings.TABLE_QUEUES
    return [settings.CELERY_TASK_DEFAULT_QUEUE, *(table_queue(k) or "" for k in range(count))]


def queue_lengths(names: list[str]) -> dict[str, int]:
    """Messages waiting in each queue (a queue never declared has none)."""
    lengths = {}
    with Connection(
        settings.CELERY_BROKER_URL,
        transport_options=settings.CELERY_BROKER_TRANSPORT_OPTIONS,
        connect_timeout=BROKER_TIMEOUT_SECONDS,
    ) as broker:
        channel = broker.default_channel
        for name in names:
            try:
                lengths[name] = channel.queue_declare(queue=name, passive=True).message_count
            except ChannelError:
                lengths[name] = 0
    return lengths


class StateCollector(Collector):
    """Tables by status and held by reason, hands running and overdue, tournaments by status,
    players seated, the webhook outbox's backlog, failing periodic work, queue lengths."""

    def collect(self) -> Iterator[GaugeMetricFamily]:
        yield from self._tables()
        yield from self._hands()
        yield from self._tournaments()
        yield from self._seated()
        yield from self._outbox()
        yield from self._failing()
        yield from self._queues()

    def _tables(self) -> Iterator[GaugeMetricFamily]:
        by_status = GaugeMetricFamily("stud_tables", "Tables, by status.", labels=["status"])
        counts = dict(Table.objects.values_list("status").annotate(n=Count("id")))
        for status in TableStatus:
            by_status.add_metric([status.value], counts.get(status.value, 0))
        yield by_status
        held = GaugeMetricFamily(
            "stud_tables_held",
            "Open tables that deal no new hand, by why (games.models.HoldReason).",
            labels=["reason"],
        )
        counts = dict(
            Table.objects.filter(status=TableStatus.OPEN)
            .exclude(hold_reason=HoldReason.NONE)
            .values_list("hold_reason")
            .annotate(n=Count("id"))
        )
        for reason, name in _HOLD_NAMES.items():
            if reason:
                held.add_metric([name], counts.pop(reason, 0))
        for reason, n in counts.items():  # a reason with details ("live: ..."), if any
            held.add_metric([_HOLD_NAMES.get(reason, "other")], n)
        yield held

    def _hands(self) -> Iterator[GaugeMetricFamily]:
        now = timezone.now()
        limit = now - timedelta(seconds=settings.HEALTH_HAND_OVERDUE_SECONDS)
        running = Hand.objects.filter(status=HandStatus.RUNNING, table__status=TableStatus.OPEN)
        found = running.aggregate(
            running=Count("id"),
            overdue=Count("id", filter=Q(deadline__lt=limit)),
            oldest=Min("deadline"),
        )
        yield GaugeMetricFamily(
            "stud_hands_running", "Hands running at open tables.", value=found["running"]
        )
        yield GaugeMetricFamily(
            "stud_hands_overdue",
            "Hands at open tables overdue by more than HEALTH_HAND_OVERDUE_SECONDS (stuck: "
            "the sweep should have moved them).",
            value=found["overdue"],
        )
        oldest = found["oldest"]
        yield GaugeMetricFamily(
            "stud_hand_overdue_seconds",
            "How long the most overdue running hand is past its deadline (0: none).",
            value=max(0.0, (now - oldest).total_seconds()) if oldest else 0.0,
        )

    def _tournaments(self) -> Iterator[GaugeMetricFamily]:
        family = GaugeMetricFamily("stud_tournaments", "Tournaments, by status.", labels=["status"])
        counts = dict(Tournament.objects.values_list("status").annotate(n=Count("id")))
        for status in TournamentStatus:
            family.add_metric([status.value], counts.get(status.value, 0))
        yield family

    def _seated(self) -> Iterator[GaugeMetricFamily]:
        family = GaugeMetricFamily(
            "stud_players_seated", "Players in a seat at an open or paused table.", labels=["kind"]
        )
        seated = Seat.objects.filter(
            player__isnull=False, table__status__in=[TableStatus.OPEN, TableStatus.PAUSED]
        ).aggregate(all=Count("id"), bots=Count("id", filter=~Q(player__bot="")))
        family.add_metric(["human"], seated["all"] - seated["bots"])
        family.add_metric(["bot"], seated["bots"])
        yield family

    def _outbox(self) -> Iterator[GaugeMetricFamily]:
        now = timezone.now()
        pending = Delivery.objects.filter(status=DeliveryStatus.PENDING).aggregate(
            n=Count("id"), oldest=Min("created_at")
        )
        yield GaugeMetricFamily(
            "stud_webhook_outbox_backlog", "Webhook deliveries waiting.", value=pending["n"]
        )
        oldest = pending["oldest"]
        yield GaugeMetricFamily(
            "stud_webhook_outbox_oldest_seconds",
            "Age of the oldest webhook delivery waiting (0: none).",
            value=(now - oldest).total_seconds() if oldest else 0.0,
        )

    def _failing(self) -> Iterator[GaugeMetricFamily]:
        family = GaugeMetricFamily(
            "stud_failing_work",
            "Periodic work failing now (a periodic task, a table's sweep), by key: the times "
            "it failed in a row. /healthz is degraded while any is.",
            labels=["key"],
        )
        for failure in task_failures.failures_now():
            family.add_metric([failure["key"]], failure["count"])
        yield family

    def _queues(self) -> Iterator[GaugeMetricFamily]:
        family = GaugeMetricFamily(
            "stud_broker_queue_length", "Messages waiting in each Celery queue.", labels=["queue"]
        )
        up = GaugeMetricFamily("stud_broker_up", "1 if the broker answered this scrape.")
        try:
            for name, length in queue_lengths(queue_names()).items():
                family.add_metric([name], length)
            up.add_metric([], 1)
        except Exception as error:  # the scrape still answers: the gauge says the broker is down
            logger.warning("metrics: the broker did not answer: %s", error)
            up.add_metric([], 0)
        yield family
        yield up
