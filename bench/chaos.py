"""Chaos run: people doing what people do, while the workers die and Redis restarts.

Many API clients sit at ring tables and play in running tournaments over HTTP, doing random
valid and invalid things a person could do: act, act late, act twice, act on a stale view,
make an illegal move, leave mid-hand and sit back down, sit out and in, come back, poll the
deal quote (with a bad method too), register and unregister, re-enter. Meanwhile Celery
worker processes are SIGKILLed and replaced (``--kills``, spread over the run) and Redis,
the broker and cache, is restarted once half-way (a redis-server of the run's own, on a
spare port: the shared one is never touched). A process that exits unasked is restarted, as
the deployment's supervisor does (compose: ``restart: unless-stopped``), and counted in
``crashes``; the time it takes shows in the stalls.

Invariants are checked all along (every second, on one consistent snapshot of the database),
not only at the end:

- chips are conserved in every hand (stacks + pot = the stacks it started with) and in
  every tournament (the chips on its seats = the chips its entries bought);
- every hand moves within its clock plus the sweep interval (``--tolerance`` more for a busy
  machine), and a table that can deal starts its next hand within its pause plus the sweep;
- no response is a 5xx;
- no response shows a player another player's down card that was not shown;
- places and prizes are consistent (a later bust finishes higher, prizes sum to the pool).

Reported (one JSON object): requests by status, hands played, kills, Redis restarts, the
longest stall (how long a hand or table waited past what its clock allows), violations by
kind with samples. Exit status 1 when there was any violation.

Needs DATABASE_URL (postgres://...; the run creates and drops its own database on that
server) and ``redis-server`` on the PATH. ``python -m bench chaos [--minutes M] [--kills K]``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from bench.stack import (
    PROJECT_DIR,
    machine,
    processes,
    purge_queue,
    scratch_database,
    start_beat,
    start_web,
    start_worker,
    wait_until_serving,
)
from bench.tables import http

SWEEP_SECONDS = 2.0
ACTION_SECONDS = 4
PAUSE_MS = 300
RING_BUY_IN = 200
BANKROLL = 100_000
SAMPLES = 25


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench chaos", description=__doc__)
    parser.add_argument("--minutes", type=float, default=30, help="length of the run")
    parser.add_argument("--kills", type=int, default=10, help="worker SIGKILLs, spread out")
    parser.add_argument("--workers", type=int, default=2, help="Celery worker processes")
    parser.add_argument("--ring-tables", type=int, default=3)
    parser.add_argument("--ring-people", type=int, default=3, help="human clients per table")
    parser.add_argument("--tournament-people", type=int, default=4, help="per tournament")
    parser.add_argument("--no-redis-restart", action="store_true")
    parser.add_argument(
        "--tolerance", type=float, default=3.0, help="seconds of slack on every deadline"
    )
    parser.add_argument("--port", type=int, default=0, help="API port (0: a free one)")
    parser.add_argument("--redis-port", type=int, default=0, help="own Redis (0: a free port)")
    parser.add_argument("--seed", type=int, default=None, help="the clients' random choices")
    args = parser.parse_args(argv)
    if args.minutes <= 0 or args.kills < 0 or args.workers < 1:
        parser.error("need --minutes > 0, --kills >= 0 and --workers >= 1")
    return args


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


# ----------------------------------------------------------------------------- findings


class Findings:
    """What the run saw, shared by every thread."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.statuses: Counter[int] = Counter()
        self.violations: Counter[str] = Counter()
        self.samples: list[str] = []
        self.longest_stall = 0.0
        self.longest_stall_where = ""

    def response(self, method: str, path: str, status: int, body: Any) -> None:
        with self.lock:
            self.statuses[status] += 1
        if status >= 500:
            self.violation("5xx", f"{method} {path} -> {status} {str(body)[:200]}")

    def violation(self, kind: str, detail: str) -> None:
        with self.lock:
            self.violations[kind] += 1
            if len(self.samples) < SAMPLES:
                self.samples.append(f"{kind}: {detail}")

    def stall(self, seconds: float, where: str) -> None:
        with self.lock:
            if seconds > self.longest_stall:
                self.longest_stall, self.longest_stall_where = seconds, where


class Client:
    """One person's HTTP client: every response goes to the findings."""

    def __init__(self, base: str, token: str, player_id: int, findings: Findings) -> None:
        self.base, self.token, self.player_id, self.findings = base, token, player_id, findings

    def call(self, method: str, path: str, body: dict[str, Any] | None = None) -> tuple[int, Any]:
        try:
            status, answer, _ = http(method, f"{self.base}/api/v1{path}", self.token, body)
        except (OSError, ValueError) as error:  # no answer at all (or not JSON)
            self.findings.violation("no_answer", f"{method} {path}: {error}")
            return 0, None
        self.findings.response(method, path, status, answer)
        return status, answer

    def table_view(self, table_id: int) -> dict[str, Any] | None:
        status, view = self.call("GET", f"/tables/{table_id}/")
        if status != 200:
            return None
        leak_check(view, self.findings, f"table {table_id} to player {self.player_id}")
        return dict(view)


def leak_check(view: dict[str, Any], findings: Findings, where: str) -> None:
    """No other player's down card is visible unless that player showed their hand."""
    hand = view.get("hand")
    if not hand:
        return
    if hand.get("status") == "running" and hand.get("seed"):
        findings.violation("seed_shown", f"{where}: the seed of a running hand")
    you = hand.get("you")
    for index, player in enumerate(hand["view"].get("players", [])):
        if index == you or player.get("shown"):
            continue
        seen = [card for card in player.get("down", []) if card != "??"]
        if seen:
            findings.violation("card_leak", f"{where}: player {index}'s down cards {seen}")


# ----------------------------------------------------------------------------- people


def choose_option(options: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    return rng.choice(options)


def act_body(option: dict[str, Any], seq: int) -> dict[str, Any]:
    body: dict[str, Any] = {"action": option["action"], "seq": seq}
    if option["action"] not in ("show", "muck", "fold", "check") and "to" in option:
        body["amount"] = option["to"]
    return body


def play_turn(client: Client, table_id: int, view: dict[str, Any], rng: random.Random) -> str:
    """One decision, made the way a person might (or might not) make it; returns what."""
    options = view["hand"]["view"]["legal_actions"]
    seq = int(view["seq"])
    path = f"/tables/{table_id}/act/"
    roll = rng.random()
    if roll < 0.55:
        client.call("POST", path, act_body(choose_option(options, rng), seq))
        return "act"
    if roll < 0.65:
        time.sleep(rng.uniform(0.5, ACTION_SECONDS + 1.5))
        client.call("POST", path, act_body(choose_option(options, rng), seq))
        return "act late"
    if roll < 0.75:
        body = act_body(choose_option(options, rng), seq)
        client.call("POST", path, body)
        client.call("POST", path, body)
        return "act twice"
    if roll < 0.80:
        client.call("POST", path, {"action": "raise", "seq": seq, "amount": 1})
        return "illegal"
    if roll < 0.85:
        client.call("POST", path, act_body(choose_option(options, rng), max(0, seq - 1)))
        return "stale"
    if roll < 0.90:
        client.call("POST", path, {"action": "dance", "seq": seq, "bounty": 5})
        return "nonsense"
    return "wait"


def ring_person(
    client: Client, table_id: int, seat: int, rng: random.Random, stop: threading.Event
) -> None:
    """A ring-game player: plays, leaves mid-hand, sits back down, sits out and in."""
    seated = True
    while not stop.is_set():
        view = client.table_view(table_id)
        if view is None:
            time.sleep(0.5)
            continue
        mine = [s for s in view["seats"] if s["player"] == client.player_id]
        if not mine:
            seated = False
        if not seated:
            if rng.random() < 0.3:
                free = [s["number"] for s in view["seats"] if s["player"] is None] or [seat]
                status, _ = client.call(
                    "POST",
                    f"/tables/{table_id}/sit/",
                    {"seat": rng.choice(free), "buy_in": RING_BUY_IN},
                )
                seated = status == 201 or status == 200
            time.sleep(0.5)
            continue
        hand = view.get("hand")
        options = hand["view"]["legal_actions"] if hand else []
        if options:
            roll = rng.random()
            if roll < 0.04:
                client.call("POST", f"/tables/{table_id}/leave/")
            elif roll < 0.08:
                client.call("POST", f"/tables/{table_id}/sit-out/")
            else:
                play_turn(client, table_id, view, rng)
        elif rng.random() < 0.03:
            client.call("POST", f"/tables/{table_id}/sit-in/")
        elif rng.random() < 0.03:
            client.call("GET", f"/tables/{table_id}/events/?after={max(0, view['seq'] - 5)}")
        if mine and mine[0].get("sitting_out") and rng.random() < 0.2:
            client.call("POST", f"/tables/{table_id}/sit-in/")
        time.sleep(rng.uniform(0.1, 0.4))


def tournament_person(
    client: Client, tournament_id: int, rng: random.Random, stop: threading.Event
) -> None:
    """A tournament player: plays at whatever table they are moved to, tries to leave, polls
    the deal quote, comes back when away, re-enters when out (if they still may)."""
    base = f"/tournaments/{tournament_id}/"
    while not stop.is_set():
        status, state = client.call("GET", base)
        if status != 200 or state["status"] in ("finished", "cancelled"):
            return
        roll = rng.random()
        if roll < 0.05:
            method = rng.choice(["icm", "chip_chop", "bogus"])
            client.call("GET", f"{base}deal-quote/?method={method}")
        elif roll < 0.07:
            client.call("GET", f"{base}results/")
        table_id = next(
            (
                t["table_id"]
                for t in state["tables"]
                for s in t["seats"]
                if s["player"] == client.player_id
            ),
            None,
        )
        if table_id is None:  # out (or not seated yet): re-enter now and then
            if rng.random() < 0.2:
                client.call("POST", f"{base}re-enter/")
            time.sleep(0.5)
            continue
        view = client.table_view(table_id)
        hand = view.get("hand") if view else None
        if view and hand and hand["view"]["legal_actions"]:
            roll = rng.random()
            if roll < 0.03:
                client.call("POST", f"/tables/{table_id}/leave/")  # refused: 409
            elif roll < 0.06:
                client.call("POST", f"/tables/{table_id}/back/")
            else:
                play_turn(client, table_id, view, rng)
        elif rng.random() < 0.05:
            client.call("POST", f"/tables/{table_id}/back/")
        time.sleep(rng.uniform(0.1, 0.4))


def registrar(
    client: Client, tournament_id: int, rng: random.Random, stop: threading.Event
) -> None:
    """Someone who cannot make up their mind: registers, unregisters, registers again."""
    base = f"/tournaments/{tournament_id}/"
    while not stop.is_set():
        status, state = client.call("GET", base)
        if status != 200 or state["status"] != "registering":
            return
        client.call("POST", base + rng.choice(["register/", "unregister/", "register/"]))
        time.sleep(rng.uniform(0.1, 0.5))


# ----------------------------------------------------------------------------- the world


class World:
    """The tables, tournaments and people of the run (set up through the services)."""

    def __init__(self, args: argparse.Namespace, base: str, findings: Findings) -> None:
        self.args, self.base, self.findings = args, base, findings
        self.rng = random.Random(args.seed)
        self.stop = threading.Event()
        self.threads: list[threading.Thread] = []
        self.count = 0
        self.schedule_id = self._schedule()
        self.tournaments_finished = 0

    def _person(self, bot: str = "") -> tuple[Any, str]:
        from django.contrib.auth import get_user_model
        from rest_framework.authtoken.models import Token

        from games.models import Player
        from money.cashier import bankroll

        self.count += 1
        name = f"{bot or 'person'}{self.count}"
        user = get_user_model().objects.create_user(username=name)
        player = Player.objects.create(user=user, display_name=name, bot=bot)
        # enough at the cashier for every buy-in, sit-down and re-entry of the run
        bankroll(player_id=player.id, amount=BANKROLL, memo="bench chaos: a bankroll")
        return player, ("" if bot else Token.objects.create(user=user).key)

    def _thread(self, target: Callable[..., None], *args: Any) -> None:
        seed = self.rng.getrandbits(32)
        thread = threading.Thread(
            target=target, args=(*args, random.Random(seed), self.stop), daemon=True
        )
        thread.start()
        self.threads.append(thread)

    def ring_tables(self) -> None:
        from games.services.seating import seat_sit
        from games.services.tables import table_create

        for number in range(self.args.ring_tables):
            table = table_create(
                name=f"Chaos {number + 1}",
                variant=("stud_hi", "stud_8", "razz")[number % 3],
                ante=1,
                bring_in=2,
                small_bet=5,
                big_bet=10,
                seat_count=6,
                buy_in_min=50,
                buy_in_max=500,
                allow_bots=True,
                action_seconds=ACTION_SECONDS,
                pause_ms=PAUSE_MS,
            )
            people = self.args.ring_people
            for seat in range(1, 7):
                if seat <= people:
                    player, token = self._person()
                    client = Client(self.base, token, player.id, self.findings)
                    self._thread(ring_person, client, table.id, seat)
                    seat_sit(table_id=table.id, player=player, seat_number=seat, buy_in=RING_BUY_IN)
                elif seat <= people + 2:
                    bot, _ = self._person(("rules", "random")[seat % 2])
                    seat_sit(
                        table_id=table.id,
                        player=bot,
                        seat_number=seat,
                        buy_in=RING_BUY_IN,
                        by_staff=True,
                    )

    def _schedule(self) -> int:
        from tourney.services.commands.schedules import schedule_create

        levels = [(5, 10, 30), (10, 15, 50), (20, 30, 100), (50, 75, 250), (100, 200, 600)]
        levels.append((500, 1000, 3000))
        entries = [
            {
                "game": "stud_hi",
                "ante": ante,
                "bring_in": bring_in,
                "small_bet": small,
                "big_bet": 2 * small,
                "minutes": 2,
            }
            for ante, bring_in, small in levels
        ]
        return int(schedule_create(name="chaos", chip_unit=5, entries=entries).id)

    def tournament(self) -> int:
        """A tournament of bots and people, with late registration and re-entry; the people
        play it, someone keeps registering and unregistering before the start."""
        from tourney.services.commands.draw import tournament_start
        from tourney.services.commands.registration import entry_register
        from tourney.services.commands.setup import tournament_create

        tournament = tournament_create(
            name=f"Chaos {self.tournaments_finished + 1}",
            buy_in=110,
            fee=10,
            starting_stack=1000,
            chip_unit=5,
            table_size=5,
            schedule_id=self.schedule_id,
            late_reg_levels=1,
            re_entry_max=1,
            re_entry_levels=1,
            action_seconds=ACTION_SECONDS,
            pause_ms=PAUSE_MS,
            minute_seconds=5,
        )
        undecided, token = self._person()
        self._thread(
            registrar, Client(self.base, token, undecided.id, self.findings), tournament.id
        )
        for _ in range(8):
            bot, _ = self._person(self.rng.choice(["rules", "random"]))
            entry_register(tournament_id=tournament.id, player_id=bot.id)
        for _ in range(self.args.tournament_people):
            person, token = self._person()
            entry_register(tournament_id=tournament.id, player_id=person.id)
            client = Client(self.base, token, person.id, self.findings)
            self._thread(tournament_person, client, tournament.id)
        time.sleep(2)  # the undecided one registers and unregisters meanwhile
        tournament_start(tournament_id=tournament.id)
        return int(tournament.id)


# ----------------------------------------------------------------------------- invariants


class Checker:
    """Checks the invariants on one snapshot of the database, every second."""

    def __init__(self, findings: Findings, tolerance: float) -> None:
        self.findings, self.tolerance = findings, tolerance
        self.moved: dict[int, tuple[tuple[int, int], float]] = {}  # table -> (hand, seq), when
        self.idle_since: dict[int, tuple[int, float]] = {}  # table -> (seq, since when)
        self.flagged: set[tuple[str, int, int]] = set()
        self.finished_checked: set[int] = set()
        self.tournaments_checked: set[int] = set()
        self.hands = 0

    def run(self, stop: threading.Event) -> None:
        from django.db import connections

        while not stop.wait(1.0):
            try:
                self.check()
            except Exception as error:  # a check that cannot run is a finding, not a crash
                self.findings.violation("checker", repr(error)[:300])
            finally:
                connections.close_all()

    def check(self) -> None:
        from django.db import connection, transaction

        with transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
            now = time.monotonic()
            self._hands()
            self._tables(now)
            self._tournaments()

    def _hands(self) -> None:
        from games.models import Hand, HandStatus
        from games.selectors import hand_state

        running = list(Hand.objects.filter(status=HandStatus.RUNNING))
        finished = list(
            Hand.objects.filter(status=HandStatus.FINISHED).exclude(pk__in=self.finished_checked)
        )
        for hand in running + finished:
            state = hand_state(hand)
            start = sum(p.starting_stack for p in state.players)
            now = sum(p.stack for p in state.players) + state.pot_total
            if start != now:
                self.findings.violation(
                    "hand_chips", f"hand {hand.id}: started with {start}, now {now}"
                )
        self.finished_checked.update(h.id for h in finished)
        self.hands = len(self.finished_checked)

    def _tables(self, now: float) -> None:
        from django.utils import timezone

        from games.models import Hand, HandStatus, HoldReason, Seat, Table, TableStatus

        running = {h.table_id: h for h in Hand.objects.filter(status=HandStatus.RUNNING)}
        for table in Table.objects.filter(status=TableStatus.OPEN, hold_reason=HoldReason.NONE):
            hand = running.get(table.id)
            if hand is not None:
                self.idle_since.pop(table.id, None)
                key = (hand.id, table.seq)
                seen = self.moved.get(table.id)
                if seen is None or seen[0] != key:
                    self.moved[table.id] = (key, now)
                    continue
                due = seen[1]
                if hand.deadline is not None:
                    left = (hand.deadline - timezone.now()).total_seconds()
                    due = max(due, now + left)
                self._late(now - due, "hand", table.id, hand.id, table.seq)
                continue
            self.moved.pop(table.id, None)
            ready = Seat.objects.filter(
                table=table, player__isnull=False, stack__gt=0, sitting_out=False
            ).count()
            if ready < 2:
                self.idle_since.pop(table.id, None)
                continue
            seq, since = self.idle_since.get(table.id, (table.seq, now))
            if seq != table.seq:  # hands were played since the last look
                seq, since = table.seq, now
            self.idle_since[table.id] = (seq, since)
            overdue = now - since - table.pause_ms / 1000
            self._late(overdue, "idle", table.id, 0, table.seq, lambda t=table: idle_why(t))

    def _late(
        self,
        overdue: float,
        what: str,
        table_id: int,
        hand_id: int,
        seq: int,
        why: Callable[[], str] = lambda: "",
    ) -> None:
        if overdue <= 0:
            return
        where = f"table {table_id} {what} (hand {hand_id}, seq {seq}; {queued()} tasks queued)"
        self.findings.stall(overdue, where)
        if overdue > SWEEP_SECONDS + self.tolerance and (what, table_id, seq) not in self.flagged:
            self.flagged.add((what, table_id, seq))
            self.findings.violation("stall", f"{where}: {overdue:.1f} s past its clock {why()}")

    def _tournaments(self) -> None:
        from tourney.models import EntryStatus, Status, Tournament
        from tourney.services.steps.chips import chips_expected, chips_in_play

        for tournament in Tournament.objects.exclude(status=Status.REGISTERING):
            if tournament.status in (Status.RUNNING, Status.PAUSED):
                in_play, expected = chips_in_play(tournament), chips_expected(tournament)
                if in_play != expected:
                    self.findings.violation(
                        "tournament_chips",
                        f"tournament {tournament.id}: {in_play} in play, {expected} bought",
                    )
            entries = list(tournament.entries.exclude(status=EntryStatus.UNREGISTERED))
            playing = sum(1 for e in entries if e.status == EntryStatus.PLAYING)
            out = [e for e in entries if e.status == EntryStatus.ELIMINATED and e.place]
            for entry in out:
                if entry.place <= playing:
                    self.findings.violation(
                        "places", f"entry {entry.id} placed {entry.place} with {playing} left"
                    )
            busted: dict[int, Any] = {}  # bust group -> its first bust's moment
            for entry in out:
                group = entry.bust_group or 0
                busted[group] = min(busted.get(group, entry.bust_at), entry.bust_at)
            for earlier in out:
                for later in out:
                    first, then = earlier.bust_group or 0, later.bust_group or 0
                    if (busted[first], first) < (busted[then], then) and (
                        earlier.place < later.place
                    ):
                        self.findings.violation(
                            "places",
                            f"entry {earlier.id} busted before entry {later.id} but placed "
                            f"{earlier.place} above {later.place}",
                        )
            if tournament.status == Status.FINISHED:
                self._finished(tournament, entries)

    def _finished(self, tournament: Any, entries: list[Any]) -> None:
        if tournament.id in self.tournaments_checked:
            return
        self.tournaments_checked.add(tournament.id)
        winners = [e for e in entries if e.status == "winner"]
        prizes = sum(e.prize for e in entries)
        unplaced = [e.id for e in entries if e.place is None]
        if len(winners) != 1 or winners[0].place != 1:
            self.findings.violation("places", f"tournament {tournament.id}: winners {winners}")
        if prizes != tournament.prize_pool:
            self.findings.violation(
                "prizes", f"tournament {tournament.id}: {prizes} paid of {tournament.prize_pool}"
            )
        if unplaced:
            self.findings.violation("places", f"tournament {tournament.id}: {unplaced} unplaced")


def idle_why(table: Any) -> str:
    """What an idle table looks like: its kind, next hand due, seats, last events."""
    from django.utils import timezone

    due = (
        round((table.next_hand_at - timezone.now()).total_seconds(), 1)
        if table.next_hand_at
        else None
    )
    seats = [
        (s.number, s.player_id, s.stack, s.sitting_out, s.leaving)
        for s in table.seats.filter(player__isnull=False)
    ]
    events = list(table.events.order_by("-seq").values_list("kind", flat=True)[:4])
    return f"[{table.kind}, next hand in {due} s, seats {seats}, last events {events}]"


def queued() -> int | str:
    """Messages waiting in the Celery queue (a stall with a long queue is a busy machine, one
    with an empty queue a lost wake-up)."""
    try:
        from django.conf import settings
        from kombu import Connection
        from kombu.exceptions import ChannelError

        with Connection(settings.CELERY_BROKER_URL, connect_timeout=1) as connection:
            try:  # its messages of every priority (a table's tasks are at TABLE_PRIORITY)
                declared = connection.default_channel.queue_declare(
                    settings.CELERY_TASK_DEFAULT_QUEUE, passive=True
                )
            except ChannelError:  # not declared yet: nothing was ever sent to it
                return 0
            return int(declared.message_count)
    except Exception as error:  # Redis restarting: say so instead
        return type(error).__name__


# ----------------------------------------------------------------------------- the run


class OwnRedis:
    """A redis-server of the run's own (no persistence), restartable on the same port."""

    def __init__(self, port: int, logs: Path) -> None:
        self.port, self.logs = port, logs
        self.url = f"redis://127.0.0.1:{port}/0"
        self.process: subprocess.Popen[bytes] | None = None
        self.start()

    def start(self) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            raise SystemExit("bench chaos needs redis-server on the PATH")
        command = [binary, "--port", str(self.port), "--bind", "127.0.0.1"]
        command += ["--save", "", "--appendonly", "no", "--dir", str(self.logs)]
        with (self.logs / "redis.log").open("a") as log:
            self.process = subprocess.Popen(
                command, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
            )
        deadline = time.monotonic() + 20
        while not self.answers():
            if time.monotonic() > deadline:
                raise SystemExit(f"redis-server did not start on port {self.port}")
            time.sleep(0.1)

    def answers(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=1) as conn:
                conn.sendall(b"PING\r\n")
                return conn.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()

    def restart(self, down_seconds: float = 1.0) -> None:
        self.kill()
        time.sleep(down_seconds)
        self.start()


def run(args: argparse.Namespace, env: dict[str, str], logs: Path, redis: OwnRedis) -> dict:
    import django

    django.setup()
    from django.db import connections

    from money.reconciliation import ledger_check

    findings = Findings()
    port = args.port or free_port()
    base = f"http://127.0.0.1:{port}"
    seconds = args.minutes * 60
    kills = redis_restarts = 0
    crashes: Counter[str] = Counter()  # processes that exited unasked (and were restarted)
    purge_queue()
    with processes() as started:
        workers = [start_worker(n, env, logs) for n in range(1, args.workers + 1)]
        started.extend(workers)
        beat = start_beat(env, logs)
        started.append(beat)
        web = start_web(port, env, logs)
        started.append(web)
        wait_until_serving(workers, web, base)

        world = World(args, base, findings)
        world.ring_tables()
        checker = Checker(findings, args.tolerance)
        checking = threading.Thread(target=checker.run, args=(world.stop,), daemon=True)
        checking.start()
        tournament_id = world.tournament()

        began = time.monotonic()
        kill_times = [seconds * (i + 1) / (args.kills + 1) for i in range(args.kills)]
        # half-way, between two kills
        between = seconds / 2 + seconds / (4 * (args.kills + 1))
        redis_time = None if args.no_redis_restart else between
        rng = random.Random(args.seed)
        while (elapsed := time.monotonic() - began) < seconds:
            if kill_times and elapsed >= kill_times[0]:
                kill_times.pop(0)
                victim = rng.randrange(len(workers))
                os.killpg(workers[victim].popen.pid, signal.SIGKILL)
                workers[victim].popen.wait()
                kills += 1
                workers[victim] = start_worker(
                    args.workers + kills + sum(crashes.values()), env, logs
                )
                started.append(workers[victim])
            for index, worker in enumerate(workers):  # a supervisor's restart (compose's
                if worker.popen.poll() is not None:  # "restart: unless-stopped")
                    crashes["worker"] += 1
                    workers[index] = start_worker(
                        args.workers + kills + sum(crashes.values()), env, logs
                    )
                    started.append(workers[index])
            if beat.popen.poll() is not None:
                crashes["beat"] += 1
                beat = start_beat(env, logs)
                started.append(beat)
            if redis_time is not None and elapsed >= redis_time:
                redis_time = None
                redis.restart()
                redis_restarts += 1
            if _finished(tournament_id):
                world.tournaments_finished += 1
                tournament_id = world.tournament()
            time.sleep(0.2)
        world.stop.set()
        for thread in world.threads:
            thread.join(timeout=ACTION_SECONDS + 10)
        checking.join(timeout=30)
    ledger = ledger_check()  # the money: the ledger balances and matches the chips in play
    for problem in ledger.problems:
        findings.violation("ledger", problem)
    connections.close_all()
    requests = sum(findings.statuses.values())
    return {
        "minutes": args.minutes,
        "requests": requests,
        "statuses": {str(k): v for k, v in sorted(findings.statuses.items())},
        "hands": checker.hands,
        "tournaments_finished": world.tournaments_finished,
        "kills": kills,
        "redis_restarts": redis_restarts,
        "crashes": dict(crashes),
        "longest_stall_seconds": round(findings.longest_stall, 2),
        "longest_stall_where": findings.longest_stall_where,
        "violations": sum(findings.violations.values()),
        "violations_by_kind": dict(findings.violations),
        "samples": findings.samples,
        "machine": machine(),
    }


def _finished(tournament_id: int) -> bool:
    from tourney.models import Tournament

    return Tournament.objects.filter(pk=tournament_id, status="finished").exists()


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    server = os.environ.get("DATABASE_URL", "")
    if not server.startswith(("postgres://", "postgresql://")):
        print(
            "bench chaos needs PostgreSQL: set DATABASE_URL=postgres://USER@HOST:PORT/DB (the "
            "run creates and drops its own database on that server)",
            file=sys.stderr,
        )
        return 2
    name = f"{urlsplit(server).path.strip('/') or 'stud'}_chaos"
    with tempfile.TemporaryDirectory(prefix="stud-chaos-") as folder:
        logs = Path(folder)
        redis = OwnRedis(args.redis_port or free_port(), logs)
        try:
            os.environ["REDIS_URL"] = redis.url
            os.environ.pop("CELERY_BROKER_URL", None)
            with scratch_database(server, name) as env:
                report = run(args, env, logs, redis)
        finally:
            redis.kill()
        if report["violations"]:  # keep the processes' logs to look into
            kept = PROJECT_DIR / "var" / "chaos" / time.strftime("%Y%m%d-%H%M%S")
            shutil.copytree(logs, kept, ignore=shutil.ignore_patterns("celerybeat-schedule*"))
            report["logs"] = str(kept)
            print(f"bench chaos: violations; the processes' logs are in {kept}", file=sys.stderr)
    print(json.dumps(report, indent=2))
    return 1 if report["violations"] else 0


if __name__ == "__main__":
    sys.path.insert(0, str(PROJECT_DIR))
    raise SystemExit(main())
