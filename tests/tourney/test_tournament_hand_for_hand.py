"""Hand-for-hand and the order of busts (TDA): the bubble reached within one update pass,
busts at one table ranked by their stacks, one table left, busts ordered by when they
happened."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Hand
from tests.tourney.tournaments import events, fake_hand, make_tournament, seats_of, table_of
from tourney.models import Entry, Tournament
from tourney.services.commands.draw import tournament_start
from tourney.services.update import tournament_update

pytestmark = pytest.mark.django_db


def _places(tournament: Tournament) -> dict[int, tuple[int | None, int]]:
    """player id -> (place, prize)."""
    return {e.player_id: (e.place, e.prize) for e in Entry.objects.filter(tournament=tournament)}


def _player(table_id: int, seat: int) -> int:
    return seats_of(table_id)[seat][0]


def test_the_bubble_crossed_in_one_pass_starts_hand_for_hand_with_the_hands_in_progress():
    # 6 players at 3 tables of 2, 4 paid: the bubble is 5 players left
    tournament = make_tournament(
        players=6, table_size=2, payout_percentages=["40", "30", "20", "10"]
    )
    tournament_start(tournament_id=tournament.id)
    t1, t2, t3 = (table_of(tournament, n) for n in (1, 2, 3))
    busted = []
    # three hands end, one bust each, before the tournament's update looks at any of them
    for table in (t1, t2, t3):
        low, high = sorted(seats_of(table.id))
        busted.append(_player(table.id, low))
        fake_hand(table.id, {low: 0, high: 2000})
    tournament_update(tournament_id=tournament.id)
    first, second, third = busted
    # t1's bust reached the bubble (5 left): the hands then in progress at t2 and t3 were
    # the first hand-for-hand round; their busts share 4th-5th (60 + 0 of a pool of 600)
    assert events(tournament, "hand_for_hand") == [{"players_left": 5}]
    places = _places(tournament)
    assert (places[first], places[second], places[third]) == ((6, 0), (4, 30), (4, 30))


def test_hand_for_hand_busts_at_one_table_go_by_their_stacks_and_tie_across_tables():
    # 5 players, 4 paid, tables of 3 and 2: hand-for-hand from the start
    tournament = make_tournament(
        players=5, table_size=3, payout_percentages=["40", "30", "20", "10"]
    )
    tournament_start(tournament_id=tournament.id)
    tournament.refresh_from_db()
    assert tournament.hand_for_hand
    t1, t2 = table_of(tournament, 1), table_of(tournament, 2)
    a, b, c = sorted(seats_of(t1.id))
    d, e = sorted(seats_of(t2.id))
    pa, pb, pd = _player(t1.id, a), _player(t1.id, b), _player(t2.id, d)
    fake_hand(t1.id, {a: 1500, b: 500})
    tournament_update(tournament_id=tournament.id)
    fake_hand(t2.id, {})
    tournament_update(tournament_id=tournament.id)  # round 1 over
    # round 2: a (1,500) and b (500) bust on one hand at table 1, d (1,000) at table 2
    fake_hand(t1.id, {a: 0, b: 0, c: 3000})
    fake_hand(t2.id, {d: 0, e: 2000})
    tournament_update(tournament_id=tournament.id)
    # a finishes above b (more chips at the start of their hand); a and d, each the best
    # of their table's busts, share 3rd-4th (100 + 50); b is 5th
    places = _places(tournament)
    assert (places[pa], places[pd], places[pb]) == ((3, 75), (3, 75), (5, 0))


def test_hand_for_hand_at_a_single_table_is_not_played():
    # 4 players, 3 paid, all at one table: on the bubble, but hands there are one at a time
    tournament = make_tournament(players=4, payout_percentages=["50", "30", "20"])
    tournament_start(tournament_id=tournament.id)
    tournament.refresh_from_db()
    assert not tournament.hand_for_hand
    table = table_of(tournament, 1)
    a, b, c, d = sorted(seats_of(table.id))
    pa, pb = _player(table.id, a), _player(table.id, b)
    fake_hand(table.id, {a: 1500, b: 500, c: 1000, d: 1000})
    tournament_update(tournament_id=tournament.id)
    fake_hand(table.id, {a: 0, b: 0, c: 2000, d: 2000})
    tournament_update(tournament_id=tournament.id)
    # pool 400: 200/120/80; a (1,500 at the start) is 3rd, b (500) 4th
    places = _places(tournament)
    assert (places[pa], places[pb]) == ((3, 80), (4, 0))


def test_hand_for_hand_ends_when_one_table_remains():
    # 5 players at tables of up to 4 (3 + 2), 3 paid: the bubble is 4 left, who fit at one
    tournament = make_tournament(players=5, table_size=4, payout_percentages=["50", "30", "20"])
    tournament_start(tournament_id=tournament.id)
    t1 = table_of(tournament, 1)
    low, high, *_ = sorted(seats_of(t1.id))
    fake_hand(t1.id, {low: 0, high: 2000})
    tournament_update(tournament_id=tournament.id)  # the bubble: 4 left at two tables
    tournament.refresh_from_db()
    assert tournament.hand_for_hand
    tournament_update(tournament_id=tournament.id)  # the players are at one table now
    tournament.refresh_from_db()
    assert not tournament.hand_for_hand
    assert events(tournament, "hand_for_hand_over") == [{"players_left": 4}]


def test_busts_at_different_tables_are_ordered_by_when_they_happened():
    # 6 players at two tables of 3, only the winner paid: no hand-for-hand before the end
    tournament = make_tournament(players=6, table_size=3, payout_percentages=["100"])
    tournament_start(tournament_id=tournament.id)
    t1, t2 = table_of(tournament, 1), table_of(tournament, 2)
    a, b, _ = sorted(seats_of(t1.id))
    d, e, _ = sorted(seats_of(t2.id))
    pa, pd = _player(t1.id, a), _player(t2.id, d)
    # table 1's hand started first but ended last
    late = fake_hand(t1.id, {a: 0, b: 2000})
    early = fake_hand(t2.id, {d: 0, e: 2000})
    now = timezone.now()
    Hand.objects.filter(pk=early.pk).update(finished_at=now - timedelta(seconds=5))
    Hand.objects.filter(pk=late.pk).update(finished_at=now)
    assert late.pk < early.pk
    tournament_update(tournament_id=tournament.id)
    places = _places(tournament)
    assert (places[pd], places[pa]) == ((6, 0), (5, 0))
