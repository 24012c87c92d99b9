"""The floor end to end with real worker processes: bots get up, listed players are called
by the workers (offers from database deadlines), accept through the API and are dealt in;
an unanswered offer expires on the worker's timer and the next name is called.

Also measures the time from a seat opening (the table's ``leave`` event) to the offer
reaching the next player (their ``GET /api/v1/games/waitlist/`` shows it), printed as
p50/p95 (run with ``-s`` to see it).
"""

from __future__ import annotations

import statistics
import time
from datetime import datetime

import pytest
from django.utils import timezone

from games.models import EntryStatus, Hand, Offer, OfferStatus, Player, Seat, TableEvent, WaitEntry
from games.services.seating import seat_leave, seat_sit
from tests.e2e.tables import wait_until
from tests.e2e.workers import WorkerProcess
from tests.games.factories import make_player
from tests.games.floor import make_game, tables_of
from tests.games.test_api_support import RecordingClient, client_for

pytestmark = pytest.mark.e2e

BOTS = 2
SAMPLES = 12
TIMEOUT = 60


def _offer_seen(client: RecordingClient) -> tuple[int, dict[str, object]] | None:
    """The caller's entry and its offer, once ``GET /waitlist/`` shows one."""
    for entry in client.get("/api/v1/games/waitlist/").json():
        if entry["offer"]:
            return entry["id"], entry["offer"]
    return None


def _wait_for_offer(client: RecordingClient) -> tuple[int, dict[str, object], datetime]:
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline:
        seen = _offer_seen(client)
        if seen is not None:
            return (*seen, timezone.now())
        time.sleep(0.01)
    pytest.fail("the offer never reached the player")


def _opened_at(table_id: int, seat: int) -> datetime:
    event = TableEvent.objects.filter(table_id=table_id, kind="leave", data__seat=seat).latest(
        "seq"
    )
    return event.created_at


def test_bots_leave_and_listed_players_are_called_seated_and_dealt_in(
    celery_worker_process: WorkerProcess,
):
    game = make_game(
        seat_count=4, offer_seconds=30, table_options={"allow_bots": True, "pause_ms": 100}
    )
    table = tables_of(game)[0]
    bots = [make_player(bot="station") for _ in range(4)]
    for number, bot in enumerate(bots, start=1):
        seat_sit(table_id=table.id, player=bot, seat_number=number, buy_in=500, by_staff=True)
    humans = [make_player() for _ in range(SAMPLES)]
    clients = {h.id: client_for(h) for h in humans}
    for human in humans:
        joined = clients[human.id].post("/api/v1/games/waitlist/", {"game": game.id})
        assert joined.status_code == 201, joined.content
    wait_until("the bots to play", lambda: Hand.objects.filter(table=table).count() >= 2, TIMEOUT)

    to_server: list[float] = []
    to_player: list[float] = []
    leaving: list[Player] = bots[BOTS:]  # two bots get up; then each seated human in turn
    for human in humans:
        who = leaving.pop(0)
        seat = Seat.objects.get(table=table, player=who).number
        seat_leave(table_id=table.id, player=who)  # mid-hand: freed when the hand settles
        entry_id, offer, seen_at = _wait_for_offer(clients[human.id])
        opened = _opened_at(table.id, seat)
        made = Offer.objects.get(entry_id=entry_id, status=OfferStatus.PENDING)
        to_server.append((made.created_at - opened).total_seconds())
        to_player.append((seen_at - opened).total_seconds())
        assert (offer["table"], offer["seat"]) == (table.id, seat)
        accepted = clients[human.id].post(
            f"/api/v1/games/waitlist/{entry_id}/accept/", {"buy_in": 100}
        )
        assert accepted.status_code == 200, accepted.content
        # the human sits out (nobody plays their cards here) and is the next to get up
        clients[human.id].post(f"/api/v1/tables/{table.id}/sit-out/")
        leaving.append(human)

    assert WaitEntry.objects.filter(game=game, status=EntryStatus.SEATED).count() == SAMPLES
    seated = list(
        Seat.objects.filter(table=table, player__isnull=False).values_list("player", flat=True)
    )
    assert len(seated) == len(set(seated)) == 4
    assert Offer.objects.filter(game=game, status=OfferStatus.PENDING).count() == 0
    _report("seat opened -> offer made (server)", to_server)
    _report("seat opened -> offer seen by the player (API poll)", to_player)


def test_a_seated_listed_player_is_dealt_in_and_an_unanswered_offer_expires_on_the_workers(
    celery_worker_process: WorkerProcess,
):
    game = make_game(
        seat_count=3, offer_seconds=3, table_options={"allow_bots": True, "pause_ms": 100}
    )
    table = tables_of(game)[0]
    bots = [make_player(bot="station") for _ in range(3)]
    for number, bot in enumerate(bots, start=1):
        seat_sit(table_id=table.id, player=bot, seat_number=number, buy_in=500, by_staff=True)
    sleepy, keen = make_player(), make_player()
    for player in (sleepy, keen):
        client_for(player).post("/api/v1/games/waitlist/", {"game": game.id})

    seat_leave(table_id=table.id, player=bots[2])
    first = wait_until(
        "the first offer",
        lambda: Offer.objects.filter(game=game, entry__player=sleepy).first(),
        TIMEOUT,
    )
    # sleepy never answers: the worker's timer expires the offer and calls keen
    entry_id, _, _ = _wait_for_offer(client_for(keen))
    first.refresh_from_db()
    assert first.status == OfferStatus.EXPIRED
    assert first.closed_at is not None and first.closed_at >= first.expires_at
    assert WaitEntry.objects.get(game=game, player=sleepy).status == EntryStatus.WAITING

    keen_client = client_for(keen)
    assert (
        keen_client.post(f"/api/v1/games/waitlist/{entry_id}/accept/", {"buy_in": 100}).status_code
        == 200
    )
    hand = wait_until(
        "a hand dealing keen in",
        lambda: next(
            (
                h
                for h in Hand.objects.filter(table=table)
                if any(p["player"] == keen.id for p in h.lineup)
            ),
            None,
        ),
        TIMEOUT,
    )
    assert hand.lineup[-1]["seat"] == 3


def _report(what: str, seconds: list[float]) -> None:
    ordered = sorted(seconds)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    print(
        f"\n{what}: n={len(ordered)} p50={statistics.median(ordered) * 1000:.0f} ms "
        f"p95={p95 * 1000:.0f} ms max={ordered[-1] * 1000:.0f} ms"
    )
