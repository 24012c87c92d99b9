"""Accounts and their immutable double-entry transactions, in integer units.

An account belongs to the outside world (the cash desk), the house, a player, a ring table's
chips in play, a tournament's prize pool or bounties, or a league season's pot; each in one
club, or site-wide when ``club`` is null. Rows of higher layers (players, tables,
tournaments, seasons) are named by ``owner_id``, not by foreign key, because money sits
below them.

A transaction's postings sum to zero. ``Account.balance`` is the sum of the account's
postings, kept up to date under the account's row lock in the same database transaction;
``ledger_check`` proves it. The cash desk and the house are the exception (``UNLOCKED``):
every table and cashier posts to them, so they take no row lock and keep no running balance
(the column stays 0); their balance is the sum of their postings when it is read.
Postings and transactions are never updated (a database trigger refuses it); a mistake is
corrected by a new transaction.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class AccountKind(models.TextChoices):
    CASH = "cash", _("cash desk (the outside world)")
    HOUSE = "house", _("the house (fees, rake)")
    PLAYER = "player", _("a player's money")
    TABLE = "table", _("a ring table's chips in play")
    PRIZE_POOL = "prize_pool", _("a tournament's prize pool")
    BOUNTIES = "bounties", _("a tournament's bounties")
    SEASON_POT = "season_pot", _("a league season's pot")


MAY_GO_NEGATIVE = (AccountKind.CASH,)
"""Only the cash desk goes below zero: its balance is minus what the outside world holds
with us (deposits less withdrawals)."""

UNLOCKED = (AccountKind.CASH, AccountKind.HOUSE)
"""Accounts posted to without a row lock, because nothing is checked against their balance:
the cash desk may go below zero, and the house only takes fees and rake (and gives back a
fee it took when an entry is refunded). Locking them would make every settlement of every
table, and every deposit, wait for the one before it to commit."""


class Reason(models.TextChoices):
    DEPOSIT = "deposit", _("deposit at the cashier")
    WITHDRAWAL = "withdrawal", _("withdrawal at the cashier")
    BUY_IN = "buy_in", _("ring game buy-in")
    TOP_UP = "top_up", _("ring game top-up")
    CASH_OUT = "cash_out", _("ring game cash-out")
    TABLE_CHANGE = "table_change", _("chips moved with their player to another table")
    RAKE = "rake", _("rake of a pot")
    TOURNAMENT_BUY_IN = "tournament_buy_in", _("tournament buy-in")
    RE_ENTRY = "re_entry", _("tournament re-entry")
    REBUY = "rebuy", _("tournament rebuy")
    ADD_ON = "add_on", _("tournament add-on")
    FEE = "fee", _("fee to the house")
    REFUND = "refund", _("refund")
    PRIZE = "prize", _("tournament prize")
    BOUNTY = "bounty", _("bounty")
    LEAGUE_FEE = "league_fee", _("league fee")
    SEASON_PAYOUT = "season_payout", _("season pot payout")


class Account(models.Model):
    """One account. ``owner_id`` names the player, table, tournament or season (0 for the
    cash desk and the house)."""

    kind = models.CharField(max_length=12, choices=AccountKind.choices)
    club = models.ForeignKey(
        "clubs.Club", on_delete=models.PROTECT, null=True, blank=True, related_name="accounts"
    )
    owner_id = models.BigIntegerField(default=0)
    balance = models.BigIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        constraints = [
            models.UniqueConstraint(
                fields=["kind", "owner_id"],
                condition=Q(club__isnull=True),
                name="account_one_per_owner_site",
            ),
            models.UniqueConstraint(
                fields=["kind", "club", "owner_id"],
                condition=Q(club__isnull=False),
                name="account_one_per_owner_club",
            ),
            models.CheckConstraint(
                condition=Q(balance__gte=0) | Q(kind__in=MAY_GO_NEGATIVE),
                name="account_never_below_zero",
            ),
        ]

    def __str__(self) -> str:
        where = f"club {self.club_id}" if self.club_id else "site"
        return f"{self.kind} {self.owner_id} ({where})"


class Transaction(models.Model):
    """One movement of value: its postings sum to zero. ``ref_kind``/``ref_id`` name what it
    pays for (a hand, a seat at a table, a tournament entry, a cashier request)."""

    reason = models.CharField(max_length=20, choices=Reason.choices)
    ref_kind = models.CharField(max_length=20, blank=True, default="")
    ref_id = models.BigIntegerField(null=True, blank=True)
    memo = models.CharField(max_length=200, blank=True, default="")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        indexes = [models.Index(fields=["ref_kind", "ref_id"], name="transaction_ref_idx")]

    def __str__(self) -> str:
        return f"#{self.pk} {self.reason} {self.ref_kind} {self.ref_id}"


class Posting(models.Model):
    """One side of a transaction: ``amount`` units into (positive) or out of (negative)
    ``account``."""

    transaction = models.ForeignKey(Transaction, on_delete=models.PROTECT, related_name="postings")
    account = models.ForeignKey(Account, on_delete=models.PROTECT, related_name="postings")
    amount = models.BigIntegerField()

    class Meta:
        ordering = ["id"]
        constraints = [
            models.CheckConstraint(condition=~Q(amount=0), name="posting_amount_not_zero")
        ]
        indexes = [models.Index(fields=["account", "id"], name="posting_account_idx")]

    def __str__(self) -> str:
        return f"{self.amount:+d} {self.account_id}"
