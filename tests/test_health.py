"""GET /healthz: 200 when database, broker and a worker are fine; 503 with advice otherwise."""

import time
from pathlib import Path

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client, override_settings

from config import heartbeat
from games import task_failures

pytestmark = pytest.mark.django_db

UNREACHABLE_REDIS = "redis://127.0.0.1:9/0"  # the discard port: nothing listens there


@pytest.fixture
def fresh_worker_heartbeat() -> None:
    heartbeat.record_heartbeat(worker="celery@test")


@pytest.fixture(autouse=True)
def _no_failures_from_other_tests() -> None:
    cache.delete(task_failures.CACHE_KEY)


def test_healthz_is_ok_when_database_broker_and_worker_are(
    client: Client, fresh_worker_heartbeat: None
) -> None:
    response = client.get("/healthz")

    assert response.status_code == 200
    assert response.json() == {
        "database": "ok",
        "broker": "ok",
        "worker": "ok",
        "tasks": "ok",
        "hands": "ok",
        "status": "ok",
    }


def test_healthz_is_503_when_the_broker_is_unreachable(
    client: Client, fresh_worker_heartbeat: None
) -> None:
    with override_settings(CELERY_BROKER_URL=UNREACHABLE_REDIS, CELERY_BROKER_TRANSPORT_OPTIONS={}):
        response = client.get("/healthz")

    body = response.json()
    assert response.status_code == 503
    assert body["broker"].startswith("error: ")
    assert (body["database"], body["worker"], body["status"]) == ("ok", "ok", "unavailable")
    assert "Start Redis" in body["message"]


def test_healthz_is_503_when_the_embedded_broker_folder_is_gone(
    client: Client, fresh_worker_heartbeat: None, tmp_path: Path
) -> None:
    gone = str(tmp_path / "gone")
    with override_settings(
        CELERY_BROKER_URL="filesystem://",
        CELERY_BROKER_TRANSPORT_OPTIONS={"data_folder_in": gone, "data_folder_out": gone},
    ):
        response = client.get("/healthz")

    assert response.status_code == 503
    assert response.json()["broker"] == f"error: missing broker folder {gone}"


def test_healthz_is_503_when_no_worker_ever_sent_a_heartbeat(client: Client) -> None:
    cache.delete(heartbeat.HEARTBEAT_CACHE_KEY)

    response = client.get("/healthz")

    body = response.json()
    assert response.status_code == 503
    assert body["worker"] == "error: no worker heartbeat yet"
    assert (body["database"], body["broker"], body["status"]) == ("ok", "ok", "unavailable")
    assert "celery -A config worker" in body["message"]


def test_healthz_is_503_when_the_last_heartbeat_is_too_old(client: Client) -> None:
    stale = heartbeat.Heartbeat(
        at=time.time() - 120, worker="celery@gone", database=connection.settings_dict["NAME"]
    )
    cache.set(heartbeat.HEARTBEAT_CACHE_KEY, stale)

    response = client.get("/healthz")

    assert response.status_code == 503
    assert response.json()["worker"] == "error: last worker heartbeat 120 s ago (celery@gone)"


def test_healthz_is_503_when_the_worker_uses_another_database(client: Client) -> None:
    elsewhere = heartbeat.Heartbeat(at=time.time(), worker="celery@lost", database="other")
    cache.set(heartbeat.HEARTBEAT_CACHE_KEY, elsewhere)

    response = client.get("/healthz")

    assert response.status_code == 503
    assert response.json()["worker"].startswith("error: worker celery@lost uses database 'other'")


def test_a_heartbeat_names_the_database_it_reached() -> None:
    beat = heartbeat.record_heartbeat(worker="celery@here")

    assert heartbeat.last_heartbeat() == beat
    assert beat["database"] == connection.settings_dict["NAME"]


# --- the work itself (issue 8, suite item 3) -------------------------------------------------


def _stuck_hand(overdue_seconds: float):
    from datetime import timedelta

    from django.utils import timezone

    from games.models import Hand, HandStatus
    from games.services import hands
    from games.services.seating import seat_sit
    from tests.games.factories import make_player, make_table

    table = make_table(name="Main")
    for n in (1, 2):
        seat_sit(table_id=table.id, player=make_player(), seat_number=n, buy_in=100)
    hands.table_advance(table.id)
    hand = Hand.objects.get(table=table, status=HandStatus.RUNNING)
    deadline = timezone.now() - timedelta(seconds=overdue_seconds)
    Hand.objects.filter(pk=hand.pk).update(deadline=deadline)
    return table


def test_healthz_is_degraded_naming_the_table_when_a_hand_is_overdue(
    client: Client, fresh_worker_heartbeat: None, settings
) -> None:
    table = _stuck_hand(overdue_seconds=settings.HEALTH_HAND_OVERDUE_SECONDS + 5)

    response = client.get("/healthz")

    body = response.json()
    assert response.status_code == 503
    assert body["status"] == "degraded"
    assert body["hands"].startswith(f"error: table {table.id} (Main) hand 1 overdue by ")
    assert f"table {table.id} (Main)" in body["reason"]
    assert (body["database"], body["broker"], body["worker"], body["tasks"]) == ("ok",) * 4


def test_healthz_allows_a_hand_the_sweep_has_not_reached_yet(
    client: Client, fresh_worker_heartbeat: None
) -> None:
    _stuck_hand(overdue_seconds=1)

    assert client.get("/healthz").status_code == 200


def test_healthz_ignores_the_hand_of_a_paused_table(
    client: Client, fresh_worker_heartbeat: None, settings
) -> None:
    from games.models import Table

    table = _stuck_hand(overdue_seconds=settings.HEALTH_HAND_OVERDUE_SECONDS + 5)
    Table.objects.filter(pk=table.pk).update(status="paused")

    assert client.get("/healthz").status_code == 200


def test_healthz_is_degraded_while_a_periodic_task_keeps_failing(
    client: Client, fresh_worker_heartbeat: None, monkeypatch: pytest.MonkeyPatch, caplog
) -> None:
    # Given the sweep task failing as a whole at every run (reading the hands raises)
    import logging

    from games import selectors, tasks

    def hands_gone(now: object) -> None:
        raise RuntimeError("hands are gone")

    monkeypatch.setattr(selectors, "hands_overdue", hands_gone)
    caplog.set_level(logging.INFO)
    for _ in range(3):
        tasks.sweep.apply()

    # Then Celery's traceback is logged once, and /healthz names the task and the error
    failures_logged = [r for r in caplog.records if r.name == "celery.app.trace"]
    assert len(failures_logged) == 1
    response = client.get("/healthz")
    body = response.json()
    assert response.status_code == 503
    assert body["status"] == "degraded"
    assert "periodic task games.tasks.sweep failed 3 times" in body["tasks"]
    assert "RuntimeError: hands are gone" in body["reason"]

    # And once it works again it is forgotten
    monkeypatch.undo()
    tasks.sweep.apply()
    assert client.get("/healthz").json()["tasks"] == "ok"
