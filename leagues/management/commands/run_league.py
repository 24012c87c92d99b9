"""``run_league``: a season of bot tournaments, played to the end through the real workers.

    python manage.py run_league --events 3 --players 20 --formula pokerstars --seed 1 [--json]

It creates a club, a league and a season with the formula, the same ``--players`` bots for
every event, and plays ``--events`` tournaments of the club one after the other: each is
attached to the season before it starts, and its results enter the season by themselves
when it finishes (tourney's ``tournament_finished`` signal, handled in the worker). It shows
a progress bar on stderr and the standings as a table, or with ``--json`` one object:
``season``, ``formula``, ``events`` (tournament and entrants) and ``standings``.
"""

from __future__ import annotations

import json
import secrets
import sys
import time
from datetime import timedelta
from decimal import Decimal
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone

from clubs.models import Club
from games.engine.fairness import SeededShuffler
from games.models import Player
from games.services.players import player_create
from leagues import selectors
from leagues.models import EventStatus, League, Season, SeasonEvent
from leagues.services.events import event_attach_tournament
from leagues.services.seasons import season_create
from money.cashier import bankroll
from tourney import tasks
from tourney.management.commands.run_tournament import TICK_SECONDS, Workers
from tourney.models import EntryStatus, Tournament
from tourney.services.commands.bots import BOT_STYLES
from tourney.services.commands.draw import tournament_start
from tourney.services.commands.registration import entry_register
from tourney.services.commands.schedules import schedule_generate
from tourney.services.commands.setup import tournament_create

FORMULA_PARAMS: dict[str, dict[str, Any]] = {
    "pokerstars": {},
    "neau": {},
    "reverse_rank": {"multiplier": "1"},
    "table": {"points": [100, 70, 50, 40, 30, 20, 10]},
    "expression": {"expression": "10 * sqrt(n / k) * (1 + log10(b + 0.25))"},
}


class Command(BaseCommand):
    help = "Play a season of bot tournaments through the Celery workers and show the standings."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--events", type=int, default=3)
        parser.add_argument("--players", type=int, default=20)
        parser.add_argument("--formula", choices=list(FORMULA_PARAMS), default="pokerstars")
        parser.add_argument("--seed", type=int, default=1, help="chooses the bots' styles")
        parser.add_argument("--json", action="store_true", help="print one JSON object")
        parser.add_argument("--workers", type=int, default=2, help="0: use running workers")
        parser.add_argument("--level-seconds", type=int, default=10)
        parser.add_argument("--timeout", type=int, default=1800, help="give up after (s)")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["events"] < 1 or options["players"] < 2:
            raise CommandError("a season needs at least 1 event of at least 2 players")
        season, players = self._create(options)
        workers = Workers(options["workers"])
        deadline = time.monotonic() + options["timeout"]
        played: list[SeasonEvent] = []
        try:
            workers.wait_ready()
            for number in range(1, options["events"] + 1):
                played.append(self._play(season, players, number, options, deadline))
        finally:
            workers.stop()
        self._report(season, played, as_json=options["json"])

    def _create(self, options: dict[str, Any]) -> tuple[Season, list[Player]]:
        run = secrets.token_hex(3)
        club = Club.objects.create(name=f"Bot club {run}")
        league = League.objects.create(club=club, name=f"Bot league {run}")
        today = timezone.localdate()
        season = season_create(
            league=league,
            name=f"Season {run}",
            starts_on=today,
            ends_on=today + timedelta(days=365),
            formula=options["formula"],
            formula_params=FORMULA_PARAMS[options["formula"]],
            events_planned=options["events"],
        )
        styles = [BOT_STYLES[n % len(BOT_STYLES)] for n in range(options["players"])]
        SeededShuffler(str(options["seed"]).encode()).shuffle(styles)
        players = [
            player_create(
                username=f"league-bot-{run}-{number}",
                password=None,  # bots never sign in
                display_name=f"Bot {number}",
                bot=style,
            )
            for number, style in enumerate(styles, start=1)
        ]
        return season, players

    def _play(
        self,
        season: Season,
        players: list[Player],
        number: int,
        options: dict[str, Any],
        deadline: float,
    ) -> SeasonEvent:
        schedule = schedule_generate(
            name=f"{season.name} event {number}",
            starting_stack=2000,
            level_minutes=10,
            target_hours=4,
            chip_unit=5,
            games=("stud_hi",),
            break_every=None,
        )
        tournament = tournament_create(
            name=f"{season.name} event {number}",
            club_id=season.league.club_id,
            buy_in=110,
            fee=10,
            starting_stack=2000,
            chip_unit=5,
            schedule_id=schedule.id,
            pause_ms=0,
            action_seconds=5,
            minute_seconds=max(1, options["level_seconds"] // 10),
        )
        event = event_attach_tournament(season=season, tournament_id=tournament.id)
        for player in players:
            # Bots are funded by the command: exactly the buy-in and the league fee, in the
            # tournament's club.
            bankroll(
                player_id=player.id,
                amount=tournament.buy_in + season.league_fee,
                club_id=tournament.club_id,
                memo="run_league: bot buy-in",
            )
            entry_register(tournament_id=tournament.id, player_id=player.id)
        tournament_start(tournament_id=tournament.id)
        next_tick = 0.0
        while True:
            event.refresh_from_db()
            tournament.refresh_from_db()
            self._progress(tournament, number, options["events"])
            if event.status == EventStatus.ENTERED:
                sys.stderr.write("\n")
                return event
            if event.error:
                raise CommandError(f"event {number} did not enter the season: {event.error}")
            if time.monotonic() > deadline:
                raise CommandError(f"the season did not finish in {options['timeout']} s")
            if tournament.status != "finished" and time.monotonic() >= next_tick:
                tasks.tournament_tick.delay()
                next_tick = time.monotonic() + TICK_SECONDS
            time.sleep(0.5)

    def _progress(self, tournament: Tournament, number: int, events: int) -> None:
        entries = tournament.entries.exclude(status=EntryStatus.UNREGISTERED)
        total = entries.count()
        left = entries.filter(status__in=[EntryStatus.PLAYING, EntryStatus.WINNER]).count()
        width = 30
        done = width * (total - left) // max(1, total - 1)
        bar = "#" * done + "." * (width - done)
        sys.stderr.write(f"\revent {number}/{events} [{bar}] players {left:>4}/{total}")
        sys.stderr.flush()

    def _report(self, season: Season, played: list[SeasonEvent], *, as_json: bool) -> None:
        standings = selectors.season_standings(season)
        if as_json:
            self.stdout.write(
                json.dumps(
                    {
                        "season": season.id,
                        "formula": season.formula,
                        "events": [
                            {"tournament": event.tournament_id, "entrants": event.entries}
                            for event in played
                        ],
                        "standings": [
                            {
                                "player": row["player"],
                                "rank": row["rank"],
                                "points": str(row["points"].quantize(_unit(season))),
                                "events_counted": row["events_counted"],
                            }
                            for row in standings
                        ],
                    }
                )
            )
            return
        self.stdout.write(
            f"{season.league.name} {season.name} ({season.formula}): {len(played)} events, "
            + ", ".join(f"tournament {e.tournament_id} ({e.entries} entries)" for e in played)
        )
        self.stdout.write(
            f"{'rank':>4} {'move':>4}  {'player':<12}{'points':>10} {'counted':>7} "
            f"{'wins':>4} {'cashes':>6} {'best':>4} {'net':>7}"
        )
        for row in standings:
            move = "" if row["movement"] is None else f"{row['movement']:+d}"
            self.stdout.write(
                f"{row['rank']:>4} {move:>4}  {row['name']:<12}"
                f"{row['points'].quantize(_unit(season)):>10} {row['events_counted']:>7} "
                f"{row['wins']:>4} {row['cashes']:>6} {row['best_finish']:>4} "
                f"{row['net_winnings']:>7}"
            )


def _unit(season: Season) -> Decimal:
    return Decimal(1).scaleb(-season.decimals)
