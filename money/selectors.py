"""Reading the ledger: an account's balance and its postings, newest first."""

from __future__ import annotations

from django.db.models import QuerySet

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
