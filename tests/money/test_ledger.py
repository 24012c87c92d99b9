"""The ledger: balances are sums of zero-sum transactions, never below zero, append-only;
ledger_check proves it and fails on any difference."""

from __future__ import annotations

import pytest
from django.core.management import CommandError, call_command
from django.db import DatabaseError, transaction

from money import cashier
from money.errors import InsufficientFunds, InvalidAmount, NotAllowed
from money.ledger import Ref, Transfer, balance_of, cash_desk, house, player_account, post
from money.models import Account, Posting, Reason
from money.reconciliation import ledger_check
from tests.games.factories import make_player

pytestmark = pytest.mark.django_db


def test_a_deposit_and_a_withdrawal_move_units_between_the_cash_desk_and_the_player():
    staff = make_player(staff=True, funds=0).user
    player = make_player(funds=0)
    cashier.deposit(player_id=player.id, amount=500, by=staff)
    cashier.withdraw(player_id=player.id, amount=120, by=staff)
    assert balance_of(player_account(player.id)) == 380
    assert balance_of(cash_desk()) == -380
    assert ledger_check().ok


def test_a_withdrawal_above_the_balance_is_refused_and_changes_nothing():
    staff = make_player(staff=True, funds=0).user
    player = make_player(funds=100)
    postings = Posting.objects.count()
    with pytest.raises(InsufficientFunds) as refused:
        cashier.withdraw(player_id=player.id, amount=101, by=staff)
    assert refused.value.status == 409
    assert refused.value.detail == {"balance": 100, "needed": 101}
    assert balance_of(player_account(player.id)) == 100
    assert Posting.objects.count() == postings


def test_only_staff_or_the_clubs_director_use_the_cashier():
    player = make_player(funds=0)
    with pytest.raises(NotAllowed):
        cashier.deposit(player_id=player.id, amount=5, by=player.user)
    assert balance_of(player_account(player.id)) == 0


@pytest.mark.parametrize("amount", [0, -5, 2.5, 10**16])
def test_amounts_are_positive_whole_units(amount):
    staff = make_player(staff=True, funds=0).user
    with pytest.raises(InvalidAmount):
        cashier.deposit(player_id=1, amount=amount, by=staff)


def test_one_transaction_moves_to_several_accounts_and_sums_to_zero():
    player = make_player(funds=110)
    record = post(
        [
            Transfer(player_account(player.id), house(), 10),
            Transfer(player_account(player.id), cash_desk(), 100),
        ],
        reason=Reason.FEE,
        ref=Ref("test", 1),
    )
    assert record is not None
    assert sum(record.postings.values_list("amount", flat=True)) == 0
    assert balance_of(player_account(player.id)) == 0
    assert balance_of(house()) == 10


def test_postings_are_never_updated():
    player = make_player(funds=50)
    posting = Posting.objects.filter(account__owner_id=player.id).first()
    with pytest.raises(DatabaseError), transaction.atomic():
        Posting.objects.filter(pk=posting.pk).update(amount=5000)
    assert Posting.objects.get(pk=posting.pk).amount == 50


def test_ledger_check_fails_when_a_balance_is_not_the_sum_of_its_postings():
    player = make_player(funds=50)
    call_command("ledger_check")
    Account.objects.filter(kind="player", owner_id=player.id).update(balance=70)
    report = ledger_check()
    assert not report.ok
    assert "balance 70, its postings sum to 50" in report.problems[0]
    with pytest.raises(CommandError):
        call_command("ledger_check")
