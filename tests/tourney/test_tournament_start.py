"""Starting: the logged two-step draw, reproducible from its seed; the tables it opens."""

from __future__ import annotations

import pytest

from games.errors import Conflict
from games.models import Seat
from tests.tourney.tournaments import events, make_tournament, open_table_ids
from tourney.models import Entry, EntryStatus
from tourney.services.commands.draw import draw_seats, tournament_start

pytestmark = pytest.mark.django_db


def test_the_draw_is_reproducible_from_the_logged_seed():
    tournament = make_tournament(players=19, table_size=6)
    tournament_start(tournament_id=tournament.id)
    draw = events(tournament, "draw")[0]
    replayed = draw_seats(draw["entries"], table_size=6, seed=bytes.fromhex(draw["seed"]))
    assert [list(row) for row in replayed] == draw["seats"]
    player_of = dict(Entry.objects.filter(tournament=tournament).values_list("id", "player_id"))
    for entry_id, table_number, seat_number in replayed:
        seat = Seat.objects.get(player_id=player_of[entry_id])
        assert (seat.table.tournament_table.number, seat.number, seat.stack) == (
            table_number,
            seat_number,
            1000,
        )


def test_the_draw_fills_tables_within_one_player_of_each_other():
    rows = draw_seats(list(range(1, 20)), table_size=6, seed=b"seed")
    per_table = [sum(1 for _, t, _ in rows if t == n) for n in (1, 2, 3, 4)]
    assert per_table == [5, 5, 5, 4]
    assert len({(t, s) for _, t, s in rows}) == 19


def test_starting_opens_tournament_tables_with_the_first_level_stakes():
    tournament = make_tournament(players=9, table_size=8)
    tournament_start(tournament_id=tournament.id)
    tables = [Seat.objects.filter(table_id=t).first().table for t in open_table_ids(tournament)]
    assert [
        (t.kind, t.seat_count, t.variant, t.ante, t.small_bet, t.hold_reason) for t in tables
    ] == [("tournament", 8, "stud_hi", 5, 30, ""), ("tournament", 8, "stud_hi", 5, 30, "")]
    assert set(Entry.objects.filter(tournament=tournament).values_list("status", flat=True)) == {
        EntryStatus.PLAYING
    }


def test_starting_a_started_tournament_is_a_409():
    tournament = make_tournament(players=2)
    tournament_start(tournament_id=tournament.id)
    with pytest.raises(Conflict) as error:
        tournament_start(tournament_id=tournament.id)
    assert (error.value.status, error.value.code) == (409, "already_started")


def test_a_tournament_needs_two_players_to_start():
    tournament = make_tournament(players=1)
    with pytest.raises(Conflict) as error:
        tournament_start(tournament_id=tournament.id)
    assert error.value.code == "not_enough_players"
