"""A club's day from the ledger: buy-ins with their fees, rake, prizes, deposits and
withdrawals, each summed from that day's postings on the club's accounts only."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from clubs.models import Club
from money.daybook import club_day
from money.ledger import (
    Ref,
    Transfer,
    cash_desk,
    house,
    player_account,
    post,
    prize_pool,
    table_chips,
)
from money.models import Reason

pytestmark = pytest.mark.django_db


def test_a_club_s_day_sums_each_kind_of_movement():
    club = Club.objects.create(name="Ours").id
    other = Club.objects.create(name="Theirs").id
    ann, bob = player_account(1, club), player_account(2, club)
    post(
        [Transfer(cash_desk(club), ann, 500), Transfer(cash_desk(club), bob, 300)],
        reason=Reason.DEPOSIT,
    )
    post([Transfer(cash_desk(other), player_account(1, other), 999)], reason=Reason.DEPOSIT)
    for player in (ann, bob):
        post(
            [Transfer(player, prize_pool(7, club), 90), Transfer(player, house(club), 10)],
            reason=Reason.TOURNAMENT_BUY_IN,
            ref=Ref("entry"),
        )
    post([Transfer(ann, prize_pool(7, club), 50)], reason=Reason.REBUY)
    post([Transfer(prize_pool(7, club), ann, 230)], reason=Reason.PRIZE)
    post([Transfer(ann, cash_desk(club), 100)], reason=Reason.WITHDRAWAL)
    post([Transfer(ann, table_chips(3), 40)], reason=Reason.BUY_IN)
    post([Transfer(table_chips(3), house(club), 4)], reason=Reason.RAKE)
    day = club_day(club_id=club, day=timezone.localdate())
    assert (day.deposits, day.withdrawals, day.cash_desk) == (800, 100, 700)
    assert (day.tournament_buy_ins, day.fees, day.prizes, day.rake) == (250, 20, 230, 4)
    assert day.ring_buy_ins == 40
    buy_ins = next(line for line in day.lines if line.reason == Reason.TOURNAMENT_BUY_IN)
    assert (buy_ins.transactions, buy_ins.players, buy_ins.house) == (2, -200, 20)
    assert club_day(club_id=club, day=timezone.localdate() - timedelta(days=1)).lines == ()
    site = club_day(club_id=None, day=timezone.localdate())  # only the table's chips there
    assert (site.deposits, site.fees, site.rake, site.ring_buy_ins) == (0, 0, 0, 0)
