"""Log lines: one JSON object each, with the request id of the request or task they belong
to, and the same id in a task that request sent (carried in the message's headers)."""

from __future__ import annotations

import logging

import pytest
from celery.worker.request import Request
from django.conf import settings
from kombu import Connection

from config.celery import CONTEXT_HEADER, app
from games import tasks
from observability.logs import logging_config
from tests.games.factories import make_player, make_table, seat_players
from tests.games.test_api_support import client_for, table_url
from tests.observability.logged import logged


def test_json_lines_of_a_request_carry_its_request_id_user_and_table(db):
    table = make_table()
    alice = make_player("alice")

    with logged() as captured:
        response = client_for(alice).get(table_url(table))

    assert response.status_code == 200
    request_id = response["X-Request-ID"]
    assert len(request_id) == 32
    lines = captured.lines()
    served = [line for line in lines if line["logger"] == "stud.requests"]
    assert len(served) == 1
    assert served[0]["request_id"] == request_id
    assert served[0]["user"] == alice.user_id
    assert served[0]["table"] == table.id
    assert served[0]["status"] == 200 and served[0]["path"] == table_url(table)
    assert all(line["request_id"] == request_id for line in lines)
    assert {"time", "level", "logger", "message"} <= set(served[0])


def test_djangos_own_line_of_a_refused_request_carries_its_request_id(db):
    with logged() as captured:
        response = client_for(None).get("/api/v1/no-such-thing/")

    assert response.status_code == 404
    [refused] = [line for line in captured.lines() if line["logger"] == "django.request"]
    assert refused["message"] == "Not Found: /api/v1/no-such-thing/"
    assert refused["request_id"] == response["X-Request-ID"]


def test_a_request_id_given_by_the_proxy_is_kept_and_a_bad_one_replaced(db):
    client = client_for(None)
    assert client.get("/healthz", headers={"X-Request-ID": "lb-7f3a.91"})["X-Request-ID"] == (
        "lb-7f3a.91"
    )
    replaced = client.get("/healthz", headers={"X-Request-ID": 'x" injected\n'})["X-Request-ID"]
    assert replaced != 'x" injected\n' and len(replaced) == 32


def _take_message(request_id: str = "", task_id: str = ""):
    """The message sent with ``request_id`` (or of ``task_id``) from the test run's queue (the
    others stay)."""
    with Connection(
        settings.CELERY_BROKER_URL, transport_options=settings.CELERY_BROKER_TRANSPORT_OPTIONS
    ) as broker:
        queue = broker.SimpleQueue(settings.CELERY_TASK_DEFAULT_QUEUE)
        others = []
        try:
            while True:
                message = queue.get(timeout=1)
                sent = message.headers.get(CONTEXT_HEADER, {})
                if (request_id and sent.get("request_id") == request_id) or (
                    task_id and message.headers["id"] == task_id
                ):
                    return message
                others.append(message)
        finally:
            for other in others:
                other.requeue()
            queue.close()


def test_the_request_id_travels_into_the_task_the_request_sent(transactional_db):
    """alice sits down at a table with two bots: the request sends the table's advance task;
    run as a worker runs it (from the broker's message), its lines carry alice's request id,
    her user, the table and the hand it dealt."""
    table = make_table()
    seat_players(table, [make_player(bot="station") for _ in range(2)], buy_in=200)
    alice = make_player("alice")

    with logged() as in_web:
        response = client_for(alice).post(
            table_url(table, "sit"), {"seat": 3, "buy_in": 200}, format="json"
        )
    assert response.status_code == 200, response.json()
    request_id = response["X-Request-ID"]
    assert all(line["request_id"] == request_id for line in in_web.lines())

    message = _take_message(request_id)
    assert message.headers["task"] == "games.tasks.table_advance"
    assert message.headers[CONTEXT_HEADER] == {"request_id": request_id, "user": alice.user_id}
    # (at DEBUG, Celery's first look at each task's signature is logged once a process, with
    # no task running: a worker does it at its start)
    with logged(logging.INFO) as in_worker:
        Request(message, app=app, task=tasks.table_advance).execute()

    lines = in_worker.lines()
    done = [line for line in lines if line["logger"] == "celery.app.trace"]
    assert done and "succeeded" in done[0]["message"]
    assert all(line["request_id"] == request_id for line in lines)
    assert done[0]["user"] == alice.user_id
    assert done[0]["table"] == table.id
    assert isinstance(done[0]["hand"], int)


def test_a_task_no_request_sent_is_searched_by_its_own_id(transactional_db):
    sent = tasks.sweep.apply_async()  # as beat sends it: no request
    message = _take_message(task_id=sent.id)
    assert CONTEXT_HEADER not in message.headers
    with logged() as captured:
        Request(message, app=app, task=tasks.sweep).execute()

    done = [line for line in captured.lines() if line["logger"] == "celery.app.trace"]
    assert len(done) == 1 and "succeeded" in done[0]["message"]
    assert done[0]["request_id"] == sent.id


def test_plain_format_for_development_and_an_unknown_format_refused():
    plain = logging_config(log_format="plain", level="INFO")
    assert plain["handlers"]["console"]["formatter"] == "plain"
    assert "%(context)s" in plain["formatters"]["plain"]["format"]
    with pytest.raises(ValueError, match="LOG_FORMAT='xml'"):
        logging_config(log_format="xml", level="INFO")
