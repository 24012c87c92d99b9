"""Helpers for the director's toolkit tests: a started tournament, a hand left in progress,
an entry by its seat, a snapshot of what a refused action must leave unchanged, and the
independent audit of a tournament's log."""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from games.models import Hand, HandStatus, Seat
from tests.tourney.tournaments import LEVELS, make_tournament, seats_of, table_of
from tourney.audit import AuditFailed, tournament_audit
from tourney.models import Entry, Tournament, TournamentEvent
from tourney.services.commands.draw import tournament_start
from tourney.services.commands.schedules import schedule_create

COLOUR_UP_LEVELS = [
    *LEVELS[:3],
    # after the break the 5s leave play: every amount is a multiple of 25
    {"game": "razz", "ante": 25, "bring_in": 50, "small_bet": 100, "big_bet": 200, "minutes": 10},
    *LEVELS[4:],
]
COLOUR_UP_LEVELS[4] = {
    "game": "stud_8",
    "ante": 50,
    "bring_in": 100,
    "small_bet": 250,
    "big_bet": 500,
    "minutes": 10,
}


def colour_up_schedule() -> int:
    """A schedule whose levels after its break are all multiples of 25."""
    return schedule_create(name="colour-up", chip_unit=5, entries=COLOUR_UP_LEVELS).id


def started(players: int = 4, *, colour_up: bool = False, **overrides: Any) -> Tournament:
    """A started tournament of bots (``colour_up``: on ``COLOUR_UP_LEVELS``)."""
    if colour_up:
        overrides["schedule_id"] = colour_up_schedule()
    tournament = make_tournament(players=players, **overrides)
    tournament_start(tournament_id=tournament.id)
    tournament.refresh_from_db()
    return tournament


def hand_in_progress(tournament: Tournament, number: int) -> Hand:
    """A running hand at table ``number`` (its seats keep their stacks, like a real one)."""
    table = table_of(tournament, number)
    return Hand.objects.create(
        table=table,
        number=table.hands_played + 1,
        status=HandStatus.RUNNING,
        lineup=[],
        header={"stacks": []},
        snapshot={},
        seed=b"0" * 32,
        commitment="0" * 64,
    )


def entry_at(tournament: Tournament, table: int, seat: int) -> Entry:
    player_id = seats_of(table_of(tournament, table).id)[seat][0]
    return Entry.objects.get(tournament=tournament, player_id=player_id, status="playing")


def snapshot(tournament: Tournament) -> dict[str, Any]:
    """Everything a refused action must leave as it was."""
    row = Tournament.objects.filter(pk=tournament.pk).values().get()
    return {
        "tournament": row,
        "seats": sorted(
            Seat.objects.filter(table__tournament_table__tournament=tournament).values_list(
                "table_id", "number", "player_id", "stack"
            )
        ),
        "entries": sorted(
            Entry.objects.filter(tournament=tournament).values_list(
                "id", "status", "place", "prize", "seat_locked", "bust_group"
            )
        ),
        "events": TournamentEvent.objects.filter(tournament=tournament).count(),
    }


def audit(tournament: Tournament) -> dict[str, Any]:
    """The tournament's independent audit (``tourney.audit``), failing the test with its
    problem."""
    try:
        return tournament_audit(tournament)
    except AuditFailed as problem:
        raise AssertionError(str(problem)) from problem


def running_hands(tournament: Tournament) -> int:
    return Hand.objects.filter(
        table__tournament_table__tournament=tournament, status=HandStatus.RUNNING
    ).count()


def finish_hand(hand: Hand) -> None:
    Hand.objects.filter(pk=hand.pk).update(status=HandStatus.FINISHED, finished_at=timezone.now())
