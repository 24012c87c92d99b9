"""Registration, unregistration, late registration, re-entry, the prize pool, cancelling."""

from __future__ import annotations

import pytest

from games.errors import Conflict, NotFound
from games.models import Seat
from tests.games.factories import make_player
from tests.tourney.tournaments import events, fake_hand, make_tournament, table_of
from tourney.models import Entry, EntryStatus
from tourney.services.commands.draw import tournament_start
from tourney.services.commands.registration import entry_re_enter, entry_register, entry_unregister
from tourney.services.commands.setup import tournament_cancel
from tourney.services.update import tournament_update

pytestmark = pytest.mark.django_db


def test_the_prize_pool_is_the_buy_ins_without_their_fees():
    tournament = make_tournament(players=3)
    tournament.refresh_from_db()
    assert tournament.prize_pool == 300


def test_registering_twice_is_a_409():
    tournament = make_tournament()
    player = make_player()
    entry_register(tournament_id=tournament.id, player_id=player.id)
    with pytest.raises(Conflict) as error:
        entry_register(tournament_id=tournament.id, player_id=player.id)
    assert (error.value.status, error.value.code) == (409, "already_registered")


def test_an_unknown_player_or_tournament_is_a_404():
    tournament = make_tournament()
    with pytest.raises(NotFound):
        entry_register(tournament_id=tournament.id, player_id=999999)
    with pytest.raises(NotFound):
        entry_register(tournament_id=999999, player_id=make_player().id)


def test_unregistering_refunds_the_whole_buy_in_and_shrinks_the_pool():
    tournament = make_tournament(players=2)
    player = make_player()
    entry_register(tournament_id=tournament.id, player_id=player.id)
    entry = entry_unregister(tournament_id=tournament.id, player_id=player.id)
    tournament.refresh_from_db()
    assert (entry.status, entry.refund, tournament.prize_pool) == ("unregistered", 110, 200)
    again = entry_register(tournament_id=tournament.id, player_id=player.id)
    assert again.number == 2


def test_registration_closes_at_the_start_without_late_registration():
    tournament = make_tournament(players=2)
    tournament_start(tournament_id=tournament.id)
    with pytest.raises(Conflict) as error:
        entry_register(tournament_id=tournament.id, player_id=make_player().id)
    assert error.value.code == "registration_closed"


def test_a_late_registrant_is_seated_at_the_shortest_table_with_a_starting_stack():
    tournament = make_tournament(players=7, table_size=4, late_reg_levels=1)
    tournament_start(tournament_id=tournament.id)
    entry = entry_register(tournament_id=tournament.id, player_id=make_player(bot="rules").id)
    assert entry.status == EntryStatus.PLAYING
    seat = Seat.objects.get(player_id=entry.player_id)
    assert (seat.table_id, seat.stack) == (table_of(tournament, 2).id, 1000)
    assert Seat.objects.filter(table=table_of(tournament, 2), player__isnull=False).count() == 4


def test_a_late_registrant_opens_a_new_table_when_every_seat_is_taken():
    tournament = make_tournament(players=4, table_size=2, late_reg_levels=1)
    tournament_start(tournament_id=tournament.id)
    entry = entry_register(tournament_id=tournament.id, player_id=make_player(bot="rules").id)
    seat = Seat.objects.get(player_id=entry.player_id)
    assert seat.table.tournament_table.number == 3


def test_re_entry_after_elimination_within_the_limit():
    tournament = make_tournament(players=3, re_entry_max=1, re_entry_levels=2)
    tournament_start(tournament_id=tournament.id)
    table = table_of(tournament, 1)
    seats = Seat.objects.filter(table=table, player__isnull=False).order_by("number")
    loser, winner = seats[0], seats[1]
    fake_hand(table.id, {loser.number: 0, winner.number: 2000})
    tournament_update(tournament_id=tournament.id)
    entry = entry_re_enter(tournament_id=tournament.id, player_id=loser.player_id)
    assert (entry.number, entry.status) == (2, EntryStatus.PLAYING)
    tournament.refresh_from_db()
    assert tournament.prize_pool == 400
    fake_hand(
        table.id, {Seat.objects.get(player_id=loser.player_id).number: 0, winner.number: 3000}
    )
    tournament_update(tournament_id=tournament.id)
    with pytest.raises(Conflict) as error:
        entry_re_enter(tournament_id=tournament.id, player_id=loser.player_id)
    assert error.value.code == "re_entry_limit"


def test_re_entry_while_still_playing_is_refused():
    tournament = make_tournament(players=2, re_entry_max=1, re_entry_levels=2)
    tournament_start(tournament_id=tournament.id)
    player_id = Entry.objects.filter(tournament=tournament).first().player_id
    with pytest.raises(Conflict) as error:
        entry_re_enter(tournament_id=tournament.id, player_id=player_id)
    assert error.value.code == "still_playing"


def test_cancelling_refunds_every_entry_and_closes_the_tables():
    tournament = make_tournament(players=3)
    tournament_start(tournament_id=tournament.id)
    tournament_cancel(tournament_id=tournament.id)
    refunds = events(tournament, "cancelled")[0]["refunds"]
    assert sorted(r["refund"] for r in refunds) == [110, 110, 110]
    assert set(Entry.objects.filter(tournament=tournament).values_list("status", flat=True)) == {
        "refunded"
    }
    assert table_of(tournament, 1).status == "closed"
    with pytest.raises(Conflict):
        tournament_cancel(tournament_id=tournament.id)
