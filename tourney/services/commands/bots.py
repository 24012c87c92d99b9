"""A tournament of bots, registered and funded, ready to start (``run_tournament`` and the
tournament benchmarks)."""

from __future__ import annotations

import secrets

from games.engine.fairness import SeededShuffler
from games.models import BotKind
from games.services.players import player_create
from money.cashier import bankroll
from tourney.models import Tournament
from tourney.services.commands.registration import entry_register
from tourney.services.commands.schedules import schedule_generate
from tourney.services.commands.setup import tournament_create

BOT_STYLES = (BotKind.RULES, BotKind.RANDOM, BotKind.RULES, BotKind.STATION)
STARTING_STACK = 2000


def bot_tournament_create(
    *, players: int, variant: str, table_size: int, level_seconds: int, seed: int
) -> Tournament:
    """A tournament of ``players`` bots (their styles shuffled by ``seed``) on a generated
    ``variant`` schedule with ``level_seconds``-second levels; each bot is funded with
    exactly the buy-in and registered."""
    run = secrets.token_hex(3)
    schedule = schedule_generate(
        name=f"bots {run}",
        starting_stack=STARTING_STACK,
        level_minutes=10,
        target_hours=4,
        chip_unit=5,
        games=(variant,),
        break_every=None,
    )
    tournament = tournament_create(
        name=f"Bot tournament {run}",
        buy_in=110,
        fee=10,
        starting_stack=STARTING_STACK,
        chip_unit=5,
        table_size=table_size,
        schedule_id=schedule.id,
        pause_ms=0,
        action_seconds=5,
        minute_seconds=max(1, level_seconds // 10),
    )
    styles = [BOT_STYLES[n % len(BOT_STYLES)] for n in range(players)]
    SeededShuffler(str(seed).encode()).shuffle(styles)
    for number, style in enumerate(styles, start=1):
        player = player_create(
            username=f"bot-{run}-{number}",
            password=None,  # bots never sign in
            display_name=f"Bot {number}",
            bot=style,
        )
        # Bots are funded here: exactly the buy-in, into the tournament's club.
        bankroll(
            player_id=player.id,
            amount=tournament.buy_in,
            club_id=tournament.club_id,
            memo="run_tournament: bot buy-in",
        )
        entry_register(tournament_id=tournament.id, player_id=player.id)
    return tournament
