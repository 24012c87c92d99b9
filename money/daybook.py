"""A club's day at the cashier, read from the ledger: what its players paid in (buy-ins,
fees), what the house took (fees, rake), what was paid out (prizes, bounties), and what
crossed the cash desk (deposits, withdrawals).

Every figure is a sum of the postings of that day (in the server's time zone) on the
club's accounts (``club_id`` None: the site-wide ones); nothing is stored apart from the
ledger, so the page agrees with ``ledger_check``.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import date

from django.db.models import Count, Sum

from money.models import AccountKind, Posting, Reason

TOURNAMENT_PURCHASES = (Reason.TOURNAMENT_BUY_IN, Reason.RE_ENTRY, Reason.REBUY, Reason.ADD_ON)
RING_PURCHASES = (Reason.BUY_IN, Reason.TOP_UP)
WINNINGS = (Reason.PRIZE, Reason.BOUNTY)


@dataclass(frozen=True)
class DayLine:
    """One reason's movements of the day: net units into (+) or out of (-) the players'
    accounts, the house and the cash desk, and how many transactions."""

    reason: str
    label: str
    transactions: int
    players: int
    house: int
    cash_desk: int


@dataclass(frozen=True)
class ClubDay:
    club_id: int | None
    day: date
    lines: tuple[DayLine, ...]

    def _players(self, reasons: tuple[str, ...]) -> int:
        return sum(line.players for line in self.lines if line.reason in reasons)

    @property
    def deposits(self) -> int:
        return self._players((Reason.DEPOSIT,))

    @property
    def withdrawals(self) -> int:
        return -self._players((Reason.WITHDRAWAL,))

    @property
    def tournament_buy_ins(self) -> int:
        """What players paid for entries, re-entries, rebuys and add-ons, fees included."""
        return -self._players(TOURNAMENT_PURCHASES)

    @property
    def ring_buy_ins(self) -> int:
        return -self._players(RING_PURCHASES)

    @property
    def fees(self) -> int:
        """The house's take from entries and purchases (less fees refunded)."""
        return sum(line.house for line in self.lines if line.reason != Reason.RAKE)

    @property
    def rake(self) -> int:
        return sum(line.house for line in self.lines if line.reason == Reason.RAKE)

    @property
    def prizes(self) -> int:
        return self._players(WINNINGS)

    @property
    def cash_desk(self) -> int:
        """Units taken in at the desk less units paid out (the desk's account moves the
        other way: it stands for the outside world)."""
        return -sum(line.cash_desk for line in self.lines)


def club_day(*, club_id: int | None, day: date) -> ClubDay:
    """The day ``day`` of the club ``club_id`` (None: the site-wide accounts), one query."""
    rows = (
        Posting.objects.filter(account__club_id=club_id, transaction__created_at__date=day)
        if club_id is not None
        else Posting.objects.filter(account__club__isnull=True, transaction__created_at__date=day)
    )
    sums = rows.values("transaction__reason", "account__kind").annotate(
        total=Sum("amount"), count=Count("transaction", distinct=True)
    )
    by_reason: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for row in sums:
        reason = by_reason[row["transaction__reason"]]
        reason[row["account__kind"]] += row["total"]
        reason["count"] = max(reason["count"], row["count"])
    lines = tuple(
        DayLine(
            reason=reason,
            label=Reason(reason).label,
            transactions=kinds["count"],
            players=kinds[AccountKind.PLAYER],
            house=kinds[AccountKind.HOUSE],
            cash_desk=kinds[AccountKind.CASH],
        )
        for reason, kinds in sorted(by_reason.items())
    )
    return ClubDay(club_id=club_id, day=day, lines=lines)
