"""Reading the ledger: an account's balance and its postings, newest first."""

from __future__ import annotations

from django.db.models import F, QuerySet

from money.ledger import AccountKey
from money.models import Account, Posting


def account_find(key: AccountKey) -> Account | None:
    return Account.objects.filter(kind=key.kind, owner_id=key.owner_id, club_id=key.club_id).first()


def account_postings(key: AccountKey) -> QuerySet[Posting]:
    """The postings of an account (none if it was never used), newest first."""
    return (
        Posting.objects.filter(
            account__kind=key.kind, account__owner_id=key.owner_id, account__club_id=key.club_id
        )
        .select_related("transaction")
        .order_by("-id")
    )


def owner_accounts(key_kind: str, owner_id: int) -> QuerySet[Account]:
    """Every account of one owner (site-wide and in each club), the site-wide first."""
    return (
        Account.objects.filter(kind=key_kind, owner_id=owner_id)
        .select_related("club")
        .order_by(F("club_id").asc(nulls_first=True))
    )


def accounts_postings(accounts: QuerySet[Account]) -> QuerySet[Posting]:
    """The postings of ``accounts``, newest first, with their transaction and account."""
    return (
        Posting.objects.filter(account__in=accounts)
        .select_related("transaction", "account__club")
        .order_by("-id")
    )
