"""Balancing and breaking through the service: moves wait for hands, short tables wait."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Hand, HandStatus
from games.services import hands
from tests.games.factories import make_player
from tests.tourney.tournaments import events, fake_hand, make_tournament, seats_of, table_of
from tourney.models import Move
from tourney.services.commands.draw import tournament_start
from tourney.services.commands.registration import entry_register
from tourney.services.update import tournament_update

pytestmark = pytest.mark.django_db


def _finish_hand(table_id: int) -> None:
    """Let every human's clock run out until the hand ends."""
    for _ in range(200):
        hand = Hand.objects.filter(table_id=table_id, status=HandStatus.RUNNING).first()
        if hand is None:
            return
        Hand.objects.filter(pk=hand.pk).update(deadline=timezone.now() - timedelta(seconds=1))
        hands.hand_expire(hand_id=hand.id, seq=None)
    raise AssertionError("the hand did not end")


def test_a_move_waits_for_the_hand_and_the_short_table_waits_for_the_move():
    tournament = make_tournament(players=0, table_size=4)
    for _ in range(7):
        entry_register(tournament_id=tournament.id, player_id=make_player().id)
    tournament_start(tournament_id=tournament.id)
    t1, t2 = table_of(tournament, 1), table_of(tournament, 2)
    assert (len(seats_of(t1.id)), len(seats_of(t2.id))) == (4, 3)
    assert hands.table_advance(t1.id) == "waiting for a player"  # humans: the hand runs
    first, second, third = sorted(seats_of(t2.id))
    fake_hand(t2.id, {first: 0, second: 0, third: 3000})
    tournament_update(tournament_id=tournament.id)
    assert Move.objects.count() == 0  # table 1 is in a hand: nobody moves yet
    assert table_of(tournament, 2).hold_reason == "waiting for players to move in"
    _finish_hand(t1.id)
    tournament_update(tournament_id=tournament.id)
    move = Move.objects.get()
    assert (move.from_table, move.to_table, move.status, move.reason) == (
        1,
        2,
        "applied",
        "balance",
    )
    assert (len(seats_of(t1.id)), len(seats_of(t2.id))) == (3, 2)
    assert table_of(tournament, 2).hold_reason == ""
    assert events(tournament, "moves")[0]["moves"][0]["move"] == str(move)


def test_a_table_breaks_as_soon_as_the_players_fit_at_one_fewer_table():
    tournament = make_tournament(players=12, table_size=4)
    tournament_start(tournament_id=tournament.id)
    t3 = table_of(tournament, 3)
    seats = sorted(seats_of(table_of(tournament, 1).id))
    fake_hand(table_of(tournament, 1).id, {seats[0]: 0, seats[1]: 0, seats[2]: 3000})
    tournament_update(tournament_id=tournament.id)
    # 10 players at 3 tables of 4: still 3 tables; two more out and 8 fit at 2 tables
    seats = sorted(seats_of(table_of(tournament, 2).id))
    fake_hand(table_of(tournament, 2).id, {seats[0]: 0, seats[1]: 0, seats[2]: 3000})
    tournament_update(tournament_id=tournament.id)
    t3.refresh_from_db()
    assert t3.status == "closed"  # the highest number breaks first
    assert {m["reason"] for m in events(tournament, "moves")[-1]["moves"]} == {"break"}
    assert not seats_of(t3.id)
    assert (
        len(seats_of(table_of(tournament, 1).id)) == len(seats_of(table_of(tournament, 2).id)) == 4
    )
