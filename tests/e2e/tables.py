"""Helpers for the tables' end-to-end and fault tests (no tests here): chip totals, waiting,
and a driver that plays human seats through the API while real workers deal and advance."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest

from games import selectors
from games.models import Hand, HandStatus, Seat, Table
from tests.games.test_api_support import RecordingClient, table_url

POLL_SECONDS = 0.05


def running_hand(table_id: int) -> Hand | None:
    return Hand.objects.filter(table_id=table_id, status=HandStatus.RUNNING).first()


def total_chips(table_id: int) -> int:
    """Chips at the table: seat stacks, with the running hand's live stacks plus everything
    its players have put in the pots."""
    hand = running_hand(table_id)
    seats = {s.number: s.stack for s in Seat.objects.filter(table_id=table_id)}
    if hand is not None:
        state = selectors.hand_state(hand)
        for entry, player in zip(hand.lineup, state.players, strict=True):
            seats[entry["seat"]] = player.stack + player.total_in
    return sum(seats.values())


def wait_until(
    what: str,
    condition: Callable[[], Any],
    timeout: float,
    tick: Callable[[], None] | None = None,
) -> Any:
    """Poll ``condition`` until it is truthy (calling ``tick`` each round); fail after
    ``timeout`` seconds naming ``what``."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        if tick is not None:
            tick()
        time.sleep(POLL_SECONDS)
    pytest.fail(f"timed out after {timeout} s waiting for {what}")


Chooser = Callable[[str, list[dict[str, Any]]], dict[str, Any]]


class ApiPlayers:
    """Human seats played through the API by clients in this process: each poll, whoever
    is offered legal actions acts with the seq they saw."""

    def __init__(self, table: Table, clients: dict[str, RecordingClient], choose: Chooser):
        self.table = table
        self.clients = clients
        self.choose = choose
        self.decisions = 0
        self.stale = 0

    def act_once(self) -> None:
        """One round: every client looks at the table and acts if it is their turn."""
        for name, client in self.clients.items():
            response = client.get(table_url(self.table))
            assert response.status_code == 200, response.content
            detail = response.json()
            hand = detail["hand"]
            options = hand["view"]["legal_actions"] if hand else []
            if not options:
                continue
            option = self.choose(name, options)
            body: dict[str, Any] = {"action": option["action"], "seq": detail["seq"]}
            if option["action"] not in ("show", "muck"):
                body["amount"] = option["to"]
            answer = client.post(table_url(self.table, "act"), body, format="json")
            if answer.status_code == 409:  # the worker wrote an event in between: look again
                self.stale += 1
                continue
            assert answer.status_code == 200, answer.json()
            self.decisions += 1

    def play_until(self, what: str, condition: Callable[[], Any], timeout: float) -> Any:
        """Keep acting for the humans until ``condition`` holds."""
        return wait_until(what, condition, timeout, tick=self.act_once)
