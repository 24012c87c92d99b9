"""The cashier: deposits and withdrawals of a player's money, by staff or the director of
the club whose account it is (site-wide accounts: staff only).

A deposit moves units from the club's cash desk (the outside world) to the player; a
withdrawal back. The player's account never goes below zero: two withdrawals at once are
serialized by the account's row lock and the second is refused if the first took the money.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from clubs.access import can_serve
from money.errors import InvalidAmount, NotAllowed
from money.ledger import Ref, Transfer, cash_desk, player_account, post
from money.models import Reason, Transaction

MAX_AMOUNT = 10**15
"""The largest single deposit or withdrawal (far below the database's 64-bit limit)."""


def _check(by: Any, club_id: int | None, player_id: int, amount: int) -> None:
    if not can_serve(by, club_id, player_id):
        raise NotAllowed(
            "only staff, or the club's director for one of its members, can use the cashier"
            if club_id
            else "only staff can use the cashier for site-wide accounts",
        )
    if type(amount) is not int or not 1 <= amount <= MAX_AMOUNT:
        raise InvalidAmount(
            _("amount must be a whole number from 1 to %(MAX_AMOUNT)s") % {"MAX_AMOUNT": MAX_AMOUNT}
        )


def deposit(
    *, player_id: int, amount: int, by: Any, club_id: int | None = None, memo: str = ""
) -> Transaction:
    """Credit ``amount`` units to the player's account (in ``club_id``, or site-wide)."""
    _check(by, club_id, player_id, amount)
    with transaction.atomic():
        record = post(
            [Transfer(cash_desk(club_id), player_account(player_id, club_id), amount)],
            reason=Reason.DEPOSIT,
            ref=Ref("player", player_id),
            by=by,
            memo=memo,
        )
    assert record is not None
    return record


def withdraw(
    *, player_id: int, amount: int, by: Any, club_id: int | None = None, memo: str = ""
) -> Transaction:
    """Pay ``amount`` units out of the player's account; 409 if it holds less."""
    _check(by, club_id, player_id, amount)
    with transaction.atomic():
        record = post(
            [Transfer(player_account(player_id, club_id), cash_desk(club_id), amount)],
            reason=Reason.WITHDRAWAL,
            ref=Ref("player", player_id),
            by=by,
            memo=memo,
        )
    assert record is not None
    return record


def bankroll(*, player_id: int, amount: int, memo: str, club_id: int | None = None) -> Transaction:
    """Funds put in by the operator's own tools (``run_tournament``'s bots, benchmarks,
    demos), not through the API: a deposit with no user, its memo saying who."""
    if type(amount) is not int or not 1 <= amount <= MAX_AMOUNT:
        raise InvalidAmount(
            _("amount must be a whole number from 1 to %(MAX_AMOUNT)s") % {"MAX_AMOUNT": MAX_AMOUNT}
        )
    with transaction.atomic():
        record = post(
            [Transfer(cash_desk(club_id), player_account(player_id, club_id), amount)],
            reason=Reason.DEPOSIT,
            ref=Ref("player", player_id),
            memo=memo,
        )
    assert record is not None
    return record
