"""``run_tournament``: a tournament of bots, run to the end through the real workers.

    python manage.py run_tournament --players 60 --variant stud_hi --seed 7 [--json]

It creates the bots and the tournament, starts ``--workers`` Celery worker processes (0: use
the workers already running), enqueues the clock tick every two seconds (what beat does in
production), shows a progress bar on stderr and prints the results and payouts, or with
``--json`` one object: ``prize_pool``, ``hands_played`` and ``places``. It fails (with what
is wrong) if chips were not conserved or the tournament's audit (``tourney.audit``) fails.

The clock is fast (``--level-seconds`` per level) and tables do not pause between hands.
``--seed`` chooses the bots' styles; the cards are dealt from fresh secret seeds, as always.
"""

from __future__ import annotations

import json
import os
import secrets
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db.models import Sum

from games.models import TableStatus
from tourney import tasks
from tourney.audit import AuditFailed, tournament_audit
from tourney.models import Entry, EntryStatus, Tournament, TournamentEvent
from tourney.planning.levels import level_number
from tourney.selectors import schedule_entries
from tourney.services.commands.bots import bot_tournament_create
from tourney.services.commands.draw import tournament_start

PROJECT_DIR = Path(__file__).resolve().parents[3]
TICK_SECONDS = 2.0


class Workers:
    """Celery worker subprocesses started for this run (each in its own process group)."""

    def __init__(self, count: int) -> None:
        self.processes: list[subprocess.Popen[str]] = []
        self.ready = [threading.Event() for _ in range(count)]
        for index in range(count):
            name = f"run-tournament-{index}-{secrets.token_hex(3)}@{socket.gethostname()}"
            process = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "celery",
                    "-A",
                    "config",
                    "worker",
                    "--pool=solo",
                    "--loglevel=INFO",
                    "-n",
                    name,
                    "--without-gossip",
                    "--without-mingle",
                    "--without-heartbeat",
                ],
                cwd=PROJECT_DIR,
                env=dict(os.environ),
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
                start_new_session=True,
            )
            self.processes.append(process)
            threading.Thread(
                target=self._watch, args=(process, self.ready[index]), daemon=True
            ).start()

    @staticmethod
    def _watch(process: subprocess.Popen[str], ready: threading.Event) -> None:
        assert process.stdout is not None
        for line in process.stdout:
            if " ready." in line:
                ready.set()

    def wait_ready(self, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        for event, process in zip(self.ready, self.processes, strict=True):
            while not event.wait(0.2):
                if process.poll() is not None or time.monotonic() > deadline:
                    self.stop()
                    raise CommandError("a Celery worker did not start (is the broker up?)")

    def stop(self) -> None:
        for process in self.processes:
            if process.poll() is None:
                os.killpg(process.pid, 15)
        for process in self.processes:
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, 9)


class Command(BaseCommand):
    help = "Create a tournament of bots and run it to the end through the Celery workers."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--players", type=int, default=60, help="bots registered (default: %(default)s)"
        )
        parser.add_argument(
            "--variant",
            choices=["stud_hi", "stud_8", "razz"],
            default="stud_hi",
            help="the game of every level (default: %(default)s)",
        )
        parser.add_argument(
            "--seed", type=int, default=7, help="chooses the bots' styles (default: %(default)s)"
        )
        parser.add_argument(
            "--json",
            action="store_true",
            help="print one JSON object (prize_pool, hands_played, places) instead of tables",
        )
        parser.add_argument(
            "--workers",
            type=int,
            default=2,
            help="Celery worker processes to start; 0: use the workers already running "
            "(default: %(default)s)",
        )
        parser.add_argument(
            "--table-size", type=int, default=8, help="seats per table, 2-8 (default: %(default)s)"
        )
        parser.add_argument(
            "--level-seconds",
            type=int,
            default=10,
            help="how long each level lasts, in seconds (default: %(default)s)",
        )
        parser.add_argument(
            "--timeout",
            type=int,
            default=1800,
            help="give up after this many seconds (default: %(default)s)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["players"] < 2:
            raise CommandError("a tournament needs at least 2 players")
        tournament = self._create(options)
        workers = Workers(options["workers"])
        started = time.monotonic()
        try:
            workers.wait_ready()
            tournament_start(tournament_id=tournament.id)
            self._run(tournament, options["timeout"])
        finally:
            workers.stop()
        self._report(tournament, time.monotonic() - started, as_json=options["json"])
        if not _chips_conserved(tournament):
            raise CommandError("chips were not conserved: see the tournament's chips events")
        try:
            figures = tournament_audit(tournament)
        except AuditFailed as problem:
            raise CommandError(f"the tournament's audit failed: {problem}") from problem
        if not options["json"]:
            self.stdout.write(f"audit of the tournament's log: passed ({figures['events']} events)")

    def _create(self, options: dict[str, Any]) -> Tournament:
        return bot_tournament_create(
            players=options["players"],
            variant=options["variant"],
            table_size=options["table_size"],
            level_seconds=options["level_seconds"],
            seed=options["seed"],
        )

    def _run(self, tournament: Tournament, timeout: int) -> None:
        deadline = time.monotonic() + timeout
        next_tick = 0.0
        while True:
            tournament.refresh_from_db()
            self._progress(tournament)
            if tournament.status == "finished":
                sys.stderr.write("\n")
                return
            if time.monotonic() > deadline:
                raise CommandError(f"the tournament did not finish in {timeout} s")
            if time.monotonic() >= next_tick:
                tasks.tournament_tick.delay()
                next_tick = time.monotonic() + TICK_SECONDS
            time.sleep(0.5)

    def _progress(self, tournament: Tournament) -> None:
        entries = tournament.entries.exclude(status=EntryStatus.UNREGISTERED)
        total = entries.count()
        left = entries.filter(status__in=[EntryStatus.PLAYING, EntryStatus.WINNER]).count()
        tables = tournament.tables.exclude(table__status=TableStatus.CLOSED).count()
        level = level_number(schedule_entries(tournament.schedule_id), tournament.level_index)
        width = 30
        done = width * (total - left) // max(1, total - 1)
        bar = "#" * done + "." * (width - done)
        sys.stderr.write(
            f"\r[{bar}] level {level:>2}  players {left:>4}/{total}  tables {tables:>3}  "
            f"hands {_hands_played(tournament):>6}"
        )
        sys.stderr.flush()

    def _report(self, tournament: Tournament, seconds: float, *, as_json: bool) -> None:
        entries = list(
            Entry.objects.filter(tournament=tournament)
            .select_related("player")
            .order_by("place", "id")
        )
        places = [
            {"player": e.player.display_name, "place": e.place, "prize": e.prize} for e in entries
        ]
        if as_json:
            self.stdout.write(
                json.dumps(
                    {
                        "tournament": tournament.id,
                        "prize_pool": tournament.prize_pool,
                        "hands_played": _hands_played(tournament),
                        "seconds": round(seconds, 1),
                        "chips_conserved": _chips_conserved(tournament),
                        "places": places,
                    }
                )
            )
            return
        self.stdout.write(
            f"{tournament.name}: {len(entries)} entries, prize pool {tournament.prize_pool}, "
            f"{_hands_played(tournament)} hands in {seconds:.0f} s; chips conserved at every "
            f"level: {_chips_conserved(tournament)}"
        )
        for place in places:
            prize = f"{place['prize']:>8}" if place["prize"] else ""
            self.stdout.write(f"{place['place']:>5}  {place['player']:<12}{prize}")


def _hands_played(tournament: Tournament) -> int:
    return tournament.tables.aggregate(n=Sum("table__hands_played"))["n"] or 0


def _chips_conserved(tournament: Tournament) -> bool:
    checks = TournamentEvent.objects.filter(tournament=tournament, kind="chips")
    return checks.exists() and all(c.data["ok"] for c in checks)
