"""GET /metrics: refused without the token or an allowed address, and once a hand is played
the service's families are there with the right values."""

from __future__ import annotations

import pytest
from django.test import Client
from prometheus_client import REGISTRY
from prometheus_client.parser import text_string_to_metric_families

from games import tasks
from games.models import HoldReason, Table
from games.services import hands
from tests.games.factories import make_player, make_table, seat_players

pytestmark = pytest.mark.django_db

TOKEN = "scraper-secret-token"


@pytest.fixture(autouse=True)
def _metrics_token(settings):
    settings.METRICS_TOKEN = TOKEN
    settings.METRICS_ALLOW_FROM = []


def scrape(**headers: str):
    return Client().get("/metrics", headers=headers)


def families(response) -> dict[str, dict[tuple, float]]:
    """Each family's samples: {family: {(sample name, sorted labels): value}}."""
    found: dict[str, dict[tuple, float]] = {}
    for family in text_string_to_metric_families(response.content.decode()):
        samples = found.setdefault(family.name, {})
        for sample in family.samples:
            samples[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return found


def test_refused_without_the_token_or_with_a_wrong_one():
    assert scrape().status_code == 404
    assert scrape(Authorization="Bearer wrong").status_code == 404
    assert scrape(Authorization=f"Token {TOKEN}").status_code == 404


def test_refused_to_everyone_when_neither_token_nor_addresses_are_set(settings):
    settings.METRICS_TOKEN = ""
    assert scrape().status_code == 404
    assert scrape(Authorization="Bearer ").status_code == 404


def test_answered_with_the_token():
    response = scrape(Authorization=f"Bearer {TOKEN}")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain; version=")


def test_answered_to_an_allowed_address_only(settings):
    import ipaddress

    settings.METRICS_ALLOW_FROM = [ipaddress.ip_network("10.0.0.0/8")]
    assert Client(REMOTE_ADDR="10.1.2.3").get("/metrics").status_code == 200
    assert Client(REMOTE_ADDR="192.168.1.9").get("/metrics").status_code == 404


def _dealt(variant: str) -> float:
    return REGISTRY.get_sample_value("stud_hands_dealt_total", {"variant": variant}) or 0.0


def test_after_a_hand_the_families_are_there(django_capture_on_commit_callbacks):
    table = make_table(variant="razz")
    bots = [make_player(bot="station") for _ in range(3)]
    with django_capture_on_commit_callbacks(execute=True):
        seat_players(table, bots, buy_in=200)
    held = make_table(name="On a break")
    Table.objects.filter(pk=held.pk).update(hold_reason=HoldReason.BREAK)
    dealt_before = _dealt("razz")

    assert hands.table_advance(table.id) == "hand finished"
    tasks.sweep.apply()
    response = scrape(Authorization=f"Bearer {TOKEN}")

    assert response.status_code == 200
    found = families(response)
    assert _dealt("razz") == dealt_before + 1
    assert found["stud_hands_dealt"][("stud_hands_dealt_total", (("variant", "razz"),))] >= 1
    durations = found["stud_hand_duration_seconds"]
    assert durations[("stud_hand_duration_seconds_count", (("variant", "razz"),))] >= 1
    assert found["stud_tables_held"][("stud_tables_held", (("reason", "break"),))] == 1
    assert found["stud_tables_held"][("stud_tables_held", (("reason", "after_hand"),))] == 0
    assert found["stud_players_seated"][("stud_players_seated", (("kind", "bot"),))] == 3
    assert found["stud_players_seated"][("stud_players_seated", (("kind", "human"),))] == 0
    assert found["stud_hands_overdue"][("stud_hands_overdue", ())] == 0
    assert found["stud_tournaments"][("stud_tournaments", (("status", "running"),))] == 0
    assert found["stud_webhook_outbox_backlog"][("stud_webhook_outbox_backlog", ())] == 0
    assert found["stud_broker_up"][("stud_broker_up", ())] == 1
    assert ("stud_broker_queue_length", (("queue", "stud-test-" + _run_id()),)) in found[
        "stud_broker_queue_length"
    ]
    assert (
        found["stud_ledger_transactions"][
            ("stud_ledger_transactions_total", (("reason", "buy_in"),))
        ]
        >= 3
    )
    assert (
        found["stud_celery_tasks"][
            ("stud_celery_tasks_total", (("outcome", "success"), ("task", "games.tasks.sweep")))
        ]
        >= 1
    )
    for family in (
        "stud_failing_work",
        "stud_webhook_delivery_failures",
        "stud_cache_operation_seconds",
        "django_http_requests_latency_seconds_by_view_method",
        "django_http_responses_total_by_status_view_method",
        "django_db_query_duration_seconds",
    ):
        assert family in found, family


def _run_id() -> str:
    from django.conf import settings

    return settings.TEST_RUN_ID


SAMPLE_SUFFIXES = {
    "counter": ("_total",),
    "histogram": ("_bucket", "_count", "_sum"),
    "gauge": ("",),
    "unknown": ("",),
}


def test_the_alert_rules_and_the_dashboard_use_only_metrics_we_expose():
    import json
    import re
    from pathlib import Path

    import yaml

    monitoring = Path(__file__).resolve().parents[2] / "deploy" / "monitoring"
    rules = yaml.safe_load((monitoring / "alerts.yml").read_text())
    expressions = [rule["expr"] for group in rules["groups"] for rule in group["rules"]]
    dashboard = json.loads((monitoring / "grafana-dashboard.json").read_text())
    expressions += [t["expr"] for panel in dashboard["panels"] for t in panel["targets"]]
    used = {name for expr in expressions for name in re.findall(r"\b(?:stud|django)_[a-z_]+", expr)}

    response = scrape(Authorization=f"Bearer {TOKEN}")
    exposed = {
        family.name + suffix
        for family in text_string_to_metric_families(response.content.decode())
        for suffix in SAMPLE_SUFFIXES[family.type]
    }
    assert used and used <= exposed, sorted(used - exposed)
    alerts = {rule["alert"] for group in rules["groups"] for rule in group["rules"]}
    assert {"StudTableStuck", "StudPeriodicTaskFailing", "StudWebhookOutboxGrowing"} <= alerts


def test_a_failed_webhook_delivery_is_counted_and_its_delivery_waits_in_the_backlog(settings):
    from integrations.webhooks.delivery import subscription_deliver
    from money import cashier
    from tests.games.test_api_support import client_for
    from tests.integrations.receiver import free_port

    settings.WEBHOOK_ALLOW_PRIVATE_HOSTS = True
    staff = make_player(staff=True)
    subscribed = client_for(staff).post(
        "/api/v1/webhooks/subscriptions/",
        {"url": f"http://127.0.0.1:{free_port()}/down", "event_types": ["ledger.transaction"]},
        format="json",
    )
    assert subscribed.status_code == 201
    cashier.deposit(player_id=make_player(funds=0).id, amount=1, by=staff.user)
    labels = {"reason": "no_answer"}
    before = REGISTRY.get_sample_value("stud_webhook_delivery_failures_total", labels) or 0

    assert "failed" in subscription_deliver(subscribed.json()["id"])

    assert REGISTRY.get_sample_value("stud_webhook_delivery_failures_total", labels) == before + 1
    found = families(scrape(Authorization=f"Bearer {TOKEN}"))
    assert found["stud_webhook_outbox_backlog"][("stud_webhook_outbox_backlog", ())] == 1
    assert (
        found["stud_webhook_outbox_oldest_seconds"][("stud_webhook_outbox_oldest_seconds", ())] >= 0
    )
