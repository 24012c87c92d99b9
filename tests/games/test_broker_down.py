"""A move committed while the broker is unreachable (Redis restarting) is answered as done:
the task it would have sent is left to the beat sweep, which finds the deadline written with
the move (found by ``bench chaos``: a 500 for a committed move)."""

from __future__ import annotations

import pytest
from kombu.exceptions import OperationalError

from games import selectors
from games.models import Hand, HandStatus
from games.services import hands, schedule
from tests.games.test_api_play import _seat_three
from tests.games.test_api_support import client_for, table_url

pytestmark = pytest.mark.django_db


def test_an_act_while_the_broker_is_down_is_answered_and_left_to_the_sweep(
    monkeypatch, django_capture_on_commit_callbacks
):
    table, alice, bob, _bot = _seat_three()
    hands.table_advance(table.id)
    hand = Hand.objects.get(table=table, status=HandStatus.RUNNING)
    actor = selectors.hand_state(hand).candidates[0]
    client = client_for(alice if actor == 0 else bob)
    detail = client.get(table_url(table)).json()
    option = detail["hand"]["view"]["legal_actions"][-1]
    body = {"action": option["action"], "amount": option["to"], "seq": detail["seq"]}
    sent = []

    def unreachable(*args, **kwargs):
        sent.append(args)
        raise OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr(schedule.current_app, "send_task", unreachable)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(table_url(table, "act"), body, format="json")

    assert response.status_code == 200, response.json()
    assert sent  # the advance was tried, and failed
    table.refresh_from_db()
    assert table.seq == detail["seq"] + 1  # the move stands
    hand.refresh_from_db()
    assert hand.deadline is not None  # what the sweep looks for
