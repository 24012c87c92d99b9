"""Helpers for the director's toolkit tests: a started tournament, a hand left in progress,
an entry by its seat, a snapshot of what a refused action must leave unchanged, and the
independent audit of a tournament's log."""

from __future__ import annotations

from collections import Counter
from typing import Any

from django.utils import timezone

from games.models import Hand, HandStatus, Seat
from tests.tourney.tournaments import LEVELS, make_tournament, seats_of, table_of
from tourney.models import Entry, EntryStatus, Tournament, TournamentEvent
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
    """An audit of a tournament from its event log alone, checked against the seats and the
    entries: every chip put in play (draw, late seats, rebuys, add-ons) plus every logged
    ``chips_delta`` is on a seat; every elimination, undone bust and disqualification
    accounts for who is still in; finished, every entry has a place (1 once), the prizes sum
    to the pool. Returns its figures; raises AssertionError on a discrepancy."""
    tournament.refresh_from_db()
    log = list(TournamentEvent.objects.filter(tournament=tournament).order_by("seq"))
    seqs = [e.seq for e in log]
    assert seqs == list(range(1, len(log) + 1)), "the log has gaps"
    stack = tournament.starting_stack
    chips = 0
    deltas = 0
    out: Counter[int] = Counter()
    for event in log:
        data = event.data
        if event.kind == "draw":
            chips += stack * len(data["seats"])
        elif event.kind == "seated":
            chips += stack
        elif event.kind in ("rebuy", "add_on"):
            chips += data["chips"]
        elif event.kind == "eliminated":
            for bust in data["busts"]:
                out[bust["entry"]] += 1
        elif event.kind == "bust_undone":
            out[data["entry"]] -= 1
        if "chips_delta" in data:
            deltas += data["chips_delta"]
    on_seats = sum(
        Seat.objects.filter(table__tournament_table__tournament=tournament).values_list(
            "stack", flat=True
        )
    )
    if tournament.mode == "online":
        assert on_seats == chips + deltas, f"{on_seats} on the seats, {chips} + {deltas} logged"
        checks = [e.data for e in log if e.kind == "chips"]
        assert all(c["ok"] for c in checks), [c for c in checks if not c["ok"]]
    assert deltas == tournament.chips_adjusted
    entries = {e.id: e for e in Entry.objects.filter(tournament=tournament)}
    eliminated = {e for e, n in out.items() if n > 0}
    assert all(n in (0, 1) for n in out.values()), out
    assert eliminated == {e.id for e in entries.values() if e.status == EntryStatus.ELIMINATED}, (
        "the log and the entries disagree on who is out"
    )
    disqualified = {e.data["entry"] for e in log if e.kind == "disqualified"}
    assert disqualified == {e.id for e in entries.values() if e.disqualified}
    if tournament.status == "finished":
        paid = [e for e in entries.values() if e.status in ("eliminated", "winner")]
        assert all(e.place is not None for e in paid)
        assert [e.place for e in paid].count(1) == 1
        assert sum(e.prize for e in paid) == tournament.prize_pool
        places = sorted(e.place for e in paid)
        assert places[-1] <= len(paid)
    return {"chips_logged": chips, "chips_delta": deltas, "on_seats": on_seats}


def running_hands(tournament: Tournament) -> int:
    return Hand.objects.filter(
        table__tournament_table__tournament=tournament, status=HandStatus.RUNNING
    ).count()


def finish_hand(hand: Hand) -> None:
    Hand.objects.filter(pk=hand.pk).update(status=HandStatus.FINISHED, finished_at=timezone.now())
