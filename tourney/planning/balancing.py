"""Poker TDA table balancing and breaking for stud tournaments: a pure planner.

Give :func:`plan_moves` every table of the tournament (its seats, whether a hand is in
progress, whether it is already being broken) and it returns a :class:`Plan`: the moves to
make now, the moves that wait for a hand to end, the tables being broken, the tables to
close, and the tables that must not deal their next hand yet. Call it again whenever a hand
ends or players are eliminated; it keeps no state of its own, so the service persists only
the tables' ``breaking`` flags (which is what keeps a random break order stable).

The rules, in the order they are applied:

1. **Final table.** When every remaining player fits at one table and they sit at two or
   more, all of them are redrawn at random to the seats of the final table (the lowest
   numbered one that is big enough; a random one under the ``random`` break order). If any
   table is in a hand, the redraw waits and every other table waits too.
2. **Breaking.** A table is broken as soon as the remaining players fit at the other tables
   (an empty table first, then by the break order: highest number first, or random). Its
   players are shuffled (random draw) and each takes a random open seat at the table with
   the fewest players among those not in a hand (ties: lowest number), so the shortest
   tables fill first. A breaking table deals no more hands.
3. **Balancing.** While the table with the most players has more than ``threshold`` players
   over the shortest table with an open seat, one player moves from a table with the most
   players (ties by the configured order, tables not in a hand first) to the lowest-numbered
   open seat of the shortest table (ties: lowest number, tables not in a hand first).
   Threshold: 2 above six tables, 1 at six or fewer, unless configured.

**Who moves (stud, TDA 11-A "players move by position").** Stud has no button, so position
is the seat: the player in the same seat number as the open seat moves; if that seat is
empty (or its player already moves in this plan), the next occupied seat clockwise (seat
numbers going up, then wrapping). So a move is seat-for-seat whenever possible, and the
choice depends only on the seating, never on the cards.

**Locked seats** (a player who needs that seat, TDA 8 "special needs"): balancing never
moves the player in a locked seat (the next player clockwise moves instead); a table with a
locked seat is broken only when every table that could be broken has one; at the final-table
redraw a locked player already at the final table keeps their seat. Breaking their table is
the one thing that moves them.

**Hands in progress.** No player moves from or to a table whose hand is in progress. Such a
move is reported as a :class:`DeferredMove` (it is recomputed when the hand ends). While a
balancing move waits, every table outside the threshold (those with more than ``threshold``
players over the shortest table with an open seat, and those with an open seat more than
``threshold`` short of the largest) must not deal its next hand: balance before the next
deal, so no table plays on out of balance while the move waits for another table's hand.
A table outside the threshold for a reason no hand's end fixes (every player who could move
is in a locked seat) deals on: it is reported in ``Plan.unbalanced`` for the log.

**Applying a plan.** The moves are one batch: lift every moving player from their seat,
then seat each one at their destination (a seat vacated in this batch may be refilled in the
same batch, and the final-table redraw is a permutation). A player appears at most once.
"""

from __future__ import annotations

import heapq
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal, Protocol

PlayerId = Hashable
BreakOrder = Literal["highest_first", "random"]
GiverOrder = Literal["highest_first", "lowest_first"]
MoveReason = Literal["break", "balance", "final_table"]

MIN_SEATS: Final = 2
MAX_SEATS: Final = 8


class Shuffler(Protocol):
    """Anything that shuffles a list in place: ``random.Random`` or ``SeededShuffler``."""

    def shuffle(self, x: list[Any], /) -> None: ...


@dataclass(frozen=True)
class TableState:
    """A table as the planner sees it. ``seats`` maps seat numbers (1..capacity, clockwise)
    to the seated players; it is read, never changed."""

    number: int
    capacity: int
    seats: Mapping[int, PlayerId]
    in_hand: bool = False
    breaking: bool = False
    # occupied seats whose players balancing must not move
    locked: frozenset[int] = frozenset()

    def __post_init__(self) -> None:
        if not MIN_SEATS <= self.capacity <= MAX_SEATS:
            raise ValueError(
                f"table {self.number}: {self.capacity} seats, expected {MIN_SEATS}..{MAX_SEATS}"
            )
        if self.seats and (min(self.seats) < 1 or max(self.seats) > self.capacity):
            raise ValueError(f"table {self.number}: a seat number is outside 1..{self.capacity}")
        if not self.locked <= set(self.seats):
            raise ValueError(f"table {self.number}: a locked seat is empty")


@dataclass(frozen=True)
class BalanceConfig:
    """How to break and balance; the defaults follow the Poker TDA."""

    break_order: BreakOrder = "highest_first"
    # Largest allowed difference in players between tables; None: 2 above six tables, else 1.
    threshold: int | None = None
    # Which of several tables tied for the most players gives a player first.
    giver_order: GiverOrder = "highest_first"

    def __post_init__(self) -> None:
        if self.break_order not in ("highest_first", "random"):
            raise ValueError(f"unknown break order {self.break_order!r}")
        if self.giver_order not in ("highest_first", "lowest_first"):
            raise ValueError(f"unknown giver order {self.giver_order!r}")
        if self.threshold is not None and self.threshold < 1:
            raise ValueError(f"the balance threshold must be at least 1, not {self.threshold}")

    def threshold_for(self, table_count: int) -> int:
        """The balance threshold with ``table_count`` tables in play."""
        if self.threshold is not None:
            return self.threshold
        return 2 if table_count > 6 else 1


@dataclass(frozen=True)
class Move:
    """One instruction: ``player`` goes from one seat to another."""

    player: PlayerId
    from_table: int
    from_seat: int
    to_table: int
    to_seat: int
    reason: MoveReason

    def __str__(self) -> str:
        return (
            f"table {self.from_table} seat {self.from_seat} -> "
            f"table {self.to_table} seat {self.to_seat}"
        )


@dataclass(frozen=True)
class DeferredMove:
    """A move that must wait for the hands at ``blocked_by`` to end.

    Who moves and to which seat is decided when it can be made (the table may have lost
    players by then); ``to_table`` is None when no table not in a hand has an open seat.
    """

    reason: MoveReason
    from_table: int
    to_table: int | None
    blocked_by: tuple[int, ...]


@dataclass(frozen=True)
class Plan:
    """What to do now, and what waits."""

    moves: tuple[Move, ...]
    deferred: tuple[DeferredMove, ...]
    # Tables being broken (persist their flag; they deal no more hands).
    breaking: tuple[int, ...]
    # Tables left empty by these moves: close them.
    closed: tuple[int, ...]
    # Tables that must not start a new hand until the planner says otherwise.
    waiting: tuple[int, ...]
    # The final table, once all players fit at one table.
    final_table: int | None = None
    # Tables outside the balance threshold once the moves made now are applied (see
    # ``outside_threshold``): they wait while a balancing move waits for a hand.
    unbalanced: tuple[int, ...] = ()


def plan_moves(
    tables: Sequence[TableState], rng: Shuffler, config: BalanceConfig | None = None
) -> Plan:
    """The breaks, balancing moves and waits for the tables as they are now.

    ``rng`` draws seats (and the table to break under the random order); the same tables and
    RNG state give the same plan. See the module docstring for the rules.
    """
    config = config or BalanceConfig()
    ordered = sorted(tables, key=lambda table: table.number)
    _check_tables(ordered)
    total = sum(len(table.seats) for table in ordered)
    occupied = sum(1 for table in ordered if table.seats)
    if occupied > 1:
        final = _final_table(ordered, total, config, rng)
        if final is not None:
            return _redraw_final_table(ordered, final, rng)
    return _Planner(ordered, config, rng).plan(total)


def hand_for_hand_needed(players_left: int, places_paid: int, *, extra_players: int = 0) -> bool:
    """True on the money bubble: one more elimination puts everyone left in the money.

    ``extra_players`` starts hand-for-hand that many players earlier (some rooms begin a few
    players before the bubble).

    >>> hand_for_hand_needed(16, 15), hand_for_hand_needed(15, 15), hand_for_hand_needed(17, 15)
    (True, False, False)
    """
    if extra_players < 0:
        raise ValueError("extra_players cannot be negative")
    return places_paid < players_left <= places_paid + 1 + extra_players


def outside_threshold(
    counts: Mapping[int, int], capacities: Mapping[int, int], threshold: int
) -> tuple[int, ...]:
    """The tables (by number) outside the balance threshold: none while the largest table has
    at most ``threshold`` players over the shortest with an open seat; else those with more
    than ``threshold`` over that shortest (they give) and those with an open seat more than
    ``threshold`` short of the largest (they receive).

    >>> outside_threshold({1: 6, 2: 6, 3: 4}, {1: 8, 2: 8, 3: 8}, 1)
    (1, 2, 3)
    >>> outside_threshold({1: 8, 2: 7, 3: 5}, {1: 8, 2: 8, 3: 8}, 2)
    (1, 3)
    >>> outside_threshold({1: 8, 2: 7, 3: 6}, {1: 8, 2: 8, 3: 8}, 2)
    ()
    """
    open_counts = [n for table, n in counts.items() if n < capacities[table]]
    if not open_counts:
        return ()
    most, fewest = max(counts.values()), min(open_counts)
    if most - fewest <= threshold:
        return ()
    return tuple(
        sorted(
            table
            for table, n in counts.items()
            if n > fewest + threshold or (n < capacities[table] and n < most - threshold)
        )
    )


def seat_for_newcomer(tables: Sequence[TableState], rng: Shuffler) -> tuple[int, int] | None:
    """(table, seat) for a late registrant or re-entry: a random open seat at the table with
    the fewest players (ties: lowest number), skipping breaking tables; None when all are full.
    """
    candidates = [t for t in tables if not t.breaking and len(t.seats) < t.capacity]
    if not candidates:
        return None
    table = min(candidates, key=lambda t: (len(t.seats), t.number))
    open_seats = [seat for seat in range(1, table.capacity + 1) if seat not in table.seats]
    rng.shuffle(open_seats)
    return table.number, open_seats[0]


def _check_tables(tables: Sequence[TableState]) -> None:
    numbers = {table.number for table in tables}
    if len(numbers) != len(tables):
        raise ValueError("two tables share a number")
    players: set[PlayerId] = set()
    seated = 0
    for table in tables:
        players.update(table.seats.values())
        seated += len(table.seats)
    if len(players) != seated:
        raise ValueError("a player is seated at two seats")


def _final_table(
    tables: Sequence[TableState], total: int, config: BalanceConfig, rng: Shuffler
) -> TableState | None:
    """The table everyone left fits at, or None while they need two tables or more."""
    big_enough = [table for table in tables if table.capacity >= total]
    candidates = [table for table in big_enough if not table.breaking] or big_enough
    if not candidates:
        return None
    if config.break_order == "random":
        candidates = list(candidates)
        rng.shuffle(candidates)
    return candidates[0]


def _redraw_final_table(tables: Sequence[TableState], final: TableState, rng: Shuffler) -> Plan:
    """Everyone to a random seat at the final table (or everything waits for the hands)."""
    others = tuple(table.number for table in tables if table is not final)
    in_hand = tuple(table.number for table in tables if table.in_hand)
    if in_hand:
        deferred = tuple(
            DeferredMove("final_table", table.number, final.number, in_hand)
            for table in tables
            if table.seats
        )
        waiting = tuple(table.number for table in tables)
        return Plan((), deferred, others, (), waiting, final.number)
    seats = [seat for seat in range(1, final.capacity + 1) if seat not in final.locked]
    rng.shuffle(seats)
    players = [
        (table.number, seat, player)
        for table in tables
        for seat, player in sorted(table.seats.items())
        if table is not final or seat not in final.locked
    ]
    moves = tuple(
        Move(player, number, seat, final.number, new_seat, "final_table")
        for (number, seat, player), new_seat in zip(players, seats, strict=False)
        if (number, seat) != (final.number, new_seat)
    )
    return Plan(moves, (), others, others, (), final.number)


class _Planner:
    """One planning pass: the seating as it will be after the moves chosen so far."""

    def __init__(self, tables: Sequence[TableState], config: BalanceConfig, rng: Shuffler):
        self.tables = tables
        self.config = config
        self.rng = rng
        self.by_number = {table.number: table for table in tables}
        # Players per table once every move so far, deferred ones included, is made.
        self.counts = {table.number: len(table.seats) for table in tables}
        # Players per table once the moves made now are applied (deferred ones are not).
        self.counts_now = dict(self.counts)
        self.changed_seats: dict[int, dict[int, PlayerId]] = {}
        self.moving: set[PlayerId] = set()
        self.moves: list[Move] = []
        self.deferred: list[DeferredMove] = []

    def plan(self, total: int) -> Plan:
        active, breaking = self._choose_breaks(total)
        self._place_broken_tables(breaking, active)
        self._balance(active)
        closed = tuple(number for number in breaking if self.counts_now[number] == 0)
        unbalanced = self._unbalanced(active)
        balance_waits = any(deferred.reason == "balance" for deferred in self.deferred)
        return Plan(
            tuple(self.moves),
            tuple(self.deferred),
            tuple(breaking),
            closed,
            tuple(sorted({*breaking, *(unbalanced if balance_waits else ())})),
            None,
            unbalanced,
        )

    def _choose_breaks(self, total: int) -> tuple[list[TableState], list[int]]:
        active = [table for table in self.tables if not table.breaking]
        breaking = [table.number for table in self.tables if table.breaking]
        capacity = sum(table.capacity for table in active)
        while len(active) > 1:
            eligible = [table for table in active if total <= capacity - table.capacity]
            if not eligible:
                break
            chosen = next((table for table in eligible if not table.seats), None)
            if chosen is None:
                chosen = self._next_to_break(eligible)
            active.remove(chosen)
            capacity -= chosen.capacity
            breaking.append(chosen.number)
        return active, sorted(breaking)

    def _next_to_break(self, eligible: list[TableState]) -> TableState:
        eligible = [table for table in eligible if not table.locked] or eligible
        if self.config.break_order == "random":
            self.rng.shuffle(eligible)
            return eligible[0]
        return eligible[-1]  # tables are sorted by number

    def _place_broken_tables(self, breaking: list[int], active: list[TableState]) -> None:
        shortest: list[tuple[int, int]] | None = None
        for number in breaking:
            table = self.by_number[number]
            if not table.seats:
                continue
            if table.in_hand:
                self.deferred.extend(
                    DeferredMove("break", number, None, (number,)) for _ in table.seats
                )
                continue
            if shortest is None:
                shortest = [
                    (self.counts[t.number], t.number)
                    for t in active
                    if not t.in_hand and self.counts[t.number] < t.capacity
                ]
                heapq.heapify(shortest)
            players = sorted(table.seats.items())
            self.rng.shuffle(players)
            for seat, player in players:
                destination = self._pop_shortest(shortest)
                if destination is None:
                    blocked = tuple(
                        t.number for t in active if t.in_hand and self.counts[t.number] < t.capacity
                    )
                    self.deferred.append(DeferredMove("break", number, None, blocked))
                    continue
                open_seats = self._open_seats(destination)
                self.rng.shuffle(open_seats)
                self._move(player, number, seat, destination.number, open_seats[0], "break")
                if self.counts[destination.number] < destination.capacity:
                    heapq.heappush(shortest, (self.counts[destination.number], destination.number))

    def _pop_shortest(self, heap: list[tuple[int, int]]) -> TableState | None:
        while heap:
            count, number = heapq.heappop(heap)
            if count == self.counts[number]:
                return self.by_number[number]
        return None

    def _balance(self, active: list[TableState]) -> None:
        if len(active) < 2:
            return
        threshold = self.config.threshold_for(len(active))
        counts = self.counts
        giver_order = active if self.config.giver_order == "lowest_first" else active[::-1]
        while True:
            most = max(counts[table.number] for table in active)
            open_tables = [table for table in active if counts[table.number] < table.capacity]
            if not open_tables:
                return
            fewest = min(counts[table.number] for table in open_tables)
            if most - fewest <= threshold:
                return
            givers = [table for table in giver_order if counts[table.number] == most]
            receivers = [table for table in open_tables if counts[table.number] == fewest]
            if not self._balance_one(givers, receivers):
                return

    def _balance_one(self, givers: list[TableState], receivers: list[TableState]) -> bool:
        free_givers = [table for table in givers if not table.in_hand]
        free_receivers = [table for table in receivers if not table.in_hand]
        if free_receivers:
            receiver = free_receivers[0]
            to_seat = self._open_seats(receiver)[0]
            for giver in free_givers:
                mover = self._mover_by_position(giver, to_seat)
                if mover is not None:
                    seat, player = mover
                    self._move(player, giver.number, seat, receiver.number, to_seat, "balance")
                    return True
        giver = (free_givers or givers)[0]
        receiver = (free_receivers or receivers)[0]
        blocked = tuple(table.number for table in (giver, receiver) if table.in_hand)
        if not blocked:
            return False  # every player at the free givers already moves in this plan
        self.deferred.append(DeferredMove("balance", giver.number, receiver.number, blocked))
        self.counts[giver.number] -= 1
        self.counts[receiver.number] += 1
        return True

    def _mover_by_position(self, giver: TableState, seat: int) -> tuple[int, PlayerId] | None:
        """The player in ``seat`` at the giving table, else the next one clockwise."""
        seats = self._seats(giver)
        order = [*range(seat, giver.capacity + 1), *range(1, seat)]
        for candidate in order:
            player = seats.get(candidate)
            if candidate in giver.locked:
                continue
            if player is not None and player not in self.moving:
                return candidate, player
        return None

    def _unbalanced(self, active: list[TableState]) -> tuple[int, ...]:
        if len(active) < 2:
            return ()
        return outside_threshold(
            {table.number: self.counts_now[table.number] for table in active},
            {table.number: table.capacity for table in active},
            self.config.threshold_for(len(active)),
        )

    def _seats(self, table: TableState) -> Mapping[int, PlayerId]:
        return self.changed_seats.get(table.number, table.seats)

    def _open_seats(self, table: TableState) -> list[int]:
        seats = self._seats(table)
        return [seat for seat in range(1, table.capacity + 1) if seat not in seats]

    def _move(
        self,
        player: PlayerId,
        from_table: int,
        from_seat: int,
        to_table: int,
        to_seat: int,
        reason: MoveReason,
    ) -> None:
        for number in (from_table, to_table):
            if number not in self.changed_seats:
                self.changed_seats[number] = dict(self.by_number[number].seats)
        del self.changed_seats[from_table][from_seat]
        self.changed_seats[to_table][to_seat] = player
        for counts in (self.counts, self.counts_now):
            counts[from_table] -= 1
            counts[to_table] += 1
        self.moving.add(player)
        self.moves.append(Move(player, from_table, from_seat, to_table, to_seat, reason))
