"""Posting to the ledger: ``post(transfers, reason=..., ref=...)`` inside the caller's
database transaction, so a change and the money it moves commit together or not at all.

Accounts are locked in id order (after the caller's tournament, table and hand locks), their
balances checked and updated, and one posting per side of each transfer written. The cash
desk and the house (``UNLOCKED``) are neither locked nor updated: postings to them are
plain inserts, so settlements at different tables never wait on each other for the house. An account
that may not go below zero and would is refused with ``InsufficientFunds`` and nothing is
written. A caller that posts more than once in one database transaction locks every account
it will touch first (``accounts_lock``), so two such callers never wait on each other in
opposite orders.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Q, Sum
from django.utils.translation import gettext as _

from money.errors import InsufficientFunds, InvalidAmount
from money.models import (
    UNLOCKED,
    Account,
    AccountKind,
    Posting,
    Reason,
    Transaction,
)
from observability import metrics


@dataclass(frozen=True)
class AccountKey:
    """Names an account: its kind, its owner's id (0 for the cash desk and the house) and
    its club (None: site-wide)."""

    kind: str
    owner_id: int = 0
    club_id: int | None = None

    def __str__(self) -> str:
        where = f"club {self.club_id}" if self.club_id else "site"
        return (
            f"{self.kind} {self.owner_id} ({where})" if self.owner_id else f"{self.kind} ({where})"
        )


def cash_desk(club_id: int | None = None) -> AccountKey:
    return AccountKey(AccountKind.CASH, 0, club_id)


def house(club_id: int | None = None) -> AccountKey:
    return AccountKey(AccountKind.HOUSE, 0, club_id)


def player_account(player_id: int, club_id: int | None = None) -> AccountKey:
    return AccountKey(AccountKind.PLAYER, player_id, club_id)


def table_chips(table_id: int) -> AccountKey:
    return AccountKey(AccountKind.TABLE, table_id, None)


def prize_pool(tournament_id: int, club_id: int | None = None) -> AccountKey:
    return AccountKey(AccountKind.PRIZE_POOL, tournament_id, club_id)


def season_pot(season_id: int, club_id: int | None = None) -> AccountKey:
    return AccountKey(AccountKind.SEASON_POT, season_id, club_id)


@dataclass(frozen=True)
class Transfer:
    """``amount`` units from ``source`` to ``target``."""

    source: AccountKey
    target: AccountKey
    amount: int


@dataclass(frozen=True)
class Ref:
    """What a transaction pays for: e.g. ``Ref("hand", 12)``, ``Ref("entry", 7)``."""

    kind: str
    id: int | None = None


def account_get(key: AccountKey) -> Account:
    """The account named by ``key``, created at zero on first use."""
    lookup = {"kind": key.kind, "owner_id": key.owner_id, "club_id": key.club_id}
    account = Account.objects.filter(**lookup).first()
    if account is not None:
        return account
    try:
        with transaction.atomic():
            return Account.objects.create(**lookup)
    except IntegrityError:  # created by a concurrent transaction since
        return Account.objects.get(**lookup)


def accounts_lock(keys: Iterable[AccountKey]) -> dict[AccountKey, Account]:
    """Lock the accounts named by ``keys`` (created if new) in id order; inside
    ``transaction.atomic``. Returns them with their current balances; the cash desk and the
    house are returned unlocked (``UNLOCKED``). One query when the accounts exist already
    (two with an unlocked one)."""
    wanted = set(keys)
    found = _find(wanted)
    missing = wanted - found.keys()
    if missing:
        for key in missing:
            account_get(key)
        found = _find(wanted)
    return found


def _find(keys: set[AccountKey]) -> dict[AccountKey, Account]:
    locked = {key for key in keys if key.kind not in UNLOCKED}
    rows = list(Account.objects.select_for_update().filter(_match(locked)).order_by("pk"))
    if len(locked) < len(keys):
        rows += Account.objects.filter(_match(keys - locked))
    return {AccountKey(a.kind, a.owner_id, a.club_id): a for a in rows}


def _match(keys: set[AccountKey]) -> Q:
    match = Q(pk__in=[])
    for key in keys:
        match |= Q(kind=key.kind, owner_id=key.owner_id, club_id=key.club_id)
    return match


def balance_of(key: AccountKey) -> int:
    """The balance of an account (0 if it was never used); the cash desk's and the house's
    is the sum of their postings."""
    lookup = {"kind": key.kind, "owner_id": key.owner_id, "club_id": key.club_id}
    if key.kind in UNLOCKED:
        total = Posting.objects.filter(**{f"account__{k}": v for k, v in lookup.items()})
        return total.aggregate(total=Sum("amount"))["total"] or 0
    account = Account.objects.filter(**lookup).first()
    return account.balance if account else 0


def post(
    transfers: Sequence[Transfer],
    *,
    reason: Reason | str,
    ref: Ref = Ref(""),
    by: Any = None,
    memo: str = "",
) -> Transaction | None:
    """Write one transaction moving every transfer's amount; None if they are all zero.

    Raises ``InvalidAmount`` for a negative or non-integer amount and ``InsufficientFunds``
    if an account other than the cash desk or the house would go below zero; nothing is
    written then.
    """
    for transfer in transfers:
        if type(transfer.amount) is not int or transfer.amount < 0:
            raise InvalidAmount(
                _("amounts are whole numbers of units, 0 or more, not %(amount)s")
                % {"amount": repr(transfer.amount)}
            )
    moving = [t for t in transfers if t.amount and t.source != t.target]
    if not moving:
        return None
    net: dict[AccountKey, int] = defaultdict(int)
    for transfer in moving:
        net[transfer.source] -= transfer.amount
        net[transfer.target] += transfer.amount
    with transaction.atomic():
        accounts = accounts_lock(net)
        for key, change in net.items():
            account = accounts[key]
            if key.kind not in UNLOCKED and account.balance + change < 0:
                raise InsufficientFunds(
                    _(
                        "%(key)s holds %(balance)s, %(value)s is needed: deposit at the "
                        "cashier first, or ask for less"
                    )
                    % {"key": key, "balance": account.balance, "value": -change},
                    detail={"balance": account.balance, "needed": -change},
                )
        record = Transaction.objects.create(
            reason=reason,
            ref_kind=ref.kind,
            ref_id=ref.id,
            memo=memo[:200],
            created_by=by if getattr(by, "is_authenticated", False) else None,
        )
        postings = []
        for transfer in moving:
            postings.append(
                Posting(
                    transaction=record, account=accounts[transfer.source], amount=-transfer.amount
                )
            )
            postings.append(
                Posting(
                    transaction=record, account=accounts[transfer.target], amount=transfer.amount
                )
            )
        Posting.objects.bulk_create(postings)
        changed = []
        for key, change in net.items():
            if change and key.kind not in UNLOCKED:
                accounts[key].balance += change
                changed.append(accounts[key])
        Account.objects.bulk_update(changed, ["balance"])
        _announce(record, postings)
        transaction.on_commit(partial(metrics.ledger_posted, str(reason)))
        return record


def _announce(record: Transaction, postings: list[Posting]) -> None:
    """The ledger-transaction webhook event, in the same database transaction."""
    from integrations.webhooks.outbox import event_emit

    clubs = {p.account.club_id for p in postings} - {None}
    payload = {
        "transaction": record.pk,
        "reason": record.reason,
        "ref": {"kind": record.ref_kind, "id": record.ref_id},
        "postings": [
            {
                "account": {
                    "kind": p.account.kind,
                    "owner": p.account.owner_id,
                    "club": p.account.club_id,
                },
                "amount": p.amount,
            }
            for p in postings
        ],
    }
    # A club's transaction goes to that club's subscribers (and the site-wide ones).
    event_emit("ledger.transaction", payload, club_id=clubs.pop() if len(clubs) == 1 else None)
