"""The director's controls in live mode: moves wait for staff, breaks start at once (the
hands are not ours to see), rulings on the reported counts."""

from __future__ import annotations

import pytest

from tests.tourney.director import audit, entry_at, started
from tests.tourney.tournaments import seats_of, table_of
from tourney.models import Entry, Move, Tournament
from tourney.services.commands.director_clock import clock_break
from tourney.services.commands.director_floor import floor_move
from tourney.services.commands.director_rulings import (
    ruling_chips,
    ruling_disqualify,
    ruling_undo_bust,
)
from tourney.services.commands.live import live_report_busts, live_report_chips
from tourney.services.commands.moves import move_acknowledge

pytestmark = pytest.mark.django_db


def test_a_live_move_changes_the_chart_and_waits_for_staff():
    tournament = started(players=9, mode="live")
    entry = entry_at(tournament, 1, min(seats_of(table_of(tournament, 1).id)))
    free = min(set(range(1, 9)) - set(seats_of(table_of(tournament, 2).id)))
    move = floor_move(tournament_id=tournament.id, entry_id=entry.id, table=2, seat=free)
    assert move.status == "pending"
    assert seats_of(table_of(tournament, 2).id)[free][0] == entry.player_id
    move_acknowledge(tournament_id=tournament.id, move_id=move.id)
    assert Move.objects.get(pk=move.id).status == "acknowledged"


def test_a_live_break_after_the_hands_starts_now():
    tournament = started(players=4, mode="live")
    clock_break(tournament_id=tournament.id, minutes=5, after_hands=True)
    fresh = Tournament.objects.get(pk=tournament.pk)
    assert fresh.break_pending_minutes is None and fresh.break_ends_at is not None


def test_live_rulings_on_reported_counts():
    tournament = started(players=6, mode="live", payout_percentages=["100"])
    seats = sorted(seats_of(table_of(tournament, 1).id))
    a, b, c = (entry_at(tournament, 1, s) for s in seats[:3])
    live_report_chips(tournament_id=tournament.id, counts={a.id: 2000})  # a took b's chips
    live_report_busts(tournament_id=tournament.id, busts={b.id: 1000})
    ruling_undo_bust(tournament_id=tournament.id, entry_id=b.id, chips=1000, from_entry=a.id)
    assert Entry.objects.get(pk=b.id).status == "playing"
    assert seats_of(table_of(tournament, 1).id)[seats[0]][1] == 1000
    ruling_chips(tournament_id=tournament.id, entry_id=a.id, chips=1200, reason="recount")
    ruling_disqualify(tournament_id=tournament.id, entry_id=c.id, reason="abuse")
    assert Entry.objects.get(pk=c.id).place == 6
    audit(tournament)
