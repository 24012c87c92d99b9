"""Concurrency on PostgreSQL: simultaneous requests and tasks at one table are serialized by
the table's row lock (and the unique constraints behind it).

Each thread has its own database connection (Django's are per thread) and closes it when
done. Tasks that would be enqueued after commit are recorded instead, so the tests play
the worker themselves and nothing is left on the broker.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection

from games import selectors
from games.engine.fairness import commitment
from games.errors import Conflict
from games.models import Hand, Table, TableEvent
from games.services import hands, schedule
from games.services.client_seeds import SentSeed, client_seed_send
from games.services.seating import seat_sit
from tests.games.factories import make_player, make_table
from tests.games.test_api_support import client_for, table_url

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

THREADS = 4
ROUNDS = 6
LONG_PAUSE_MS = 600_000


@pytest.fixture
def enqueued(monkeypatch: pytest.MonkeyPatch) -> dict[str, list[Any]]:
    """Record the tasks the services would send after commit (no broker involved)."""
    sent: dict[str, list[Any]] = {"advance_now": [], "advance_at": [], "expire_later": []}
    for name, calls in sent.items():
        monkeypatch.setattr(schedule, name, lambda *args, calls=calls: calls.append(args))
    return sent


def run_at_once(calls: list[Callable[[], Any]]) -> list[Any]:
    """Run the calls in threads released together; returns each result or exception."""
    barrier = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)

    def run(k: int) -> None:
        try:
            barrier.wait()
            results[k] = calls[k]()
        except Exception as error:  # reported to the test, which asserts there is none
            results[k] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(k,)) for k in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return results


def _seat(table: Table, players: list[Any]) -> None:
    for number, player in enumerate(players, start=1):
        seat_sit(
            table_id=table.id,
            player=player,
            seat_number=number,
            buy_in=200,
            by_staff=player.is_bot,
        )


def _contiguous_log(table_id: int) -> bool:
    seq = Table.objects.get(pk=table_id).seq
    seqs = list(TableEvent.objects.filter(table_id=table_id).values_list("seq", flat=True))
    return seqs == list(range(1, seq + 1))


def test_two_simultaneous_actions_for_the_same_turn_apply_exactly_one(enqueued):
    table = make_table(pause_ms=LONG_PAUSE_MS)
    players = {"alice": make_player("alice"), "bob": make_player("bob")}
    _seat(table, list(players.values()))
    hands.table_advance(table.id)
    hand = Hand.objects.get(table=table)
    rounds = 0
    while selectors.hand_state(hand).candidates and rounds < ROUNDS:
        state = selectors.hand_state(hand)
        actor = state.candidates[0]
        player = players["alice" if actor == 0 else "bob"]
        seq = Table.objects.get(pk=table.id).seq
        staying = [o for o in state.legal_actions() if o.action != "fold"]
        # a double click: the same turn twice, with two different decisions where there are
        bodies = [
            {"action": o.action, "amount": o.to, "seq": seq} for o in (staying[0], staying[-1])
        ]
        actions_before = TableEvent.objects.filter(table=table, kind="action").count()

        responses = run_at_once(
            [
                lambda body=body, player=player: client_for(player).post(
                    table_url(table, "act"), body, format="json"
                )
                for body in bodies
            ]
        )

        codes = sorted(r.status_code for r in responses)
        assert codes == [200, 409], [r.content for r in responses]
        refused = next(r for r in responses if r.status_code == 409).json()
        assert refused["error"]["code"] == "stale_seq"
        assert TableEvent.objects.filter(table=table, kind="action").count() == actions_before + 1
        accepted = next(r for r in responses if r.status_code == 200).json()
        assert Table.objects.get(pk=table.id).seq == accepted["seq"] > seq
        hands.table_advance(table.id)  # the worker's part
        hand.refresh_from_db()
        rounds += 1
    assert rounds == ROUNDS  # nobody folds: the hand lasts longer than this
    assert _contiguous_log(table.id)


def test_an_action_and_another_players_simultaneous_action_apply_only_the_turns_owner(enqueued):
    table = make_table(pause_ms=LONG_PAUSE_MS)
    alice, bob = make_player("alice"), make_player("bob")
    _seat(table, [alice, bob])
    hands.table_advance(table.id)
    state = selectors.hand_state(Hand.objects.get(table=table))
    owner, other = (alice, bob) if state.candidates == (0,) else (bob, alice)
    seq = Table.objects.get(pk=table.id).seq
    body = {"action": "bring_in", "amount": table.bring_in, "seq": seq}

    responses = run_at_once(
        [
            lambda player=player: client_for(player).post(
                table_url(table, "act"), body, format="json"
            )
            for player in (owner, other)
        ]
    )

    assert responses[0].status_code == 200, responses[0].content
    assert responses[1].status_code in (403, 409), responses[1].content
    assert TableEvent.objects.filter(table=table, kind="action").count() == 1
    assert Table.objects.get(pk=table.id).seq == seq + 1


def test_concurrent_advances_start_one_hand_and_start_the_clock_once(enqueued):
    table = make_table(pause_ms=LONG_PAUSE_MS)
    _seat(table, [make_player("alice"), make_player(bot="station"), make_player(bot="station")])

    outcomes = run_at_once([lambda: hands.table_advance(table.id)] * THREADS)

    assert outcomes == ["waiting for a player"] * THREADS
    assert Hand.objects.filter(table=table).count() == 1
    events = TableEvent.objects.filter(table=table)
    assert events.filter(kind="hand_start").count() == 1
    assert events.filter(kind="deal").count() == 9  # third street, dealt once
    assert len(enqueued["expire_later"]) == 1  # the human's clock started once
    assert _contiguous_log(table.id)


def test_concurrent_advances_at_a_bot_table_play_one_hand_then_wait_for_the_pause(enqueued):
    table = make_table(pause_ms=LONG_PAUSE_MS)
    _seat(table, [make_player(bot=kind) for kind in ("station", "random", "rules")])

    outcomes = run_at_once([lambda: hands.table_advance(table.id)] * THREADS)

    assert sorted(outcomes) == ["hand finished"] + ["waiting for the pause between hands"] * (
        THREADS - 1
    )
    assert Hand.objects.filter(table=table).count() == 1
    assert TableEvent.objects.filter(table=table, kind="hand_end").count() == 1
    assert sum(table.seats.values_list("stack", flat=True)) == 600
    assert _contiguous_log(table.id)


def _sending(table_id: int, player: Any, commitment_hex: str) -> Callable[[], Any]:
    return lambda: client_seed_send(
        table_id=table_id,
        player=player,
        commitment_hex=commitment_hex,
        client_seed=f"seed of {player.id}",
    )


def test_a_client_seed_sent_as_its_hand_starts_is_either_in_that_hand_or_refused(enqueued):
    for _ in range(ROUNDS):
        table = make_table()
        people = [make_player() for _ in range(3)]
        _seat(table, people)
        announced = commitment(bytes(Table.objects.get(pk=table.id).next_seed))
        sends = [_sending(table.id, player, announced) for player in people]

        results = run_at_once([lambda table_id=table.id: hands.table_advance(table_id), *sends])

        assert results[0] == "waiting for a player", results
        start = TableEvent.objects.get(table_id=table.id, kind="hand_start")
        for player, sent, published in zip(
            people, results[1:], start.data["client_seeds"], strict=True
        ):
            if isinstance(sent, SentSeed):  # accepted: in the very hand it named
                assert sent.hand_number == 1 and published == f"seed of {player.id}"
            else:  # too late for hand 1, and said so; not carried to hand 2
                assert isinstance(sent, Conflict) and sent.code == "stale_commitment"
                assert published == ""
        assert Table.objects.get(pk=table.id).next_client_seeds == {}
