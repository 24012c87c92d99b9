"""Eliminations and places: chips at the start of the hand, shared places, hand-for-hand."""

from __future__ import annotations

import pytest

from tests.games.factories import make_player
from tests.tourney.tournaments import (
    events,
    expire_level,
    fake_hand,
    make_tournament,
    seats_of,
    table_of,
)
from tourney.models import Entry, Tournament
from tourney.selectors import tournament_state
from tourney.services.commands.draw import tournament_start
from tourney.services.commands.registration import entry_register
from tourney.services.update import tournament_update

pytestmark = pytest.mark.django_db


def _places(tournament: Tournament) -> dict[int, tuple[int, int]]:
    """player id -> (place, prize)."""
    return {e.player_id: (e.place, e.prize) for e in Entry.objects.filter(tournament=tournament)}


def test_players_out_on_one_hand_are_placed_by_their_chips_at_its_start():
    tournament = make_tournament(players=5, payout_percentages=["50", "30", "20"])
    tournament_start(tournament_id=tournament.id)
    table = table_of(tournament, 1)
    a, b, c, d, e = sorted(seats_of(table.id))
    fake_hand(table.id, {a: 400, c: 1600})
    tournament_update(tournament_id=tournament.id)
    # a, b and d bust on one hand, having started it with 400, 1000 and 1000
    fake_hand(table.id, {a: 0, b: 0, c: 4000, d: 0})
    tournament_update(tournament_id=tournament.id)
    fake_hand(table.id, {c: 5000, e: 0})
    tournament_update(tournament_id=tournament.id)
    tournament.refresh_from_db()
    assert tournament.status == "finished"
    pa, pb, pc, pd, pe = _players_by_seat(tournament, [a, b, c, d, e])
    # pool 500: 250, 150, 100; b and d share places 3-4 and their prizes (100 + 0)
    assert _places(tournament) == {pc: (1, 250), pe: (2, 150), pb: (3, 50), pd: (3, 50), pa: (5, 0)}
    assert Entry.objects.get(tournament=tournament, player_id=pa).bust_stack == 400


def _players_by_seat(tournament: Tournament, seats: list[int]) -> list[int]:
    draw = events(tournament, "draw")[0]
    player_of = dict(Entry.objects.filter(tournament=tournament).values_list("id", "player_id"))
    by_seat = {seat: player_of[entry] for entry, _, seat in draw["seats"]}
    return [by_seat[n] for n in seats]


def test_a_bigger_starting_stack_finishes_above_in_separate_places():
    tournament = make_tournament(players=4, payout_percentages=["70", "30"])
    tournament_start(tournament_id=tournament.id)
    table = table_of(tournament, 1)
    a, b, c, d = sorted(seats_of(table.id))
    fake_hand(table.id, {a: 900, b: 1100})
    tournament_update(tournament_id=tournament.id)
    fake_hand(table.id, {a: 0, b: 0, c: 3000})
    tournament_update(tournament_id=tournament.id)
    fake_hand(table.id, {c: 4000, d: 0})
    tournament_update(tournament_id=tournament.id)
    pa, pb, pc, pd = _players_by_seat(tournament, [a, b, c, d])
    assert _places(tournament) == {pc: (1, 280), pd: (2, 120), pb: (3, 0), pa: (4, 0)}


def test_hand_for_hand_holds_tables_and_busts_of_one_round_share_their_places():
    tournament = make_tournament(players=4, table_size=2, payout_percentages=["50", "30", "20"])
    tournament_start(tournament_id=tournament.id)
    tournament.refresh_from_db()
    assert tournament.hand_for_hand  # 4 left, 3 paid: the next bust is the bubble
    t1, t2 = table_of(tournament, 1), table_of(tournament, 2)
    (a, b), (c, d) = sorted(seats_of(t1.id)), sorted(seats_of(t2.id))
    pa, pd = seats_of(t1.id)[a][0], seats_of(t2.id)[d][0]
    fake_hand(t1.id, {a: 500, b: 1500})
    tournament_update(tournament_id=tournament.id)
    assert table_of(tournament, 1).hold_reason.startswith("hand-for-hand")
    assert table_of(tournament, 2).hold_reason == ""
    fake_hand(t2.id, {c: 700, d: 1300})
    tournament_update(tournament_id=tournament.id)
    assert table_of(tournament, 1).hold_reason == ""  # round over: everyone deals again
    # next round: one bust at each table, from 500 and 1300 chips; they share places 3-4
    fake_hand(t1.id, {a: 0, b: 2000})
    tournament_update(tournament_id=tournament.id)
    fake_hand(t2.id, {c: 2000, d: 0})
    tournament_update(tournament_id=tournament.id)
    tournament.refresh_from_db()
    assert not tournament.hand_for_hand
    assert events(tournament, "final_table") == [{"table": 1}]
    low, high = sorted(seats_of(t1.id))
    fake_hand(t1.id, {low: 0, high: 4000})
    tournament_update(tournament_id=tournament.id)
    entries = {e.player_id: e for e in Entry.objects.filter(tournament=tournament)}
    assert (entries[pa].place, entries[pa].prize, entries[pa].bust_shared) == (3, 40, True)
    assert (entries[pd].place, entries[pd].prize, entries[pd].bust_shared) == (3, 40, True)


def test_chips_are_logged_as_conserved_at_each_level():
    tournament = make_tournament(players=3)
    tournament_start(tournament_id=tournament.id)
    expire_level(tournament)
    tournament_update(tournament_id=tournament.id)
    assert events(tournament, "chips") == [
        {"level_index": 1, "in_play": 3000, "expected": 3000, "ok": True}
    ]


def test_once_the_field_is_final_a_bust_is_placed_and_paid_at_once():
    tournament = make_tournament(players=5, payout_percentages=["50", "30", "20"])
    tournament_start(tournament_id=tournament.id)
    table = table_of(tournament, 1)
    a, b, c, d, e = sorted(seats_of(table.id))
    pa, pb, pc, pd, pe = _players_by_seat(tournament, [a, b, c, d, e])
    fake_hand(table.id, {a: 0, c: 2000})
    tournament_update(tournament_id=tournament.id)
    assert _places(tournament)[pa] == (5, 0)
    # b and d bust on one hand with equal stacks: places 3-4 shared, 100 + 0 between them
    fake_hand(table.id, {b: 0, d: 0, e: 3000})
    tournament_update(tournament_id=tournament.id)
    tournament.refresh_from_db()
    assert tournament.status == "running"
    places = _places(tournament)
    assert (places[pb], places[pd], places[pc], places[pe]) == (
        (3, 50),
        (3, 50),
        (None, 0),
        (None, 0),
    )
    fake_hand(table.id, {c: 0, e: 5000})
    tournament_update(tournament_id=tournament.id)
    assert _places(tournament) == {pe: (1, 250), pc: (2, 150), pb: (3, 50), pd: (3, 50), pa: (5, 0)}
    # each group was placed once, as it busted; the end only adds the winner
    assert [p["which"] for p in events(tournament, "places")] == ["group 1", "group 2", "group 3"]


def test_while_late_registration_is_open_places_wait_for_the_field_to_close():
    tournament = make_tournament(players=4, late_reg_levels=1, payout_percentages=["70", "30"])
    tournament_start(tournament_id=tournament.id)
    table = table_of(tournament, 1)
    a, b, *_ = sorted(seats_of(table.id))
    (pa,) = _players_by_seat(tournament, [a])
    fake_hand(table.id, {a: 0, b: 2000})
    tournament_update(tournament_id=tournament.id)
    assert _places(tournament)[pa] == (None, 0)
    entry_register(tournament_id=tournament.id, player_id=make_player().id)  # one more player
    expire_level(tournament)  # the end of level 1 closes late registration
    tournament_update(tournament_id=tournament.id)
    assert _places(tournament)[pa] == (5, 0)
    assert events(tournament, "places")[0]["which"] == "all"


def test_places_wait_for_the_field_and_prizes_for_the_pool():
    tournament = make_tournament(
        players=3,
        payout_percentages=["50", "30", "20"],
        rebuy_max=1,
        rebuy_levels=1,
        rebuy_price=110,
        rebuy_fee=10,
        rebuy_chips=1000,
    )
    tournament_start(tournament_id=tournament.id)
    table = table_of(tournament, 1)
    a, b, _ = sorted(seats_of(table.id))
    (pa,) = _players_by_seat(tournament, [a])
    fake_hand(table.id, {a: 0, b: 2000})
    tournament_update(tournament_id=tournament.id)
    assert _places(tournament)[pa] == (3, 0)  # the field is final, the pool may grow
    expire_level(tournament)  # the rebuy window closes: the pool of 300 is final
    tournament_update(tournament_id=tournament.id)
    assert _places(tournament)[pa] == (3, 60)


def test_a_tournament_over_before_late_registration_closed_places_everyone_at_the_end():
    tournament = make_tournament(players=3, late_reg_levels=3, payout_percentages=["70", "30"])
    tournament_start(tournament_id=tournament.id)
    table = table_of(tournament, 1)
    a, b, c = sorted(seats_of(table.id))
    pa, pb, pc = _players_by_seat(tournament, [a, b, c])
    fake_hand(table.id, {a: 0, b: 2000})
    tournament_update(tournament_id=tournament.id)
    assert _places(tournament)[pa] == (None, 0)
    fake_hand(table.id, {b: 3000, c: 0})
    tournament_update(tournament_id=tournament.id)
    assert _places(tournament) == {pb: (1, 210), pc: (2, 90), pa: (3, 0)}


def test_the_winner_entry_ends_with_the_status_winner():
    tournament = make_tournament(players=2)
    tournament_start(tournament_id=tournament.id)
    table = table_of(tournament, 1)
    a, b = sorted(seats_of(table.id))
    fake_hand(table.id, {a: 2000, b: 0})
    tournament_update(tournament_id=tournament.id)
    statuses = {e.place: e.status for e in Entry.objects.filter(tournament=tournament)}
    assert statuses == {1: "winner", 2: "eliminated"}
    state = tournament_state(Tournament.objects.get(pk=tournament.pk))
    assert (state["status"], state["players_left"], state["entries"]) == ("finished", 1, 2)
