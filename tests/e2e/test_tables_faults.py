"""Faults on real worker processes: a worker killed with SIGKILL in the middle of a hand.

(Duplicate, late and lost timers need no worker: tests/games/test_lost_timers.py.)
"""

from __future__ import annotations

import time

import pytest
from django.db import connection, transaction

from games import selectors, tasks
from games.locks import table_for_update
from games.models import Hand, HandStatus, Seat, TableEvent
from games.services import schedule
from games.services.tables import table_set_status
from tests.e2e.tables import ApiPlayers, running_hand, total_chips, wait_until
from tests.e2e.workers import WorkerPool
from tests.games.factories import make_player, make_table, seat_players
from tests.games.test_api_support import calling_down, client_for

BUY_IN = 200
LONG_PAUSE_MS = 600_000  # no next hand while the test watches the first one
SWEEP_SECONDS = 1.0  # how often the crash test plays beat's sweep


def _state(hand: Hand):
    return selectors.hand_state(Hand.objects.get(pk=hand.id))


# ----------------------------------------------------------------------------- crash


def _someone_waits_on_a_lock() -> bool:
    """On PostgreSQL: a session of this database is waiting for a lock (the table's)."""
    if connection.vendor != "postgresql":
        return False
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity "
            "WHERE datname = current_database() AND wait_event_type = 'Lock'"
        )
        return cursor.fetchone()[0] > 0


def _wait_for_lock_waiter(seconds: float) -> None:
    """Give the worker time to block on the table lock we hold: ``seconds``, or on
    PostgreSQL until a session is seen waiting for a lock (at most 10 s: the worker holds an
    unacknowledged task for the table either way, which is what its death must not lose)."""
    if connection.vendor != "postgresql":
        time.sleep(seconds)
        return
    deadline = time.monotonic() + 10
    while not _someone_waits_on_a_lock() and time.monotonic() < deadline:
        time.sleep(0.05)


@pytest.mark.e2e
def test_a_worker_killed_in_the_middle_of_a_hand_is_replaced_and_the_hand_finishes(
    celery_workers: WorkerPool, monkeypatch: pytest.MonkeyPatch
):
    worker = celery_workers.start()
    table = make_table(status="paused", pause_ms=LONG_PAUSE_MS, action_seconds=120)
    human = make_player("hero")
    bots = [make_player(bot=kind) for kind in ("station", "station", "rules", "random")]
    seat_players(table, [*bots, human], BUY_IN)
    total = 5 * BUY_IN
    table_set_status(table_id=table.id, status="open")  # the worker deals the first hand
    hero = ApiPlayers(table, {"hero": client_for(human)}, calling_down)
    hand = wait_until("the first hand", lambda: running_hand(table.id), timeout=30)

    def heros_turn() -> bool:
        state = _state(hand)
        return state.next_deal is None and state.candidates == (4,)

    wait_until("hero's turn", heros_turn, timeout=30)  # calling stations never fold

    # The worker picks up the advance task that follows hero's decision and dies holding it:
    # hero acts (the task is held back), we lock the table, send the task, the worker takes
    # it and blocks on the lock, and it is killed there.
    held: list[int] = []
    monkeypatch.setattr(schedule, "advance_now", held.append)
    hero.act_once()
    assert held == [table.id] and hero.decisions == 1
    monkeypatch.undo()
    with transaction.atomic():
        table_for_update(table.id)
        task_id = tasks.table_advance.delay(table.id).id
        received = f"[{task_id}] received"
        # The solo worker takes one task at a time: it may be blocked on our lock already with
        # an earlier advance of this table (ours then waits in the queue). Either way it dies
        # holding a task that needs this table.
        wait_until(
            "the worker to take a task for the table",
            lambda: received in worker.log() or _someone_waits_on_a_lock(),
            30,
        )
        _wait_for_lock_waiter(1.0)
        worker.kill()
    assert worker.process.returncode == -9
    assert total_chips(table.id) == total
    celery_workers.restart_after_crash(worker)

    # The task died with the worker; the beat sweep (run here by hand) moves the hand on
    # once the worker's grace is over, and hero plays on.
    last_sweep = [0.0]

    def finished() -> bool:
        if time.monotonic() - last_sweep[0] > SWEEP_SECONDS:
            tasks.sweep.delay()
            last_sweep[0] = time.monotonic()
        return _over(hand)

    hero.play_until("the hand to finish after the crash", finished, timeout=60)

    done = Hand.objects.get(pk=hand.id)
    state = selectors.hand_state(done)
    assert state.is_over
    assert sum(p.stack for p in state.players) == total
    assert sum(Seat.objects.filter(table=table).values_list("stack", flat=True)) == total
    assert selectors.hand_state_from_events(done) == state
    table.refresh_from_db()
    seqs = list(TableEvent.objects.filter(table=table).values_list("seq", flat=True))
    assert seqs == list(range(1, table.seq + 1))
    assert TableEvent.objects.filter(hand=done, kind="hand_end").count() == 1


def _over(hand: Hand) -> bool:
    return Hand.objects.get(pk=hand.id).status == HandStatus.FINISHED
