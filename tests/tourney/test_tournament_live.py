"""Live mode: no dealing; staff report bust-outs and chip counts and get moves back."""

from __future__ import annotations

import pytest

from games.errors import Conflict, Invalid, NotFound
from games.services import hands
from tests.tourney.tournaments import make_tournament, seats_of, table_of
from tourney.models import Entry, Move
from tourney.services.commands.draw import tournament_start
from tourney.services.commands.live import live_report_busts, live_report_chips
from tourney.services.commands.moves import move_acknowledge

pytestmark = pytest.mark.django_db


def _live(players: int, **overrides):
    tournament = make_tournament(players=players, mode="live", **overrides)
    tournament_start(tournament_id=tournament.id)
    return tournament


def _entry_at(tournament, table_number: int, seat: int) -> Entry:
    player_id = seats_of(table_of(tournament, table_number).id)[seat][0]
    return Entry.objects.get(tournament=tournament, player_id=player_id, status="playing")


def test_live_tables_never_deal():
    tournament = _live(4)
    table = table_of(tournament, 1)
    assert table.hold_reason.startswith("live")
    assert hands.table_advance(table.id).startswith("held: live")


def test_reported_bust_outs_are_placed_and_moves_come_back_pending_until_acknowledged():
    tournament = _live(7, table_size=4, payout_percentages=["100"])
    seats = sorted(seats_of(table_of(tournament, 2).id))
    busts = {
        _entry_at(tournament, 2, seats[0]).id: 1000,
        _entry_at(tournament, 2, seats[1]).id: 1000,
    }
    live_report_busts(tournament_id=tournament.id, busts=busts)
    move = Move.objects.get()
    assert (move.from_table, move.to_table, move.status) == (1, 2, "pending")
    assert len(seats_of(table_of(tournament, 2).id)) == 2
    move_acknowledge(tournament_id=tournament.id, move_id=move.id)
    move.refresh_from_db()
    assert move.status == "acknowledged"
    with pytest.raises(Conflict):
        move_acknowledge(tournament_id=tournament.id, move_id=move.id)


def test_chip_counts_are_written_to_the_seats_and_negative_counts_refused():
    tournament = _live(3)
    seat = sorted(seats_of(table_of(tournament, 1).id))[0]
    entry = _entry_at(tournament, 1, seat)
    live_report_chips(tournament_id=tournament.id, counts={entry.id: 1500})
    assert seats_of(table_of(tournament, 1).id)[seat][1] == 1500
    with pytest.raises(Invalid) as error:
        live_report_chips(tournament_id=tournament.id, counts={entry.id: -5})
    assert error.value.code == "negative"
    with pytest.raises(NotFound):
        live_report_chips(tournament_id=tournament.id, counts={999999: 5})


def test_the_last_bust_report_finishes_a_live_tournament():
    tournament = _live(3, payout_percentages=["70", "30"])
    a, b, c = (_entry_at(tournament, 1, n) for n in sorted(seats_of(table_of(tournament, 1).id)))
    live_report_busts(tournament_id=tournament.id, busts={a.id: 500})
    live_report_busts(tournament_id=tournament.id, busts={b.id: 2000})
    tournament.refresh_from_db()
    places = {e.id: (e.place, e.prize) for e in Entry.objects.filter(tournament=tournament)}
    assert tournament.status == "finished"
    assert places == {c.id: (1, 210), b.id: (2, 90), a.id: (3, 0)}


def test_online_tournaments_take_no_reports():
    tournament = make_tournament(players=2)
    tournament_start(tournament_id=tournament.id)
    with pytest.raises(Conflict) as error:
        live_report_chips(tournament_id=tournament.id, counts={})
    assert error.value.code == "online"
