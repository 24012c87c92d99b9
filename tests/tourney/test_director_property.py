"""A property: whatever a director does, in any order, between (fake) hands, chips are
conserved up to the chips the log says were put in or taken out (chip races,
disqualifications, corrections, undone busts), places stay consistent, and a refused action
changes nothing."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import transaction
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from games.errors import ServiceError
from games.models import Seat
from tests.games.factories import make_player
from tests.tourney.director import audit, snapshot, started
from tests.tourney.tournaments import fake_hand, seats_of
from tourney.models import Entry, EntryStatus, Tournament, TournamentTable
from tourney.services.commands import director_clock as clock
from tourney.services.commands import director_floor as floor
from tourney.services.commands import director_rulings as rulings
from tourney.services.commands import director_settings
from tourney.services.update import tournament_update
from tourney.windows import field_final

pytestmark = pytest.mark.django_db

ACTIONS = (
    "hand",
    "hand",
    "hand",
    "add_time",
    "next_level",
    "previous_level",
    "break",
    "end_break",
    "color_up",
    "move",
    "swap",
    "lock",
    "correct",
    "disqualify",
    "undo",
    "close_late_reg",
    "late_entry",
)


class Rollback(Exception):
    """Ends an example: its rows are rolled back."""


def _playing(tournament: Tournament) -> list[Entry]:
    return list(Entry.objects.filter(tournament=tournament, status="playing").order_by("id"))


def _open_tables(tournament: Tournament) -> list[TournamentTable]:
    return list(
        TournamentTable.objects.filter(tournament=tournament)
        .exclude(table__status="closed")
        .order_by("number")
    )


def _hand(tournament: Tournament, n: int) -> None:
    """A fake hand at one open table: one player loses everything (or half) to another."""
    tables = [t for t in _open_tables(tournament) if len(seats_of(t.table_id)) >= 2]
    if not tables:
        return
    table = tables[n % len(tables)]
    stacks = seats_of(table.table_id)
    seats = sorted(stacks)
    loser = seats[n % len(seats)]
    winner = seats[(n // 7 + 1 + seats.index(loser)) % len(seats)]
    if winner == loser:
        return
    unit = tournament.smallest_chip or tournament.chip_unit
    lost = stacks[loser][1] if n % 3 else stacks[loser][1] // 2 // unit * unit
    fake_hand(
        table.table_id,
        {loser: stacks[loser][1] - lost, winner: stacks[winner][1] + lost},
    )
    tournament_update(tournament_id=tournament.id)


def _seat(table: TournamentTable, n: int) -> int:
    """Mostly a free seat of the table; sometimes any seat (a taken one is refused)."""
    free = sorted(set(range(1, 9)) - set(seats_of(table.table_id)))
    return free[n % len(free)] if free and n % 4 else 1 + n % 9


def _act(tournament: Tournament, action: str, n: int) -> None:
    tid = tournament.id
    playing = _playing(tournament)
    entry = playing[n % len(playing)] if playing else None
    tables = _open_tables(tournament)
    if action == "hand":
        _hand(tournament, n)
    elif action == "add_time":
        clock.clock_add_time(tournament_id=tid, seconds=(-700, -60, 60, 300)[n % 4])
    elif action in ("next_level", "previous_level"):
        clock.clock_jump(tournament_id=tid, step=1 if action == "next_level" else -1)
    elif action == "break":
        clock.clock_break(tournament_id=tid, minutes=1 + n % 10, after_hands=bool(n % 2))
    elif action == "end_break":
        clock.clock_end_break(tournament_id=tid)
    elif action == "color_up":  # at the schedule's break (levels after it are in 25s)
        while tournament.level_index < 2:
            clock.clock_jump(tournament_id=tid, step=1)
            tournament.refresh_from_db()
        clock.clock_color_up(tournament_id=tid, chip_unit=(25, 50, 10)[n % 3])
    elif action == "move" and entry and tables:
        table = tables[n % len(tables)]
        floor.floor_move(
            tournament_id=tid, entry_id=entry.id, table=table.number, seat=_seat(table, n)
        )
    elif action == "swap" and len(playing) >= 2:
        other = playing[(n // 3 + 1) % len(playing)]
        floor.floor_swap(tournament_id=tid, entry_ids=(entry.id, other.id))
    elif action == "lock" and entry:
        floor.floor_lock(tournament_id=tid, entry_id=entry.id, locked=not entry.seat_locked)
    elif action == "correct" and entry:
        rulings.ruling_chips(
            tournament_id=tid, entry_id=entry.id, chips=25 * (1 + n % 80), reason="p"
        )
    elif action == "disqualify" and entry:
        rulings.ruling_disqualify(tournament_id=tid, entry_id=entry.id, reason="p")
    elif action == "undo":
        out = Entry.objects.filter(tournament=tournament, status="eliminated").order_by(
            "-bust_group", "id"
        )
        if out:
            giver = entry.id if entry and n % 2 else None
            rulings.ruling_undo_bust(
                tournament_id=tid, entry_id=out[0].id, chips=25 * (1 + n % 8), from_entry=giver
            )
    elif action == "close_late_reg":
        director_settings.late_registration_set(tournament_id=tid, open_=bool(n % 2))
    elif action == "late_entry" and tables:
        table = tables[n % len(tables)]
        floor.floor_late_entry(
            tournament_id=tid, player_id=make_player().id, table=table.number, seat=_seat(table, n)
        )


def _places_consistent(tournament: Tournament) -> None:
    entries = list(Entry.objects.filter(tournament=tournament))
    playing = [e for e in entries if e.status == EntryStatus.PLAYING]
    out = [e for e in entries if e.status == EntryStatus.ELIMINATED]
    assert all(e.place is None for e in playing)
    assert all(e.bust_group is not None for e in out)
    if field_final(tournament) or tournament.status == "finished":
        assert all(e.place is not None for e in out)
        # a later group finishes above an earlier one; nobody out above a player still in
        for e in out:
            assert e.place > len(playing)
            for f in out:
                if (e.bust_group or 0) > (f.bust_group or 0):
                    assert e.place < f.place
    assert all(
        seat.stack > 0
        for seat in Seat.objects.filter(
            table__tournament_table__tournament=tournament, player__isnull=False
        ).exclude(table__status="closed")
    )


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    steps=st.lists(
        st.tuples(st.sampled_from(ACTIONS), st.integers(min_value=0, max_value=10_000)),
        min_size=1,
        max_size=14,
    ),
    late=st.booleans(),
)
def test_any_sequence_of_director_actions_keeps_chips_and_places_consistent(
    steps: list[tuple[str, int]], late: bool
) -> None:
    try:
        with transaction.atomic():
            tournament = started(players=11, colour_up=True, late_reg_levels=2 if late else 0)
            for action, n in steps:
                tournament.refresh_from_db()
                if tournament.status != "running" and tournament.status != "paused":
                    break
                before: dict[str, Any] = snapshot(tournament)
                try:
                    with transaction.atomic():  # an action of several steps is one
                        _act(tournament, action, n)
                    event(f"{action}: done")
                except ServiceError as error:
                    event(f"{action}: refused ({error.code})")
                    assert snapshot(tournament) == before, f"refused {action} changed things"
                tournament.refresh_from_db()
                audit(tournament)
                _places_consistent(tournament)
            raise Rollback
    except Rollback:
        pass
