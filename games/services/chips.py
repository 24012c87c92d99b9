"""Ring-game chips and the ledger: every chip on a ring table's seats (and in its running
hand's pots) is held by the table's account; a buy-in or top-up moves units from the
player's account to it, a cash-out and the rake move them out. A club's table takes and pays
back the player's units in that club, and its rake goes to that club's house; other tables
use the site-wide accounts.

Each function runs inside the caller's transaction, under the table lock, so the seat and
its money change together or not at all.
"""

from __future__ import annotations

from collections.abc import Iterable

from games.models import Hand, HandStatus, Seat, Table, TableKind
from games.selectors import hand_state
from money.ledger import (
    Ref,
    Transfer,
    accounts_lock,
    house,
    player_account,
    post,
    table_chips,
)
from money.models import Reason
from money.reconciliation import Claim


def chips_buy(*, table: Table, player_id: int, amount: int, top_up: bool = False) -> None:
    """The player pays for ``amount`` chips at the table (409 if their account holds less)."""
    post(
        [Transfer(player_account(player_id, table.club_id), table_chips(table.id), amount)],
        reason=Reason.TOP_UP if top_up else Reason.BUY_IN,
        ref=Ref("table", table.id),
    )


def settle_lock(table: Table, leaving_player_ids: Iterable[int]) -> None:
    """Lock every account a settlement touches at once (the table's and the leaving
    players'), in id order. The house, which takes the rake of every table, is never locked
    (``money.models.UNLOCKED``): settlements at different tables do not wait on each other."""
    keys = [table_chips(table.id)]
    keys += [player_account(player_id, table.club_id) for player_id in leaving_player_ids]
    accounts_lock(keys)


def chips_cash_out(*, table: Table, player_id: int, amount: int) -> None:
    """The player leaves with ``amount`` chips: paid back into their account."""
    post(
        [Transfer(table_chips(table.id), player_account(player_id, table.club_id), amount)],
        reason=Reason.CASH_OUT,
        ref=Ref("table", table.id),
    )


def chips_move(*, from_table_id: int, to_table_id: int, player_id: int, amount: int) -> None:
    """The player changes tables (the floor's move) and takes their chips along."""
    post(
        [Transfer(table_chips(from_table_id), table_chips(to_table_id), amount)],
        reason=Reason.TABLE_CHANGE,
        ref=Ref("player", player_id),
    )


def rake_take(*, table: Table, hand_id: int, amount: int) -> None:
    """The hand's rake goes from the table's chips to the (table's club's) house."""
    post(
        [Transfer(table_chips(table.id), house(table.club_id), amount)],
        reason=Reason.RAKE,
        ref=Ref("hand", hand_id),
    )


def ring_claims() -> Iterable[Claim]:
    """For ``ledger_check``: each ring table's account holds the chips on its seats and in
    its running hand's pots (the live stacks and pots of the hand, the seats of the rest)."""
    running = {
        hand.table_id: hand
        for hand in Hand.objects.filter(status=HandStatus.RUNNING, table__kind=TableKind.RING)
    }
    seats: dict[int, list[Seat]] = {}
    for seat in Seat.objects.filter(table__kind=TableKind.RING, player__isnull=False):
        seats.setdefault(seat.table_id, []).append(seat)
    for table_id in sorted(set(seats) | set(running)):
        hand = running.get(table_id)
        in_hand = {entry["seat"] for entry in hand.lineup} if hand else set()
        chips = sum(s.stack for s in seats.get(table_id, []) if s.number not in in_hand)
        what = f"ring table {table_id}: chips on its seats"
        if hand is not None:
            state = hand_state(hand)
            chips += sum(p.stack for p in state.players) + state.pot_total
            what += f" and in hand {hand.id} (stacks and pots)"
        yield Claim(what, chips, account=table_chips(table_id))
