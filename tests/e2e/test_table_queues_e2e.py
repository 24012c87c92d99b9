"""Tables routed to worker queues (TABLE_QUEUES) with real workers: each queue's own worker
process plays its tables, and when one is killed its replacement on the same queue carries
on (the beat sweep wakes a table whose task died with the worker)."""

from __future__ import annotations

import time

import pytest

from games import tasks
from games.models import Hand, HandStatus, Table, TableEvent
from games.services import schedule
from games.services.tables import table_set_status
from tests.e2e.tables import wait_until
from tests.e2e.workers import WorkerPool
from tests.games.factories import make_player, make_table, seat_players

pytestmark = pytest.mark.e2e

QUEUES = 2
SWEEP_SECONDS = 1.0  # how often this test plays beat's sweep


def _finished(table: Table) -> int:
    return Hand.objects.filter(table=table, status=HandStatus.FINISHED).count()


def test_each_table_queue_is_played_by_its_worker_and_a_killed_one_is_replaced(
    celery_workers: WorkerPool, settings, monkeypatch: pytest.MonkeyPatch
):
    settings.TABLE_QUEUES = QUEUES  # this process routes what it sends...
    monkeypatch.setenv("TABLE_QUEUES", str(QUEUES))  # ...and so do the workers started now
    queues = [schedule.table_queue(k) for k in range(QUEUES)]
    workers = [celery_workers.start("--pool=solo", "--queues", q) for q in queues]
    tables = [make_table(status="paused", pause_ms=50) for _ in range(QUEUES)]
    for table in tables:
        seat_players(table, [make_player(bot="station"), make_player(bot="rules")], 1000)
    assert sorted(schedule.table_queue(t.id) for t in tables) == sorted(queues)
    for table in tables:
        table_set_status(table_id=table.id, status="open")

    wait_until("two hands at each table", lambda: all(_finished(t) >= 2 for t in tables), 60)
    for worker in workers:
        assert "Task games.tasks.table_advance[" in worker.log()

    # The worker of the first table's queue dies; a new one takes its queue.
    k = queues.index(schedule.table_queue(tables[0].id))
    before = _finished(tables[0])
    replacement = celery_workers.restart_after_crash(
        workers[k],
        "--pool=solo",
        "--queues",
        queues[k],
    )
    last_sweep = [0.0]

    def sweep() -> None:
        if time.monotonic() - last_sweep[0] > SWEEP_SECONDS:
            tasks.sweep()
            last_sweep[0] = time.monotonic()

    wait_until(
        "two more hands after the crash", lambda: _finished(tables[0]) >= before + 2, 60, sweep
    )

    assert "Task games.tasks.table_advance[" in replacement.log()
    for table in tables:
        table.refresh_from_db()
        seqs = list(TableEvent.objects.filter(table=table).values_list("seq", flat=True))
        assert seqs == list(range(1, table.seq + 1))
