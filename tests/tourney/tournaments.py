"""Helpers for the tournament tests: schedules, tournaments of bots, a driver without
workers (table and tournament tasks called directly, like tests/games/test_hand_services)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.utils import timezone

from games.models import Hand, HandStatus, Seat, Table, TableStatus
from games.services import hands
from tests.games.factories import make_player
from tourney.models import Tournament, TournamentEvent, TournamentTable
from tourney.services.commands.registration import entry_register
from tourney.services.commands.schedules import schedule_create
from tourney.services.commands.setup import tournament_create
from tourney.services.update import tournament_update

LEVELS = [
    {"game": "stud_hi", "ante": 5, "bring_in": 10, "small_bet": 30, "big_bet": 60, "minutes": 10},
    {"game": "stud_hi", "ante": 10, "bring_in": 15, "small_bet": 50, "big_bet": 100, "minutes": 10},
    {"is_break": True, "minutes": 5},
    {"game": "razz", "ante": 20, "bring_in": 30, "small_bet": 100, "big_bet": 200, "minutes": 10},
    {"game": "stud_8", "ante": 50, "bring_in": 75, "small_bet": 250, "big_bet": 500, "minutes": 10},
    {
        "game": "stud_hi",
        "ante": 100,
        "bring_in": 200,
        "small_bet": 600,
        "big_bet": 1200,
        "minutes": 10,
    },
    # big antes at the end, so that even calling stations (who never bet) finish
    {
        "game": "stud_hi",
        "ante": 500,
        "bring_in": 1000,
        "small_bet": 3000,
        "big_bet": 6000,
        "minutes": 10,
    },
]


BOTS = ("rules", "random", "station")


def make_tournament(*, players: int = 0, **overrides: Any) -> Tournament:
    """A tournament (buy-in 110 with fee 10, 1000 chips, 8-handed) with ``players`` bots of
    every kind registered (calling stations alone never bet, and would take ages)."""
    schedule = schedule_create(name="test", chip_unit=5, entries=LEVELS)
    fields: dict[str, Any] = {
        "name": "Test event",
        "buy_in": 110,
        "fee": 10,
        "starting_stack": 1000,
        "chip_unit": 5,
        "table_size": 8,
        "schedule_id": schedule.id,
        "pause_ms": 0,
    }
    fields.update(overrides)
    tournament = tournament_create(**fields)
    for n in range(players):
        player = make_player(bot=BOTS[n % len(BOTS)])
        entry_register(tournament_id=tournament.id, player_id=player.id)
    return tournament


def open_table_ids(tournament: Tournament) -> list[int]:
    return list(
        TournamentTable.objects.filter(tournament=tournament)
        .exclude(table__status=TableStatus.CLOSED)
        .order_by("number")
        .values_list("table_id", flat=True)
    )


def expire_level(tournament: Tournament) -> None:
    """Make the current level's deadline due now."""
    Tournament.objects.filter(pk=tournament.pk).update(
        level_ends_at=timezone.now() - timedelta(seconds=1)
    )


def play_round(tournament: Tournament) -> None:
    """One hand at every table that can deal, each followed by the tournament's update
    (what the receiver's task does)."""
    for table_id in open_table_ids(tournament):
        if hands.table_advance(table_id) == "hand finished":
            tournament_update(tournament_id=tournament.id)
    tournament_update(tournament_id=tournament.id)


def play_to_the_end(tournament: Tournament, *, hands_per_level: int = 3, limit: int = 3000) -> int:
    """Play rounds until the tournament ends, moving the clock on every few rounds."""
    for round_number in range(1, limit + 1):
        tournament.refresh_from_db()
        if tournament.status == "finished":
            return round_number
        if round_number % hands_per_level == 0:
            expire_level(tournament)
        play_round(tournament)
    raise AssertionError(f"not finished after {limit} rounds")


def seated_chips(tournament: Tournament) -> int:
    return sum(
        Seat.objects.filter(table__tournament_table__tournament=tournament).values_list(
            "stack", flat=True
        )
    )


def events(tournament: Tournament, kind: str) -> list[dict[str, Any]]:
    return list(
        TournamentEvent.objects.filter(tournament=tournament, kind=kind)
        .order_by("seq")
        .values_list("data", flat=True)
    )


def fake_hand(table_id: int, end_stacks: dict[int, int]) -> Hand:
    """Record a finished hand at a table without dealing it: the seats' stacks become
    ``end_stacks`` (seat number -> chips; the others keep theirs), as if the hand had been
    played; the tournament update then sees it like any other hand."""
    table = Table.objects.get(pk=table_id)
    seats = {s.number: s for s in Seat.objects.filter(table=table, player__isnull=False)}
    numbers = sorted(seats)
    before = sum(s.stack for s in seats.values())
    after = before - sum(seats[n].stack for n in end_stacks) + sum(end_stacks.values())
    assert after == before, "a hand moves chips, it does not make them"
    table.hands_played += 1
    table.save(update_fields=["hands_played"])
    hand = Hand.objects.create(
        table=table,
        number=table.hands_played,
        status=HandStatus.FINISHED,
        lineup=[
            {"seat": n, "player": seats[n].player_id, "name": "", "bot": True} for n in numbers
        ],
        header={"stacks": [seats[n].stack for n in numbers]},
        snapshot={},
        seed=b"0" * 32,
        commitment="0" * 64,
        finished_at=timezone.now(),
    )
    for number, stack in end_stacks.items():
        Seat.objects.filter(table=table, number=number).update(stack=stack)
    return hand


def seats_of(table_id: int) -> dict[int, tuple[int, int]]:
    """Occupied seats: number -> (player id, stack)."""
    return {
        s.number: (s.player_id, s.stack)
        for s in Seat.objects.filter(table_id=table_id, player__isnull=False)
    }


def table_of(tournament: Tournament, number: int) -> Table:
    return TournamentTable.objects.get(tournament=tournament, number=number).table
