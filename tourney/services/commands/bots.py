"""A tournament of bots, registered and funded, ready to start (``run_tournament`` and the
tournament benchmarks); the purchases they make while it runs (rebuys, add-ons, re-entries);
and, live, the director's reports of a bot field (one bust-out a report, then a full count)."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from random import Random
from typing import Any

from django.db import transaction

from games.engine.fairness import SeededShuffler
from games.errors import Conflict, NotFound
from games.models import BotKind, Hand, HandStatus, Seat
from games.services.players import player_create
from money.cashier import bankroll
from money.ledger import balance_of, player_account
from tourney.models import PAID, EntryStatus, MoveStatus, Status, Tournament
from tourney.services.commands.live import live_report_busts, live_report_chips
from tourney.services.commands.moves import move_acknowledge
from tourney.services.commands.purchases import entry_add_on, entry_rebuy
from tourney.services.commands.registration import entry_re_enter, entry_register
from tourney.services.commands.schedules import schedule_generate
from tourney.services.commands.setup import tournament_create
from tourney.windows import add_on_open, re_entry_open, rebuy_open

BOT_STYLES = (BotKind.RULES, BotKind.RANDOM, BotKind.RULES, BotKind.STATION)
STARTING_STACK = 2000


def bot_tournament_create(
    *,
    players: int,
    variant: str,
    table_size: int,
    level_seconds: int,
    seed: int,
    games: Sequence[str] = (),
    **settings: Any,
) -> Tournament:
    """A tournament of ``players`` bots (their styles shuffled by ``seed``) on a generated
    schedule of ``variant`` (or the rotation ``games``, one game a level) with
    ``level_seconds``-second levels; ``settings``: more of the tournament's settings
    (``tourney.models.SETTINGS``: rebuys, add-ons, re-entries, bounties, payouts, mode).
    Each bot is funded with exactly the buy-in and registered."""
    run = secrets.token_hex(3)
    schedule = schedule_generate(
        name=f"bots {run}",
        starting_stack=STARTING_STACK,
        level_minutes=10,
        target_hours=4,
        chip_unit=5,
        games=tuple(games) or (variant,),
        break_every=None,
    )
    tournament = tournament_create(
        **{
            "name": f"Bot tournament {run}",
            "buy_in": 110,
            "fee": 10,
            "starting_stack": STARTING_STACK,
            "chip_unit": 5,
            "table_size": table_size,
            "schedule_id": schedule.id,
            "pause_ms": 0,
            "action_seconds": 5,
            "minute_seconds": max(1, level_seconds // 10),
            **settings,
        }
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


@dataclass
class Bought:
    """What the bots bought in one ``bots_buy`` round."""

    rebuys: int = 0
    add_ons: int = 0
    re_entries: int = 0


def _funded(tournament: Tournament, player_id: int, price: int) -> None:
    """Top the bot's account up to ``price`` (a refused purchase leaves it funded for the
    next try, not funded twice)."""
    short = price - balance_of(player_account(player_id, tournament.club_id))
    if short > 0:
        bankroll(
            player_id=player_id,
            amount=short,
            club_id=tournament.club_id,
            memo="run_tournament: bot purchase",
        )


def _bought(purchase: Any, tournament: Tournament, player_id: int, price: int) -> int:
    """1 if the purchase went through; 0 if refused now (a hand in progress, the window
    just closed, busted meanwhile): the bot tries again next round if it still may."""
    _funded(tournament, player_id, price)
    try:
        purchase(tournament_id=tournament.id, player_id=player_id)
    except (Conflict, NotFound):
        return 0
    return 1


def bots_buy(*, tournament_id: int) -> Bought:
    """The bots' purchases while their windows are open: a rebuy at half the starting stack
    or less (up to ``rebuy_max``), the add-on for everyone, a re-entry for every bot out
    (up to ``re_entry_max``). Each is funded with exactly its price. Chips are bought
    between hands: only the bots at a table between two hands try."""
    tournament = Tournament.objects.get(pk=tournament_id)
    bought = Bought()
    if tournament.status not in (Status.RUNNING, Status.PAUSED):
        return bought
    playing = tournament.entries.filter(status=EntryStatus.PLAYING)
    if rebuy_open(tournament) or add_on_open(tournament):
        stacks = _stacks_between_hands(tournament)
        if rebuy_open(tournament):
            short = playing.filter(
                rebuys__lt=tournament.rebuy_max,
                player_id__in=[p for p, s in stacks.items() if s <= tournament.starting_stack // 2],
            )
            for player_id in short.values_list("player_id", flat=True):
                bought.rebuys += _bought(entry_rebuy, tournament, player_id, tournament.rebuy_price)
        if add_on_open(tournament):
            without = playing.filter(add_ons=0, player_id__in=list(stacks))
            for player_id in without.values_list("player_id", flat=True):
                bought.add_ons += _bought(
                    entry_add_on, tournament, player_id, tournament.add_on_price
                )
    if re_entry_open(tournament):
        for player_id in _may_re_enter(tournament):
            bought.re_entries += _bought(entry_re_enter, tournament, player_id, tournament.buy_in)
    return bought


def _stacks_between_hands(tournament: Tournament) -> dict[int, int]:
    """The stacks (by player) at the tournament's tables with no hand running."""
    running = Hand.objects.filter(
        table__tournament_table__tournament=tournament, status=HandStatus.RUNNING
    )
    seats = Seat.objects.filter(
        table__tournament_table__tournament=tournament, player_id__isnull=False
    ).exclude(table_id__in=running.values("table_id"))
    return dict(seats.values_list("player_id", "stack"))


def _may_re_enter(tournament: Tournament) -> list[int]:
    """The players out (no entry playing) with a re-entry left."""
    entries = tournament.entries.filter(status__in=PAID).values_list("player_id", "status")
    used: dict[int, int] = {}
    playing: set[int] = set()
    for player_id, status in entries:
        used[player_id] = used.get(player_id, 0) + 1
        if status != EntryStatus.ELIMINATED:
            playing.add(player_id)
    return [p for p, n in used.items() if p not in playing and n - 1 < tournament.re_entry_max]


def bots_live_report(*, tournament_id: int, rng: Random) -> bool:
    """Live: what a director reports of one hand of a bot field: one player at a table of
    two or more busts with the chips on their seat, which a neighbour wins; then a full
    count (every player left), the moves acknowledged. After the last bust, the winner's
    closing count. False once there is nothing left to report."""
    tournament = Tournament.objects.get(pk=tournament_id)
    if tournament.status == Status.FINISHED:
        return False
    seats = list(
        Seat.objects.filter(
            table__tournament_table__tournament=tournament, player_id__isnull=False
        ).exclude(table__status="closed")
    )
    by_table: dict[int, list[Seat]] = {}
    for seat in seats:
        by_table.setdefault(seat.table_id, []).append(seat)
    shared = [table for table in sorted(by_table) if len(by_table[table]) > 1]
    if not shared:
        return True  # a move in progress: the tables fill at the next report
    loser, winner = rng.sample(by_table[rng.choice(shared)], 2)
    entry_of = {
        e.player_id: e.id
        for e in tournament.entries.filter(status=EntryStatus.PLAYING).only("id", "player_id")
    }
    with transaction.atomic():
        live_report_busts(
            tournament_id=tournament_id, busts={entry_of[loser.player_id]: loser.stack}
        )
        counts = {entry_of[s.player_id]: s.stack for s in seats if s.pk != loser.pk}
        counts[entry_of[winner.player_id]] += loser.stack
        if Tournament.objects.get(pk=tournament_id).status == Status.FINISHED:
            counts = {entry_of[winner.player_id]: counts[entry_of[winner.player_id]]}
        live_report_chips(tournament_id=tournament_id, counts=counts)
    for move in tournament.moves.filter(status=MoveStatus.PENDING).order_by("id"):
        move_acknowledge(tournament_id=tournament_id, move_id=move.id)
    return True
