"""The restore drill (docs/operations.md, "Backups" and "Restore"): real workers play a raked
ring table and a tournament; `manage.py backup` runs while they play; the backup is restored
into a new database with `manage.py restore`, as an operator would after losing the database
host. The restored database balances, every finished hand in it replays to the result it
recorded, and the service carries on from it: the hands that were running when the backup was
taken are resumed from their log by the sweep and finish, and the tournament plays to its end.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.core.management import call_command

from config.celery import app as celery_app
from games import selectors
from games.engine.state import Phase
from games.models import Hand, HandStatus
from games.tasks import sweep, table_advance
from money.reconciliation import ledger_check
from tests.e2e.tables import ApiPlayers, wait_until
from tests.e2e.test_tables_e2e import signed_in
from tests.e2e.workers import PROJECT_DIR, WorkerPool
from tests.games.factories import make_player, make_table, seat_players
from tests.games.test_api_support import calling_down
from tests.other_database import empty_database, on_database
from tourney.models import Tournament
from tourney.services.commands.bots import bot_tournament_create
from tourney.services.commands.draw import tournament_start
from tourney.tasks import tournament_tick

pytestmark = [pytest.mark.postgres, pytest.mark.e2e]

HANDS_BEFORE_BACKUP = 12
TIMEOUT_SECONDS = 180
BEAT_SECONDS = 2.0


class Beat:
    """What beat does for these tables: the sweep and the tournament's tick, every 2 s."""

    def __init__(self) -> None:
        self.next = 0.0

    def __call__(self) -> None:
        if time.monotonic() >= self.next:
            sweep.delay()
            tournament_tick.delay()
            self.next = time.monotonic() + BEAT_SECONDS


def finished_hands() -> list[Hand]:
    return list(Hand.objects.filter(status=HandStatus.FINISHED).order_by("id"))


def finished_at(table_id: int) -> int:
    return Hand.objects.filter(table_id=table_id, status=HandStatus.FINISHED).count()


def assert_every_finished_hand_replays() -> int:
    """Each finished hand rebuilt from its events alone equals the state it recorded (the
    replay checks every recorded event, the pots' awards too, against the rules)."""
    hands = finished_hands()
    for hand in hands:
        replayed = selectors.hand_state_from_events(hand)
        assert replayed == selectors.hand_state(hand), f"hand {hand.id} replays differently"
        assert replayed.phase is Phase.OVER
    return len(hands)


def test_a_backup_taken_while_tables_run_restores_balanced_and_the_service_carries_on(
    celery_workers: WorkerPool, tmp_path: Path
) -> None:
    celery_workers.start()
    celery_workers.start()
    ring = make_table(rake_basis_points=1000, rake_cap=50, rake_third_street=True, pause_ms=300)
    seat_players(ring, [make_player(bot="rules") for _ in range(3)], buy_in=1000)
    table_advance.delay(ring.id)
    tournament = bot_tournament_create(
        players=3, variant="stud_hi", table_size=3, level_seconds=10, seed=7
    )
    tournament_start(tournament_id=tournament.id)
    # Bots play a hand in one task: a hand is seen running only while it waits on a human.
    waiting = make_table(action_seconds=600)
    alice = make_player("alice")
    seat_players(waiting, [alice, make_player(bot="rules")], buy_in=200)
    table_advance.delay(waiting.id)
    beat = Beat()
    wait_until(
        f"{HANDS_BEFORE_BACKUP} hands, and one waiting on alice",
        lambda: (
            Hand.objects.filter(status=HandStatus.FINISHED).count() >= HANDS_BEFORE_BACKUP
            and Hand.objects.filter(table=waiting, status=HandStatus.RUNNING).exists()
        ),
        TIMEOUT_SECONDS,
        tick=beat,
    )

    backup = tmp_path / "stud.dump"
    call_command("backup", str(backup))  # the workers go on playing meanwhile
    celery_workers.stop_all()  # the database host is lost; its backup is what is left
    celery_app.control.purge()

    with empty_database("restored") as name:
        restored = subprocess.run(
            [sys.executable, "manage.py", "restore", str(backup)],
            cwd=PROJECT_DIR,
            env={**os.environ, "STUD_DB_NAME": name},
            capture_output=True,
            text=True,
            check=False,
        )
        assert restored.returncode == 0, restored.stdout + restored.stderr
        assert "Restored" in restored.stdout
        with on_database(name):
            report = ledger_check()
            assert report.ok, report.problems
            assert assert_every_finished_hand_replays() >= HANDS_BEFORE_BACKUP
            running = list(
                Hand.objects.filter(status=HandStatus.RUNNING).values_list("id", flat=True)
            )
            assert Hand.objects.filter(table=waiting, status=HandStatus.RUNNING).exists()
            alices_hands = finished_at(waiting.pk)

            celery_workers.start()  # on the restored database
            celery_workers.start()
            players = ApiPlayers(waiting, {"alice": signed_in(alice)}, calling_down)

            def beat_and_play() -> None:
                beat()
                players.act_once()

            wait_until(
                "the hands running at the backup to finish, and the tournament",
                lambda: (
                    not Hand.objects.filter(pk__in=running, status=HandStatus.RUNNING)
                    and Tournament.objects.get(pk=tournament.pk).status == "finished"
                ),
                TIMEOUT_SECONDS,
                tick=beat_and_play,
            )
            assert players.decisions > 0, "alice played on from the restored hand"
            players.play_until(
                "alice's table to deal on", lambda: finished_at(waiting.pk) >= alices_hands + 2, 60
            )
            celery_workers.stop_all()
            report = ledger_check()
            assert report.ok, report.problems
            assert assert_every_finished_hand_replays() > HANDS_BEFORE_BACKUP
