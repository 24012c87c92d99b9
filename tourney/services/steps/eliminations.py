"""Eliminations: who busted, their chips at the start of the bust hand, their bust group.

Places come from the bust groups (``tourney.services.steps.results``): a group that busted
later (``Entry.bust_at``: its hand's end) finishes above an earlier one, whatever the order
the update passes saw them in. A group is one hand at one table, or one whole hand-for-hand round
(one hand at each table). At one table the bigger starting stack finishes above and equal
stacks share; players of one round busted at different tables share (TDA,
``tourney.planning.payouts.places_of_eliminated``). Bust hands are taken in the order they
ended, the moment of the bust, whatever the order they started in.

Once the field is final a group is placed as it busts (and paid, once the prize pool is
final), provisionally (``places``) until its place can no longer change (``places_final``);
before that its places wait for the field to become final (``tourney.services.update``).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from itertools import islice
from typing import Any

from django.db.models import Max, OuterRef, Subquery
from django.utils import timezone

from games import rows
from games.models import Hand, HandStatus, Table
from tourney.models import Entry, EntryStatus, Tournament
from tourney.services.steps.knockouts import knockouts_credit
from tourney.services.steps.locks import LockedTable
from tourney.services.steps.log import events_append
from tourney.services.steps.seating import OccupiedSeat, SeatRow, SeatsByTable, seats_lift

Bust = tuple[LockedTable, OccupiedSeat, int, Hand | None]
"""A bust: the table, the seat, the player's chips at the start of the bust hand, the hand."""

BUST_FIELDS = (
    "status",
    "bust_group",
    "bust_stack",
    "bust_shared",
    "bust_hand",
    "bust_table",
    "bust_at",
)


def next_bust_group(tournament: Tournament) -> int:
    """Open a new bust group and return its number."""
    tournament.bust_groups += 1
    return tournament.bust_groups


def eliminate(tournament: Tournament, busts: list[Bust], *, shared: bool = False) -> None:
    """Eliminate the players of ``busts`` as one group, and free their seats (see
    ``Eliminations``)."""
    eliminations = Eliminations(tournament)
    eliminations.add(busts, shared=shared)
    eliminations.write()


@dataclass(frozen=True)
class _Group:
    number: int
    shared: bool
    busts: list[Bust]


class Eliminations:
    """The eliminations of one update pass, group by group in the order they happened,
    written together by ``write()``: the busted entries read and written in one statement
    each, every table's seats lifted in one write, the knockouts credited at once, and the
    log's events (each group's ``eliminated``) appended in one insert. Their places are
    given afterwards (``tourney.services.steps.results.places_provisional``).

    Whoever reads the entries, the seats or the logs in the same transaction must come after
    ``write()``."""

    def __init__(self, tournament: Tournament) -> None:
        self.tournament = tournament
        self._groups: list[_Group] = []

    def add(self, busts: list[Bust], *, shared: bool = False) -> None:
        """Eliminate the players of ``busts`` as one group. In hand-for-hand they join the
        round's group: they share with the players busted at the round's other tables."""
        if not busts:
            return
        tournament = self.tournament
        if tournament.hand_for_hand:
            self._groups.append(_Group(tournament.hand_for_hand_group, True, busts))
        else:
            self._groups.append(_Group(next_bust_group(tournament), shared, busts))

    def write(self) -> None:
        groups, self._groups = self._groups, []
        if not groups:
            return
        tournament = self.tournament
        busts = [bust for group in groups for bust in group.busts]
        entries = {
            entry.player_id: entry
            for entry in Entry.objects.filter(
                tournament=tournament,
                status=EntryStatus.PLAYING,
                player_id__in=[seat.player_id for _, seat, _, _ in busts],
            )
        }
        now = timezone.now()
        lines = [
            _bust_out(entries[bust[1].player_id], group, bust, now)
            for group in groups
            for bust in group.busts
        ]
        with rows.pipelined():  # every table's lifts in one round trip
            for locked, seats in _by_table(busts).values():
                seats_lift(locked, seats, why="eliminated")
        busted = [entries[seat.player_id] for _, seat, _, _ in busts]
        knockouts_credit(tournament, busts, busted, lines)
        rows.update_each(busted, [*BUST_FIELDS, "bounty_won"])
        events_append(tournament, list(_logged(groups, lines)))


def _logged(groups: list[_Group], lines: list[dict[str, Any]]) -> Iterator[tuple[str, Any]]:
    """Each group's ``eliminated`` event."""
    busts = iter(lines)
    for group in groups:
        yield (
            "eliminated",
            {
                "group": group.number,
                "shared": group.shared,
                "busts": list(islice(busts, len(group.busts))),
            },
        )


def _bust_out(entry: Entry, group: _Group, bust: Bust, now: datetime) -> dict[str, Any]:
    """Mark ``entry`` out in ``group``, at its hand's end (``now`` for a bust with no hand:
    reported or ruled); returns its line of the ``eliminated`` event."""
    locked, seat, start_stack, hand = bust
    entry.status = EntryStatus.ELIMINATED
    entry.bust_group = group.number
    entry.bust_stack = start_stack
    entry.bust_shared = group.shared
    entry.bust_hand = hand
    entry.bust_table = locked.tt.number
    entry.bust_at = hand.finished_at if hand is not None and hand.finished_at else now
    return {
        "entry": entry.id,
        "player": entry.player_id,
        "table": locked.tt.number,
        "seat": seat.number,
        "start_stack": start_stack,
        "ended_at": entry.bust_at.isoformat(),
    }


def _by_table(busts: list[Bust]) -> dict[int, tuple[LockedTable, list[OccupiedSeat]]]:
    tables: dict[int, tuple[LockedTable, list[OccupiedSeat]]] = {}
    for locked, seat, _, _ in busts:
        tables.setdefault(locked.table.id, (locked, []))[1].append(seat)
    return tables


@dataclass(frozen=True)
class BustHand:
    """A finished hand that left players at its table with no chips."""

    locked: LockedTable
    busted: list[SeatRow]
    hand: Hand | None

    def busts(self) -> list[Bust]:
        """The busts to ``eliminate``, with each player's chips at the start of the hand."""
        start = _start_stacks(self.hand)
        return [(self.locked, seat, start.get(seat.number, 0), self.hand) for seat in self.busted]


def bust_hands(tables: list[LockedTable], seats: SeatsByTable) -> list[BustHand]:
    """The hands since the last update that left players with no chips, in the order they
    ended (the moment of the bust), one per table."""
    busts = {
        locked.table.id: (locked, busted)
        for locked in tables
        if not locked.busy
        and (busted := [seat for seat in seats[locked.table.id].values() if seat.stack == 0])
    }
    last = _last_finished_hands(list(busts))
    found = [BustHand(locked, busted, last.get(table)) for table, (locked, busted) in busts.items()]
    found.sort(key=_ended)
    return found


def busts_known_until(tables: list[LockedTable], now: datetime) -> datetime:
    """The moment before which every bust at these tables was seen (``bust_hands``) by this
    pass: ``now`` at a table it locked; at a ``busy`` one (read without its lock: another
    transaction may be ending a hand there, whose bust this pass did not see) the end of its
    last hand committed, or the start of the one in progress, as any hand still to be seen
    there ends later; at one with no hand yet, nothing."""
    busy = [locked.table.id for locked in tables if locked.busy]
    if not busy:
        return now
    latest = Hand.objects.filter(table_id=OuterRef("pk")).order_by("-number")
    moments = Table.objects.filter(pk__in=busy).annotate(
        started=Subquery(latest.values("started_at")[:1]),
        finished=Subquery(latest.values("finished_at")[:1]),
    )
    read = moments.values_list("started", "finished")
    bounds = [finished or started or _NEVER for started, finished in read]
    return min([now, *bounds])


def _last_finished_hands(table_ids: list[int]) -> dict[int, Hand]:
    """The last finished hand of each of these tables (a table's hands are numbered, and
    their ids given, in the order they were dealt), by table id; read without their
    snapshots, which only the busts eliminated in this pass need (``knockouts_credit``)."""
    if not table_ids:
        return {}
    finished = Hand.objects.filter(table_id__in=table_ids, status=HandStatus.FINISHED)
    last = finished.values("table_id").annotate(last=Max("id")).values_list("last", flat=True)
    hands = Hand.objects.filter(pk__in=list(last)).defer("snapshot")
    return {hand.table_id: hand for hand in hands}


_NEVER = datetime.min.replace(tzinfo=UTC)


def _ended(bust: BustHand) -> tuple[datetime, int]:
    hand = bust.hand
    if hand is None or hand.finished_at is None:
        return (_NEVER, 0)
    return (hand.finished_at, hand.pk)


def _start_stacks(hand: Hand | None) -> dict[int, int]:
    """Each seat's chips at the start of ``hand``."""
    if hand is None:
        return {}
    return {
        player["seat"]: stack
        for player, stack in zip(hand.lineup, hand.header["stacks"], strict=True)
    }
