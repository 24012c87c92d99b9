"""End to end with a real worker process: humans play through the REST API (clients in
this process, tokens from the API) while the worker deals, advances and settles hands."""

from __future__ import annotations

from typing import Any

import pytest

from games import selectors
from games.engine.events import Award
from games.models import Hand, HandStatus, Player, Seat, Table, TableEvent
from tests.e2e.tables import ApiPlayers, running_hand, total_chips, wait_until
from tests.e2e.workers import WorkerProcess
from tests.games.factories import make_player, make_table
from tests.games.test_api_support import RecordingClient, calling_down, table_url

pytestmark = pytest.mark.e2e

BUY_IN = 200
HANDS = 2
HAND_TIMEOUT = 120  # seconds for one hand (the embedded broker polls once a second)


def signed_in(player: Player) -> RecordingClient:
    """A client holding the token the API gives for the player's password."""
    client = RecordingClient()
    response = client.post(
        "/api/v1/auth/token/", {"username": player.user.username, "password": "pw"}
    )
    assert response.status_code == 200, response.content
    client.credentials(HTTP_AUTHORIZATION=f"Token {response.json()['token']}")
    return client


def alice_bets(name: str, options: list[dict[str, Any]]) -> dict[str, Any]:
    """Alice bets or completes whenever she may; everyone else checks or calls, so nobody
    folds and every hand reaches showdown with chips in the pot."""
    if name == "alice":
        for option in options:
            if option["action"] in ("complete", "bet"):
                return option
    return calling_down(name, options)


def finished_hands(table: Table) -> list[Hand]:
    return list(Hand.objects.filter(table=table, status=HandStatus.FINISHED).order_by("number"))


def sit(client: RecordingClient, table: Table, seat: int, buy_in: int) -> None:
    response = client.post(table_url(table, "sit"), {"seat": seat, "buy_in": buy_in})
    assert response.status_code == 200, response.content


def test_three_players_play_to_showdown_then_one_leaves_and_another_is_dealt_in(
    celery_worker_process: WorkerProcess,
):
    staff = signed_in(make_player("boss", staff=True))
    table = make_table(status="paused", pause_ms=200, action_seconds=300)
    names = ("alice", "bob", "carol")
    clients = {name: signed_in(make_player(name)) for name in names}
    for seat, name in enumerate(names, start=1):
        sit(clients[name], table, seat, BUY_IN)
    assert staff.post(table_url(table, "resume")).status_code == 200  # the worker deals
    players = ApiPlayers(table, dict(clients), alice_bets)

    players.play_until(
        f"{HANDS} hands", lambda: len(finished_hands(table)) >= HANDS, HANDS * HAND_TIMEOUT
    )

    for hand in finished_hands(table):
        state = selectors.hand_state(hand)
        assert [e["player"] for e in hand.lineup] == [p.id for p in _players(names)]
        assert any(e.type == "showdown" for e in state.log), "everyone called to showdown"
        assert sum(p.stack for p in state.players) == 3 * BUY_IN
        assert selectors.hand_state_from_events(hand) == state
        assert sum(e.amount for e in state.log if isinstance(e, Award)) > 3 * table.ante
    assert players.decisions >= HANDS * 3 * 4  # three humans on every street, more or less
    assert total_chips(table.id) == 3 * BUY_IN

    # carol leaves during a hand: she is folded out and her seat is freed when it ends
    hand = wait_until("the next hand", lambda: running_hand(table.id), HAND_TIMEOUT)
    assert clients["carol"].post(table_url(table, "leave")).status_code == 200
    del players.clients["carol"]
    players.play_until(
        "carol's seat to be free",
        lambda: Seat.objects.filter(table=table, number=3, player=None).exists(),
        HAND_TIMEOUT,
    )
    left = selectors.hand_state(Hand.objects.get(pk=hand.id))
    carol_cash = left.players[2].stack
    assert left.players[2].folded
    leave = TableEvent.objects.get(table=table, kind="leave")
    assert leave.data["cash_out"] == carol_cash

    # dave takes seat 3 and is dealt in on the next hand
    dave = make_player("dave")
    players.clients["dave"] = signed_in(dave)
    sit(players.clients["dave"], table, 3, 150)
    sat_at = TableEvent.objects.get(table=table, kind="sit", data__player=dave.id).seq

    def next_hand_finished() -> Hand | None:
        started = TableEvent.objects.filter(table=table, kind="hand_start", seq__gt=sat_at)
        hand = started.order_by("seq").values_list("hand", flat=True).first()
        return Hand.objects.filter(pk=hand, status=HandStatus.FINISHED).first()

    first = players.play_until("the hand after dave sat down", next_hand_finished, HAND_TIMEOUT)
    assert [e["player"] for e in first.lineup] == [p.id for p in _players(("alice", "bob"))] + [
        dave.id
    ]
    assert selectors.hand_state(first).players[2].starting_stack == 150
    assert total_chips(table.id) == 3 * BUY_IN - carol_cash + 150


def _players(names: tuple[str, ...]) -> list[Player]:
    return [Player.objects.get(user__username=name) for name in names]
