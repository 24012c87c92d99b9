"""Ring games and the ledger: the buy-in needs funds, top-ups between hands, cash-out on
leaving, rake taken at settlement into the house and written in the hand's history."""

from __future__ import annotations

import pytest

from clubs.models import Club
from games.engine.phh import finishing_stacks_match, load_phh, replay_phh
from games.errors import Conflict
from games.models import Hand, HandStatus, Seat, TableEvent
from games.services import hands
from games.services.seating import seat_leave, seat_sit, seat_top_up
from money.errors import InsufficientFunds
from money.ledger import balance_of, house, player_account, table_chips
from money.reconciliation import ledger_check
from tests.games.factories import FUNDS, fund, make_player, make_table
from tests.games.test_api_support import client_for

pytestmark = pytest.mark.django_db


def test_a_buy_in_without_the_funds_is_refused_and_the_seat_stays_free():
    table = make_table()
    player = make_player(funds=40)
    with pytest.raises(InsufficientFunds):
        seat_sit(table_id=table.id, player=player, seat_number=1, buy_in=50)
    assert Seat.objects.get(table=table, number=1).player_id is None
    assert balance_of(player_account(player.id)) == 40


def test_buy_in_top_up_and_cash_out_move_the_players_money():
    table = make_table()
    player = make_player(funds=500)
    seat_sit(table_id=table.id, player=player, seat_number=1, buy_in=200)
    seat_top_up(table_id=table.id, player=player, amount=100)
    assert balance_of(player_account(player.id)) == 200
    assert balance_of(table_chips(table.id)) == 300
    seat_leave(table_id=table.id, player=player)
    assert balance_of(player_account(player.id)) == 500
    assert balance_of(table_chips(table.id)) == 0
    assert ledger_check().ok


def test_a_top_up_may_not_pass_the_maximum_buy_in():
    table = make_table(buy_in_max=300)
    player = make_player(funds=1000)
    seat_sit(table_id=table.id, player=player, seat_number=1, buy_in=250)
    response = client_for(player).post(
        f"/api/v1/tables/{table.id}/top-up/", {"amount": 51}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "top_up_range"
    assert Seat.objects.get(table=table, number=1).stack == 250


def test_no_top_up_during_a_hand_the_player_is_in():
    table = make_table()
    a, b = make_player(), make_player()
    seat_sit(table_id=table.id, player=a, seat_number=1, buy_in=200)
    seat_sit(table_id=table.id, player=b, seat_number=2, buy_in=200)
    hands.table_advance(table.id)
    with pytest.raises(Conflict):
        seat_top_up(table_id=table.id, player=a, amount=10)


def _bots_play(table, count=2, buy_in=300):
    bots = [make_player(bot="rules") for _ in range(count)]
    for number, bot in enumerate(bots, start=1):
        seat_sit(table_id=table.id, player=bot, seat_number=number, buy_in=buy_in, by_staff=True)
    return bots


def _play_hands(table, n):
    for _ in range(n * 3):
        hands.table_advance(table.id)
        if Hand.objects.filter(table=table, status=HandStatus.FINISHED).count() >= n:
            return


def test_rake_is_taken_from_the_pot_posted_to_the_house_and_in_the_history():
    table = make_table(rake_basis_points=1000, rake_cap=50, rake_third_street=True)
    _bots_play(table)
    _play_hands(table, 6)
    finished = list(Hand.objects.filter(table=table, status=HandStatus.FINISHED))
    raked = [hand for hand in finished if hand.rake]
    assert raked, "some pot of 2 antes and more is raked at 10%"
    assert balance_of(house()) == sum(hand.rake for hand in finished)
    for hand in raked:
        event = TableEvent.objects.get(hand=hand, kind="rake")
        assert event.data["amount"] == hand.rake and sum(event.data["shares"]) == hand.rake
        staff = client_for(make_player(staff=True))  # the bots' hands: staff read them
        text = staff.get(f"/api/v1/hands/{hand.id}/history/?format=phh")
        phh = load_phh(text.content.decode())
        assert phh.rake == hand.rake
        assert finishing_stacks_match(phh, replay_phh(phh)) is True
    assert ledger_check().ok


def test_ledger_check_sees_chips_made_at_a_table():
    table = make_table()
    _bots_play(table)
    Seat.objects.filter(table=table, number=1).update(stack=301)
    report = ledger_check()
    assert not report.ok
    assert "ring table" in report.problems[0]


def test_a_clubs_table_plays_with_the_players_money_in_that_club_and_rakes_for_its_house():
    club = Club.objects.create(name="Card Room")
    table = make_table(club=club, rake_basis_points=1000, rake_cap=50, rake_third_street=True)
    outsider = make_player(funds=0)
    fund(outsider.id, 500)  # site-wide money only: no buy-in at the club's table
    with pytest.raises(InsufficientFunds):
        seat_sit(table_id=table.id, player=outsider, seat_number=3, buy_in=100)
    bots = _bots_play(table)
    assert [balance_of(player_account(bot.id, club.id)) for bot in bots] == [FUNDS - 300] * 2
    assert [balance_of(player_account(bot.id)) for bot in bots] == [FUNDS] * 2
    _play_hands(table, 6)
    raked = sum(hand.rake for hand in Hand.objects.filter(table=table, status=HandStatus.FINISHED))
    assert raked and balance_of(house(club.id)) == raked and balance_of(house()) == 0
    # The hands may have broken one bot (its seat is then freed): the other one leaves.
    seat = Seat.objects.select_related("player").filter(table=table, player__in=bots).first()
    leaving, stack = seat.player, seat.stack
    seat_leave(table_id=table.id, player=leaving)
    assert balance_of(player_account(leaving.id, club.id)) == FUNDS - 300 + stack > FUNDS - 300
    assert balance_of(player_account(leaving.id)) == FUNDS
    assert ledger_check().ok
