"""Eliminations: who busted, their chips at the start of the bust hand, their bust group.

Places come from the bust groups (``tourney.services.steps.results``): a later group finishes
above an earlier one. A group is one hand at one table, or one whole hand-for-hand round
(one hand at each table). At one table the bigger starting stack finishes above and equal
stacks share; players of one round busted at different tables share (TDA,
``tourney.planning.payouts.places_of_eliminated``). Bust hands are taken in the order they
ended, the moment of the bust, whatever the order they started in.

Once the field is final a group is placed as it busts (and paid, once the prize pool is
final); before that its places are provisional, given when the field becomes final
(``tourney.services.update``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from games.models import Hand, HandStatus, Seat
from tourney.models import Entry, EntryStatus, Tournament
from tourney.services.steps.knockouts import knockouts_credit
from tourney.services.steps.locks import LockedTable
from tourney.services.steps.log import event_append
from tourney.services.steps.results import Standing, group_place, standing
from tourney.services.steps.seating import seats_lift

BUST_FIELDS = ("status", "bust_group", "bust_stack", "bust_shared", "bust_hand", "bust_table")


def next_bust_group(tournament: Tournament) -> int:
    """Open a new bust group and return its number."""
    tournament.bust_groups += 1
    return tournament.bust_groups


def eliminate(
    tournament: Tournament,
    busts: list[tuple[LockedTable, Seat, int, Hand | None]],
    *,
    shared: bool = False,
    now: Standing | None = None,
) -> None:
    """Eliminate the players of ``busts`` (table, seat, chips at the start of the bust hand,
    the hand) as one group, and free their seats. In hand-for-hand they join the round's
    group: they share with the players busted at the round's other tables. ``now``: how
    groups are placed (the caller's, if it eliminates several groups)."""
    if not busts:
        return
    shared = shared or tournament.hand_for_hand
    group = (
        tournament.hand_for_hand_group if tournament.hand_for_hand else next_bust_group(tournament)
    )
    entries = {
        entry.player_id: entry
        for entry in Entry.objects.filter(
            tournament=tournament,
            status=EntryStatus.PLAYING,
            player_id__in=[seat.player_id for _, seat, _, _ in busts],
        )
    }
    logged = []
    by_table: dict[int, tuple[LockedTable, list[Seat]]] = {}
    for locked, seat, start_stack, hand in busts:
        entry = entries[seat.player_id]
        entry.status = EntryStatus.ELIMINATED
        entry.bust_group = group
        entry.bust_stack = start_stack
        entry.bust_shared = shared
        entry.bust_hand = hand
        entry.bust_table = locked.tt.number
        by_table.setdefault(locked.table.id, (locked, []))[1].append(seat)
        logged.append(
            {
                "entry": entry.id,
                "player": entry.player_id,
                "table": locked.tt.number,
                "seat": seat.number,
                "start_stack": start_stack,
            }
        )
    for locked, seats in by_table.values():
        seats_lift(locked, seats, why="eliminated")
    busted = [entries[seat.player_id] for _, seat, _, _ in busts]
    knockouts_credit(tournament, busts, busted, logged)
    Entry.objects.bulk_update(busted, [*BUST_FIELDS, "bounty_won"])
    event_append(tournament, "eliminated", {"group": group, "shared": shared, "busts": logged})
    now = now or standing(tournament)
    if now.placed:
        group_place(tournament, group=group, now=now)


@dataclass(frozen=True)
class BustHand:
    """A finished hand that left players at its table with no chips."""

    locked: LockedTable
    busted: list[Seat]
    hand: Hand | None

    def busts(self) -> list[tuple[LockedTable, Seat, int, Hand | None]]:
        """The busts to ``eliminate``, with each player's chips at the start of the hand."""
        start = _start_stacks(self.hand)
        return [(self.locked, seat, start.get(seat.number, 0), self.hand) for seat in self.busted]


def bust_hands(tables: list[LockedTable], seats: dict[int, dict[int, Seat]]) -> list[BustHand]:
    """The hands since the last update that left players with no chips, in the order they
    ended (the moment of the bust), one per table."""
    found = []
    for locked in tables:
        busted = [seat for seat in seats[locked.table.id].values() if seat.stack == 0]
        if not busted or locked.busy:
            continue
        hand = (
            Hand.objects.filter(table=locked.table, status=HandStatus.FINISHED)
            .order_by("-number")
            .first()
        )
        found.append(BustHand(locked, busted, hand))
    found.sort(key=_ended)
    return found


def _ended(bust: BustHand) -> tuple[datetime, int]:
    hand = bust.hand
    if hand is None or hand.finished_at is None:
        return (datetime.min.replace(tzinfo=UTC), 0)
    return (hand.finished_at, hand.pk)


def _start_stacks(hand: Hand | None) -> dict[int, int]:
    """Each seat's chips at the start of ``hand``."""
    if hand is None:
        return {}
    return {
        player["seat"]: stack
        for player, stack in zip(hand.lineup, hand.header["stacks"], strict=True)
    }
