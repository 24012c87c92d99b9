"""Concurrency on PostgreSQL: the account row lock serializes withdrawals and cash-outs,
and the idempotency record's unique index lets one of two duplicate requests execute."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, transaction

from games.errors import Conflict
from games.models import Table
from games.services import schedule
from games.services.chips import rake_take, settle_lock
from games.services.seating import seat_leave, seat_sit
from money import cashier
from money.errors import InsufficientFunds
from money.ledger import account_get, balance_of, house, player_account, table_chips
from money.models import Posting
from money.reconciliation import ledger_check
from tests.games.factories import make_player, make_table
from tests.games.test_api_support import client_for
from tests.games.test_concurrency import run_at_once

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _no_tasks(monkeypatch):
    for name in ("advance_now", "advance_at", "expire_later"):
        monkeypatch.setattr(schedule, name, lambda *args: None)


def test_two_withdrawals_at_once_cannot_overdraw():
    staff = make_player(staff=True, funds=0).user
    player = make_player(funds=100)
    results = run_at_once([lambda: cashier.withdraw(player_id=player.id, amount=70, by=staff)] * 2)
    refused = [r for r in results if isinstance(r, InsufficientFunds)]
    assert len(refused) == 1, results
    assert balance_of(player_account(player.id)) == 30
    assert ledger_check().ok


def test_many_withdrawals_at_once_take_exactly_what_is_there():
    staff = make_player(staff=True, funds=0).user
    player = make_player(funds=50)
    results = run_at_once([lambda: cashier.withdraw(player_id=player.id, amount=10, by=staff)] * 8)
    assert sum(not isinstance(r, Exception) for r in results) == 5
    assert all(isinstance(r, InsufficientFunds) for r in results if isinstance(r, Exception))
    assert balance_of(player_account(player.id)) == 0


def test_two_cash_outs_at_once_pay_once():
    table = make_table()
    player = make_player(funds=300)
    seat_sit(table_id=table.id, player=player, seat_number=1, buy_in=200)
    results = run_at_once([lambda: seat_leave(table_id=table.id, player=player)] * 2)
    assert sum(isinstance(r, Conflict) for r in results) == 1, results
    assert balance_of(player_account(player.id)) == 300
    assert ledger_check().ok


def test_a_duplicate_idempotent_request_in_parallel_executes_once():
    staff = make_player(staff=True)
    player = make_player(funds=0)
    url = f"/api/v1/players/{player.id}/deposit/"

    def deposit():
        response = client_for(staff).post(
            url, {"amount": 9}, format="json", HTTP_IDEMPOTENCY_KEY="same-key"
        )
        return response.status_code, response.content

    results = run_at_once([deposit] * 4)
    assert all(not isinstance(r, Exception) for r in results), results
    assert {status for status, _ in results} == {201}
    assert len({body for _, body in results}) == 1
    assert balance_of(player_account(player.id)) == 9
    assert Posting.objects.filter(account__kind="player", account__owner_id=player.id).count() == 1


def test_settlements_at_two_tables_do_not_wait_for_each_other_on_the_house():
    """The rake of every table goes to the one house account, which takes no row lock: the
    second table settles and commits while the first one's settlement is still open (a
    lock wait would hit ``lock_timeout`` and fail)."""
    first, second = make_table(), make_table()
    for table in (first, second):
        seat_sit(table_id=table.id, player=make_player(funds=300), seat_number=1, buy_in=200)
    account_get(house())  # the house's row exists after its first rake (its creation would wait)
    first_posted, second_committed = threading.Event(), threading.Event()

    def settle(table: Table, hand_id: int) -> None:
        with transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute("SET LOCAL lock_timeout = '2s'")
            settle_lock(table, [])
            rake_take(table=table, hand_id=hand_id, amount=3)
            if table == first:
                first_posted.set()
                assert second_committed.wait(10), "the second settlement waited for the first"
        if table == second:
            second_committed.set()

    def settle_second() -> None:
        assert first_posted.wait(10)
        settle(second, 2)

    results = run_at_once([lambda: settle(first, 1), settle_second])
    assert results == [None, None], results
    assert balance_of(house()) == 6
    assert balance_of(table_chips(first.id)) == balance_of(table_chips(second.id)) == 197
