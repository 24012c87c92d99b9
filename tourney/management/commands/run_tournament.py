"""``run_tournament``: a tournament of bots, run to the end through the real workers.

    python manage.py run_tournament --players 60 --variant stud_hi --seed 7 [--json]
    python manage.py run_tournament --players 60 --variant razz --rebuys 2 --add-on-level 4 \
        --re-entries 1 --payouts 50,30,20
    python manage.py run_tournament --players 200 --bounty 50 --bounty-kind progressive
    python manage.py run_tournament --players 40 --games stud_hi,razz,stud_8

It creates the bots and the tournament (with the rebuys, add-on, re-entries, bounties,
payouts, game rotation and mode asked for), starts ``--workers`` Celery worker processes (0:
use the workers already running), enqueues the clock tick every two seconds (what beat does
in production), buys for the bots what is on offer (``bots_buy``: a rebuy at half the
starting stack or less, the add-on, a re-entry when out), shows a progress bar on stderr and
prints the results and payouts, the audit's figures and ``ledger_check``'s result, or with
``--json`` one object: ``prize_pool``, ``hands_played``, ``places``, ``bought``, ``audit``
and ``ledger``. It fails (with what is wrong) if chips were not conserved, the tournament's
audit (``tourney.audit``) fails or the ledger does not balance.

``--mode live`` plays the director instead of the tables: each round one player busts at a
table with the chips on their seat, a neighbour wins them, every player left is counted
(``bots_live_report``), and after the last bust the winner's closing count is reported.

The clock is fast (``--level-seconds`` per level) and tables do not pause between hands.
``--seed`` chooses the bots' styles; the cards are dealt from fresh secret seeds, as always.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import secrets
import socket
import subprocess
import sys
import threading
import time
from dataclasses import asdict
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db.models import Sum

from games.errors import Invalid
from games.models import TableStatus
from money.reconciliation import Report, ledger_check
from tourney import tasks
from tourney.audit import AuditFailed, tournament_audit
from tourney.models import BountyKind, Entry, EntryStatus, Mode, Tournament, TournamentEvent
from tourney.planning.levels import level_number
from tourney.selectors import schedule_entries
from tourney.services.commands.bots import (
    STARTING_STACK,
    Bought,
    bot_tournament_create,
    bots_buy,
    bots_live_report,
)
from tourney.services.commands.draw import tournament_start
from tourney.windows import windows_open

PROJECT_DIR = Path(__file__).resolve().parents[3]
TICK_SECONDS = 2.0
GAMES = ("stud_hi", "stud_8", "razz")
BUY_IN = 110
"""The bots' buy-in, fee 10 included; a rebuy and the add-on cost the same, for as many
chips as the starting stack."""
PURCHASE_PAUSE_MS = 300
"""The pause between hands while rebuys or an add-on are on offer: chips are bought between
hands, and with no pause a table is hardly ever between them when the bots look."""


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
        parser.add_argument(
            "--games",
            type=_games,
            default=(),
            help="a rotation of games, one a level, comma-separated (stud_hi,razz,stud_8), "
            "instead of --variant (default: none)",
        )
        parser.add_argument(
            "--mode",
            choices=["online", "live"],
            default="online",
            help="online: the bots play at our tables; live: the command reports bust-outs and "
            "full chip counts as a director would (default: %(default)s)",
        )
        parser.add_argument(
            "--payouts",
            type=_percentages,
            default=None,
            help="the prize of each place in percent of the pool, comma-separated, e.g. "
            "50,30,20 (default: the default structure for the field)",
        )
        parser.add_argument(
            "--bounty",
            type=int,
            default=0,
            help=f"the part of the {BUY_IN} buy-in that goes on each head, at most "
            f"{BUY_IN - 10} (default: %(default)s)",
        )
        parser.add_argument(
            "--bounty-kind",
            choices=BountyKind.values,
            default=BountyKind.FIXED,
            help="fixed: the knocker takes it all; progressive: half to the knocker, half onto "
            "their head (default: %(default)s)",
        )
        parser.add_argument(
            "--rebuys",
            type=int,
            default=0,
            help=f"rebuys each entry may buy ({BUY_IN} for {STARTING_STACK} chips, at the "
            "starting stack or less; the bots buy one at half of it) (default: %(default)s)",
        )
        parser.add_argument(
            "--rebuy-levels",
            type=int,
            default=4,
            help="rebuys are sold until the end of this level (default: %(default)s)",
        )
        parser.add_argument(
            "--add-on-level",
            type=int,
            default=0,
            help=f"the add-on ({BUY_IN} for {STARTING_STACK} chips, one each, every bot buys "
            "it) is sold until the end of this level; 0: none (default: %(default)s)",
        )
        parser.add_argument(
            "--pause-ms",
            type=int,
            default=None,
            help="the pause between hands, in milliseconds (the bots buy rebuys and add-ons "
            f"there) (default: {PURCHASE_PAUSE_MS} with rebuys or an add-on on offer, else 0)",
        )
        parser.add_argument(
            "--re-entries",
            type=int,
            default=0,
            help="re-entries each player may buy after busting (the bots all re-enter) "
            "(default: %(default)s)",
        )
        parser.add_argument(
            "--re-entry-levels",
            type=int,
            default=4,
            help="re-entry is open until the end of this level (default: %(default)s)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["players"] < 2:
            raise CommandError("a tournament needs at least 2 players")
        tournament = self._create(options)
        workers = Workers(options["workers"])
        started = time.monotonic()
        bought = Bought()
        try:
            workers.wait_ready()
            tournament_start(tournament_id=tournament.id)
            self._run(tournament, options, bought)
        finally:
            workers.stop()
        seconds = time.monotonic() - started
        try:
            audit: dict[str, Any] = {"passed": True, **tournament_audit(tournament)}
        except AuditFailed as problem:
            audit = {"passed": False, "problem": str(problem)}
        ledger = ledger_check()
        self._report(tournament, seconds, bought, audit, ledger, as_json=options["json"])
        if not audit["passed"]:
            raise CommandError(f"the tournament's audit failed: {audit['problem']}")
        if not _chips_conserved(tournament):
            raise CommandError("chips were not conserved: see the tournament's chips events")
        if not ledger.ok:
            raise CommandError(
                f"ledger_check: {len(ledger.problems)} differences: {'; '.join(ledger.problems)}"
            )

    def _create(self, options: dict[str, Any]) -> Tournament:
        offers: dict[str, Any] = {"mode": options["mode"], "pause_ms": options["pause_ms"]}
        if offers["pause_ms"] is None:
            buying = options["rebuys"] or options["add_on_level"]
            offers["pause_ms"] = PURCHASE_PAUSE_MS if buying else 0
        if options["payouts"] is not None:
            offers["payout_percentages"] = options["payouts"]
        if options["bounty"]:
            offers.update(bounty=options["bounty"], bounty_kind=options["bounty_kind"])
        if options["rebuys"]:
            offers.update(
                rebuy_max=options["rebuys"],
                rebuy_levels=options["rebuy_levels"],
                rebuy_price=BUY_IN,
                rebuy_fee=10,
                rebuy_chips=STARTING_STACK,
            )
        if options["add_on_level"]:
            offers.update(
                add_on_level=options["add_on_level"],
                add_on_price=BUY_IN,
                add_on_fee=10,
                add_on_chips=STARTING_STACK,
            )
        if options["re_entries"]:
            offers.update(
                re_entry_max=options["re_entries"], re_entry_levels=options["re_entry_levels"]
            )
        try:
            return bot_tournament_create(
                players=options["players"],
                variant=options["variant"],
                games=options["games"],
                table_size=options["table_size"],
                level_seconds=options["level_seconds"],
                seed=options["seed"],
                **offers,
            )
        except Invalid as problem:
            raise CommandError(problem.message) from problem

    def _run(self, tournament: Tournament, options: dict[str, Any], bought: Bought) -> None:
        timeout = options["timeout"]
        rng = random.Random(options["seed"])
        deadline = time.monotonic() + timeout
        next_tick = 0.0
        while True:
            tournament.refresh_from_db()
            self._progress(tournament, bought)
            if tournament.status == "finished":
                sys.stderr.write("\n")
                return
            if time.monotonic() > deadline:
                raise CommandError(f"the tournament did not finish in {timeout} s")
            if time.monotonic() >= next_tick:
                tasks.tournament_tick.delay()
                next_tick = time.monotonic() + TICK_SECONDS
            round_bought = bots_buy(tournament_id=tournament.id)
            bought.rebuys += round_bought.rebuys
            bought.add_ons += round_bought.add_ons
            bought.re_entries += round_bought.re_entries
            if tournament.mode == Mode.LIVE:
                bots_live_report(tournament_id=tournament.id, rng=rng)
            time.sleep(0.2 if windows_open(tournament) else 0.5)

    def _progress(self, tournament: Tournament, bought: Bought) -> None:
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
            f"hands {_hands_played(tournament):>6}  rebuys {bought.rebuys}  "
            f"add-ons {bought.add_ons}  re-entries {bought.re_entries}"
        )
        sys.stderr.flush()

    def _report(
        self,
        tournament: Tournament,
        seconds: float,
        bought: Bought,
        audit: dict[str, Any],
        ledger: Report,
        *,
        as_json: bool,
    ) -> None:
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
                        "bought": asdict(bought),
                        "audit": audit,
                        "ledger": {"ok": ledger.ok, "problems": ledger.problems},
                        "places": places,
                    }
                )
            )
            return
        self.stdout.write(
            f"{tournament.name}: {len(entries)} entries ({bought.re_entries} re-entries), "
            f"{bought.rebuys} rebuys, {bought.add_ons} add-ons, prize pool "
            f"{tournament.prize_pool}, {_hands_played(tournament)} hands in {seconds:.0f} s; "
            f"chips conserved at every check: {_chips_conserved(tournament)}"
        )
        for place in places:
            prize = f"{place['prize']:>8}" if place["prize"] else ""
            self.stdout.write(f"{place['place']:>5}  {place['player']:<12}{prize}")
        if audit["passed"]:
            figures = ", ".join(f"{k} {v}" for k, v in audit.items() if k != "passed")
            self.stdout.write(f"audit of the tournament's log: passed ({figures})")
        else:
            self.stdout.write(f"audit of the tournament's log: FAILED: {audit['problem']}")
        verdict = "balanced and matching" if ledger.ok else f"{len(ledger.problems)} differences"
        self.stdout.write(
            f"ledger_check: {verdict} ({ledger.transactions} transactions, "
            f"{ledger.accounts} accounts, {ledger.claims} claims)"
        )


def _games(text: str) -> tuple[str, ...]:
    games = tuple(game.strip() for game in text.split(","))
    unknown = [game for game in games if game not in GAMES]
    if unknown:
        raise argparse.ArgumentTypeError(
            f"unknown games {unknown}: choose among {', '.join(GAMES)}, comma-separated"
        )
    return games


def _percentages(text: str) -> list[str]:
    return [part.strip() for part in text.split(",")]


def _hands_played(tournament: Tournament) -> int:
    return tournament.tables.aggregate(n=Sum("table__hands_played"))["n"] or 0


def _chips_conserved(tournament: Tournament) -> bool:
    checks = TournamentEvent.objects.filter(tournament=tournament, kind="chips")
    return checks.exists() and all(c.data["ok"] for c in checks)
