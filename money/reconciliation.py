"""Reconciliation: the ledger balances, and it matches the chips the apps above hold.

Money cannot read tables or tournaments (they sit above it), so each app that holds value
registers a *provider* in its ``AppConfig.ready``: a function returning ``Claim`` rows, each
an amount the app says an account (or a count of its own) should show. ``ledger_check``
proves that:

1. every transaction's postings sum to zero, and every transaction has postings;
2. every account's balance is the sum of its postings (the cash desk and the house keep
   none: theirs is that sum), and none but the cash desk is below zero;
3. every claim holds, and no table, prize pool, bounty or season pot account holds value
   that no provider accounts for.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from django.db import connection, transaction
from django.db.models import Count, Sum
from django.db.models.functions import Coalesce

from money.ledger import AccountKey
from money.models import MAY_GO_NEGATIVE, UNLOCKED, Account, AccountKind, Posting, Transaction

HELD_FOR_OTHERS = (
    AccountKind.TABLE,
    AccountKind.PRIZE_POOL,
    AccountKind.BOUNTIES,
    AccountKind.SEASON_POT,
)
"""Accounts whose value belongs to something an app above runs: a provider must claim them."""


@dataclass(frozen=True)
class Claim:
    """What an app says should hold: ``expected`` units in ``account`` (or, with no account,
    ``expected`` equal to ``actual``, e.g. a tournament's chips)."""

    what: str
    expected: int
    account: AccountKey | None = None
    actual: int | None = None


Provider = Callable[[], Iterable[Claim]]
_providers: dict[str, Provider] = {}


def provider_register(name: str, provider: Provider) -> None:
    """Register (or replace) the provider called ``name``; apps call it in ``ready``."""
    _providers[name] = provider


def providers() -> dict[str, Provider]:
    return dict(_providers)


@dataclass
class Report:
    """What ``ledger_check`` found."""

    transactions: int = 0
    postings: int = 0
    accounts: int = 0
    claims: int = 0
    seconds: float = 0.0
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def ledger_check() -> Report:
    """Check the ledger and every registered provider's claims in one consistent snapshot."""
    started = time.perf_counter()
    report = Report()
    outermost = not connection.in_atomic_block
    with transaction.atomic():
        if connection.vendor == "postgresql" and outermost:
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
        _check_transactions(report)
        balances = _check_accounts(report)
        _check_claims(report, balances)
    report.seconds = time.perf_counter() - started
    return report


def _check_transactions(report: Report) -> None:
    report.transactions = Transaction.objects.count()
    report.postings = Posting.objects.count()
    lopsided = (
        Posting.objects.values("transaction_id")
        .annotate(total=Sum("amount"))
        .exclude(total=0)
        .order_by("transaction_id")
    )
    for row in lopsided[:20]:
        report.problems.append(
            f"transaction {row['transaction_id']}: postings sum to {row['total']}, not 0"
        )
    empty = Transaction.objects.annotate(n=Count("postings")).filter(n__lt=2)
    for record in empty.values_list("pk", flat=True)[:20]:
        report.problems.append(f"transaction {record}: fewer than two postings")


def _check_accounts(report: Report) -> dict[AccountKey, int]:
    rows = Account.objects.annotate(total=Coalesce(Sum("postings__amount"), 0)).values_list(
        "pk", "kind", "owner_id", "club_id", "balance", "total"
    )
    balances: dict[AccountKey, int] = {}
    grand_total = 0
    for pk, kind, owner_id, club_id, balance, total in rows:
        key = AccountKey(kind, owner_id, club_id)
        if kind in UNLOCKED:
            balance = total
        balances[key] = balance
        grand_total += total
        if balance != total:
            report.problems.append(
                f"account {pk} {key}: balance {balance}, its postings sum to {total}"
            )
        if balance < 0 and kind not in MAY_GO_NEGATIVE:
            report.problems.append(f"account {pk} {key}: below zero ({balance})")
    report.accounts = len(balances)
    if grand_total:
        report.problems.append(f"the ledger sums to {grand_total}, not 0")
    return balances


def _check_claims(report: Report, balances: dict[AccountKey, int]) -> None:
    claimed: set[AccountKey] = set()
    for name, provider in sorted(_providers.items()):
        for claim in provider():
            report.claims += 1
            if claim.account is not None:
                claimed.add(claim.account)
                actual = balances.get(claim.account, 0)
            else:
                actual = claim.actual if claim.actual is not None else 0
            if actual != claim.expected:
                report.problems.append(
                    f"{name}: {claim.what}: {claim.expected} expected, {actual} found"
                )
    for key, balance in balances.items():
        if key.kind in HELD_FOR_OTHERS and key not in claimed and balance:
            report.problems.append(f"{key} holds {balance} that no provider accounts for")
