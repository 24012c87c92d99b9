"""GET /healthz: 200 when database, broker and a worker are fine; 503 with advice otherwise."""

import time
from pathlib import Path

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client, override_settings

from config import heartbeat

pytestmark = pytest.mark.django_db

UNREACHABLE_REDIS = "redis://127.0.0.1:9/0"  # the discard port: nothing listens there


@pytest.fixture
def fresh_worker_heartbeat() -> None:
    heartbeat.record_heartbeat(worker="celery@test")


def test_healthz_is_ok_when_database_broker_and_worker_are(
    client: Client, fresh_worker_heartbeat: None
) -> None:
    response = client.get("/healthz")

    assert response.status_code == 200
    assert response.json() == {"database": "ok", "broker": "ok", "worker": "ok", "status": "ok"}


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
