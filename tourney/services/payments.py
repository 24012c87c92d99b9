"""A tournament's money in the ledger: buy-ins, re-entries, rebuys and add-ons (the price
less its fee to the prize pool, the fee to the house), refunds, and the prizes paid from
the pool when the tournament ends.

The player's account is the one in the tournament's club (site-wide for a tournament
without a club). Every function runs inside the caller's transaction, under the tournament
lock, so an entry and its payment commit together or not at all.
"""

from __future__ import annotations

from collections.abc import Iterable

from money.ledger import Ref, Transfer, house, player_account, post, prize_pool
from money.models import Reason
from money.reconciliation import Claim
from tourney.models import Entry, Mode, Status, Tournament

PRICES = {
    Reason.TOURNAMENT_BUY_IN: ("buy_in", "fee"),
    Reason.RE_ENTRY: ("buy_in", "fee"),
    Reason.REBUY: ("rebuy_price", "rebuy_fee"),
    Reason.ADD_ON: ("add_on_price", "add_on_fee"),
}
MONEY_SETTINGS = frozenset(name for pair in PRICES.values() for name in pair)
"""Settings that fix what entries paid: they cannot change once an entry has paid."""


def _parts(tournament: Tournament, reason: Reason) -> tuple[int, int]:
    """(to the pool, to the house) of one purchase."""
    price_field, fee_field = PRICES[reason]
    price, fee = getattr(tournament, price_field), getattr(tournament, fee_field)
    return price - fee, fee


def entry_pay(tournament: Tournament, entry: Entry, reason: Reason) -> None:
    """The player pays for a buy-in, re-entry, rebuy or add-on (409 without the funds)."""
    pool_part, fee = _parts(tournament, reason)
    club = tournament.club_id
    payer = player_account(entry.player_id, club)
    post(
        [
            Transfer(payer, prize_pool(tournament.id, club), pool_part),
            Transfer(payer, house(club), fee),
        ],
        reason=reason,
        ref=Ref("entry", entry.id),
    )


def refunds_pay(tournament: Tournament, entries: Iterable[Entry]) -> None:
    """Give each entry back what it paid, fees included (unregistering, cancelling)."""
    club = tournament.club_id
    transfers = []
    for entry in entries:
        payee = player_account(entry.player_id, club)
        pool_part = fee = 0
        for reason, count in (
            (Reason.TOURNAMENT_BUY_IN, 1),
            (Reason.REBUY, entry.rebuys),
            (Reason.ADD_ON, entry.add_ons),
        ):
            to_pool, to_house = _parts(tournament, reason)
            pool_part += count * to_pool
            fee += count * to_house
        transfers.append(Transfer(prize_pool(tournament.id, club), payee, pool_part))
        transfers.append(Transfer(house(club), payee, fee))
    post(transfers, reason=Reason.REFUND, ref=Ref("tournament", tournament.id))


def prizes_pay(tournament: Tournament) -> list[dict[str, int]]:
    """Pay every entry's prize (or deal amount) from the pool; returns what was paid."""
    club = tournament.club_id
    paid = [
        {"entry": entry.id, "player": entry.player_id, "prize": entry.prize}
        for entry in tournament.entries.filter(prize__gt=0).order_by("place", "id")
    ]
    post(
        [
            Transfer(prize_pool(tournament.id, club), player_account(p["player"], club), p["prize"])
            for p in paid
        ],
        reason=Reason.PRIZE,
        ref=Ref("tournament", tournament.id),
    )
    return paid


def tournament_claims() -> Iterable[Claim]:
    """For ``ledger_check``: an open tournament's pool account holds its prize pool, a
    finished or cancelled one's holds nothing (all paid out or refunded); an online
    tournament's seats hold every chip it sold."""
    from tourney.services.update import chips_expected, chips_in_play

    for tournament in Tournament.objects.order_by("id"):
        over = tournament.status in (Status.FINISHED, Status.CANCELLED)
        yield Claim(
            f"tournament {tournament.id} ({tournament.status}): prize pool",
            0 if over else tournament.prize_pool,
            account=prize_pool(tournament.id, tournament.club_id),
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
