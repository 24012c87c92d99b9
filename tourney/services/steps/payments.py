"""A tournament's money: its prize pool, and in the ledger the buy-ins, re-entries, rebuys
and add-ons (the price less its fee, and less the bounty of a knockout tournament's entry,
to the prize pool; the bounty to the tournament's bounties; the fee to the house), refunds,
and the prizes and bounties paid when the tournament ends.

The player's account is the one in the tournament's club (site-wide for a tournament
without a club). Every function runs inside the caller's transaction, under the tournament
lock, so an entry and its payment commit together or not at all; so do the league fee and
its refund, which a season's receivers of ``entry_bought`` and ``entries_refunded`` post.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from django.db.models import Q, Sum

from money.ledger import (
    AccountKey,
    Ref,
    Transfer,
    accounts_lock,
    house,
    player_account,
    post,
    prize_pool,
)
from money.models import AccountKind, Reason
from money.reconciliation import Claim
from tourney.models import PAID, Entry, Mode, Status, Tournament
from tourney.planning import payouts
from tourney.services.steps.chips import chips_expected, chips_in_play
from tourney.signals import entries_refunded, entry_bought

PRICES = {
    Reason.TOURNAMENT_BUY_IN: ("buy_in", "fee"),
    Reason.RE_ENTRY: ("buy_in", "fee"),
    Reason.REBUY: ("rebuy_price", "rebuy_fee"),
    Reason.ADD_ON: ("add_on_price", "add_on_fee"),
}
MONEY_SETTINGS = frozenset({"bounty", *(name for pair in PRICES.values() for name in pair)})
"""Settings that fix what entries paid: they cannot change once an entry has paid."""


def bounties(tournament: Tournament) -> AccountKey:
    return AccountKey(AccountKind.BOUNTIES, tournament.id, tournament.club_id)


def _parts(tournament: Tournament, reason: Reason) -> tuple[int, int, int]:
    """(to the pool, to the bounties, to the house) of one purchase: an entry (buy-in or
    re-entry) carries a bounty in a knockout tournament."""
    price_field, fee_field = PRICES[reason]
    price, fee = getattr(tournament, price_field), getattr(tournament, fee_field)
    bounty = tournament.bounty if price_field == "buy_in" else 0
    return price - fee - bounty, bounty, fee


def entry_pay(tournament: Tournament, entry: Entry, reason: Reason) -> None:
    """The player pays for a buy-in, re-entry, rebuy or add-on (409 without the funds)."""
    pool_part, bounty, fee = _parts(tournament, reason)
    club = tournament.club_id
    payer = player_account(entry.player_id, club)
    post(
        [
            Transfer(payer, prize_pool(tournament.id, club), pool_part),
            Transfer(payer, bounties(tournament), bounty),
            Transfer(payer, house(club), fee),
        ],
        reason=reason,
        ref=Ref("entry", entry.id),
    )
    if reason in (Reason.TOURNAMENT_BUY_IN, Reason.RE_ENTRY):  # an entry, not a purchase in it
        entry_bought.send(sender=Tournament, tournament=tournament, entry=entry)


def refunds_pay(tournament: Tournament, entries: Sequence[Entry]) -> None:
    """Give each entry back what it paid, fees included (unregistering, cancelling)."""
    club = tournament.club_id
    transfers = []
    for entry in entries:
        payee = player_account(entry.player_id, club)
        pool_part = bounty = fee = 0
        for reason, count in (
            (Reason.TOURNAMENT_BUY_IN, 1),
            (Reason.REBUY, entry.rebuys),
            (Reason.ADD_ON, entry.add_ons),
        ):
            to_pool, to_bounties, to_house = _parts(tournament, reason)
            pool_part += count * to_pool
            bounty += count * to_bounties
            fee += count * to_house
        transfers.append(Transfer(prize_pool(tournament.id, club), payee, pool_part))
        transfers.append(Transfer(bounties(tournament), payee, bounty))
        transfers.append(Transfer(house(club), payee, fee))
    post(transfers, reason=Reason.REFUND, ref=Ref("tournament", tournament.id))
    entries_refunded.send(sender=Tournament, tournament=tournament, entries=entries)


def prizes_pay(tournament: Tournament) -> list[dict[str, int]]:
    """Pay every entry's prize (or deal amount) from the pool and the bounties it won from
    the bounties; returns what was paid."""
    club = tournament.club_id
    paid = [
        {"entry": e.id, "player": e.player_id, "prize": e.prize, "bounty": e.bounty_won}
        for e in tournament.entries.filter(Q(prize__gt=0) | Q(bounty_won__gt=0)).order_by(
            "place", "id"
        )
    ]
    payees = [player_account(p["player"], club) for p in paid]
    accounts_lock([prize_pool(tournament.id, club), bounties(tournament), *payees])
    ref = Ref("tournament", tournament.id)
    pool = prize_pool(tournament.id, club)
    post(
        [Transfer(pool, payee, p["prize"]) for p, payee in zip(paid, payees, strict=True)],
        reason=Reason.PRIZE,
        ref=ref,
    )
    post(
        [
            Transfer(bounties(tournament), payee, p["bounty"])
            for p, payee in zip(paid, payees, strict=True)
        ],
        reason=Reason.BOUNTY,
        ref=ref,
    )
    return paid


def pool_recompute(tournament: Tournament) -> None:
    """The prize pool from every paid entry, re-entry, rebuy and add-on, fees and bounties
    taken out."""
    paid = tournament.entries.filter(status__in=PAID)
    totals = paid.aggregate(rebuys=Sum("rebuys"), add_ons=Sum("add_ons"))
    players = paid.values("player").distinct().count()
    tournament.prize_pool = (
        payouts.prize_pool(
            entries=players,
            re_entries=paid.count() - players,
            buy_in=tournament.buy_in,
            fee=tournament.fee,
            rebuys=totals["rebuys"] or 0,
            rebuy_price=tournament.rebuy_price,
            rebuy_fee=tournament.rebuy_fee,
            add_ons=totals["add_ons"] or 0,
            add_on_price=tournament.add_on_price,
            add_on_fee=tournament.add_on_fee,
        )
        - tournament.bounty * paid.count()
    )  # the bounties are on the entries' heads
    tournament.save(update_fields=["prize_pool"])


def tournament_claims() -> Iterable[Claim]:
    """For ``ledger_check``: an open tournament's pool account holds its prize pool, a
    finished or cancelled one's holds nothing (all paid out or refunded); an online
    tournament's seats hold every chip it sold."""
    for tournament in Tournament.objects.order_by("id"):
        over = tournament.status in (Status.FINISHED, Status.CANCELLED)
        yield Claim(
            f"tournament {tournament.id} ({tournament.status}): prize pool",
            0 if over else tournament.prize_pool,
            account=prize_pool(tournament.id, tournament.club_id),
        )
        heads = tournament.entries.filter(status__in=PAID).count() * tournament.bounty
        yield Claim(
            f"tournament {tournament.id} ({tournament.status}): bounties",
            0 if over else heads,
            account=bounties(tournament),
        )
        if tournament.mode == Mode.ONLINE and tournament.status in (
            Status.RUNNING,
            Status.PAUSED,
        ):
            yield Claim(
                f"tournament {tournament.id}: chips on its seats",
                chips_expected(tournament),
                actual=chips_in_play(tournament),
            )
