"""The audit of when the tables dealt (part of ``tourney.audit``): no hand dealt while the
tournament was out of balance past one pass, none at a table that should have broken, none
before the final table's redraw.

Replayed from the logs alone: every seat taken or left is a ``sit`` or ``leave`` event in
its table's log (a break's leaves say ``break``), every hand has its start and end, and
every update pass that leaves a move, a break or the redraw to do logs ``balance_pending``.
The tables' players are replayed in time order; a table is *out* while it is outside the
threshold (``tourney.planning.balancing.outside_threshold``, the players fitting at as many
tables as they sit at), every table is out while the players fit at one table fewer (only
the one that then breaks counts) or at one table.

One pass of grace: the pass that finds a table out may run while that table's hand ends
(its end reads the tournament as it was before the pass). A pass that starts later has seen
the first one's decisions, so a table whose hand ended after two ``balance_pending`` passes
since it was out, and which dealt its next hand while still out, dealt out of balance.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime
from itertools import count

from games.models import Hand, TableEvent
from tourney.models import Tournament, TournamentEvent, TournamentTable
from tourney.planning.balancing import outside_threshold

PASSES_OF_GRACE = 1
"""Passes a table may deal through while out: the one running as its hand ended."""


@dataclass
class _Out:
    """A table's stretch out of balance (or before a break or the redraw)."""

    stretch: int
    why: str
    passes: int = 0


@dataclass
class _Deal:
    """A hand about to be dealt: where, and what the table's stretch was when its previous
    hand ended (when the table decided to deal on)."""

    table: int
    hand: int
    out: _Out | None
    passes: int


@dataclass
class _Replay:
    capacities: dict[int, int]
    threshold: int | None
    players: dict[int, int] = field(default_factory=dict)
    out: dict[int, _Out] = field(default_factory=dict)
    broken: dict[int, list[int]] = field(default_factory=dict)  # stretch -> tables broken
    stretches: Iterator[int] = field(default_factory=count)

    def seats_changed(self, table: int, change: int, why: str) -> None:
        if why == "break" and table in self.out:
            broken = self.broken.setdefault(self.out[table].stretch, [])
            if table not in broken:
                broken.append(table)
        self.players[table] = self.players.get(table, 0) + change
        out = self._outside()
        whole = {reason for reason in out.values() if reason != "balance"}  # break, redraw
        if whole:
            reason = whole.pop()
            current = next((o for o in self.out.values() if o.why == reason), None)
            stretch = current or _Out(next(self.stretches), reason)
            self.out = dict.fromkeys(out, stretch)  # one stretch, every table
            return
        self.out = {
            number: current
            if (current := self.out.get(number)) is not None and current.why == reason
            else _Out(next(self.stretches), reason)
            for number, reason in out.items()
        }

    def _outside(self) -> dict[int, str]:
        playing = {number: n for number, n in self.players.items() if n > 0}
        if len(playing) < 2:
            return {}
        total = sum(playing.values())
        capacities = {number: self.capacities[number] for number in playing}
        if total <= max(capacities.values()):
            return dict.fromkeys(playing, "final table")
        seats = sum(capacities.values())
        if any(total <= seats - capacity for capacity in capacities.values()):
            return dict.fromkeys(playing, "break")
        threshold = self.threshold or (2 if len(playing) > 6 else 1)
        return dict.fromkeys(outside_threshold(playing, capacities, threshold), "balance")

    def passed(self, why: str) -> None:
        for out in {id(out): out for out in self.out.values()}.values():
            if out.why != "balance" or why != "locked seats":  # nothing a deal waits for
                out.passes += 1


def deals_audit(tournament: Tournament, log: list[TournamentEvent]) -> list[str]:
    """The hands dealt out of balance past one pass, at a table that should have broken, or
    before the final table's redraw, one line each (none: the audit passes)."""
    tables = {
        tt.table_id: (tt.number, tt.table.seat_count)
        for tt in TournamentTable.objects.filter(tournament=tournament).select_related("table")
    }
    capacities = {number: seats for number, seats in tables.values()}
    replay = _Replay(capacities, tournament.balance_threshold)
    timeline: list[tuple[datetime, int, object]] = []
    seat_events = TableEvent.objects.filter(
        table_id__in=list(tables), kind__in=("sit", "leave")
    ).values_list("table_id", "kind", "data", "created_at")
    for table_id, kind, data, at in seat_events:
        change = 1 if kind == "sit" else -1
        timeline.append((at, 0, (tables[table_id][0], change, data.get("why", ""))))
    for event in log:
        if event.kind == "balance_pending":
            timeline.append((event.created_at, 1, event.data.get("why", "")))
    hands = Hand.objects.filter(table_id__in=list(tables)).order_by("table_id", "number")
    previous: dict[int, datetime] = {}
    for table_id, number, started, finished in hands.values_list(
        "table_id", "number", "started_at", "finished_at"
    ):
        table = tables[table_id][0]
        timeline.append((previous.get(table, started), 2, (table, number)))
        timeline.append((started, 3, (table, number)))
        if finished is not None:
            previous[table] = finished
    timeline.sort(key=lambda item: (item[0], item[1]))
    return _dealt_out(replay, timeline)


def _dealt_out(replay: _Replay, timeline: list[tuple[datetime, int, object]]) -> list[str]:
    deciding: dict[tuple[int, int], _Deal] = {}
    suspects: list[tuple[_Deal, dict[int, int], int]] = []  # and the tables broken before
    for _at, step, what in timeline:
        if step == 0:
            table, change, why = what  # type: ignore[misc]
            replay.seats_changed(table, change, why)
        elif step == 1:
            replay.passed(what)  # type: ignore[arg-type]
        elif step == 2:
            table, hand = what  # type: ignore[misc]
            out = replay.out.get(table)
            deciding[table, hand] = _Deal(table, hand, out, out.passes if out else 0)
        else:
            deal = deciding.pop(what)  # type: ignore[arg-type]
            out = replay.out.get(deal.table)
            if deal.out is not None and out is deal.out and deal.passes > PASSES_OF_GRACE:
                broken = len(replay.broken.get(out.stretch, ()))
                suspects.append((deal, dict(replay.players), broken))
    problems = []
    for deal, players, before in suspects:
        assert deal.out is not None
        if deal.out.why == "break" and replay.broken.get(deal.out.stretch, [])[before:][:1] != [
            deal.table
        ]:
            continue  # another table broke next: this one was right to deal
        seated = {number: n for number, n in sorted(players.items()) if n}
        problems.append(
            f"table {deal.table} dealt hand {deal.hand} before its {deal.out.why} "
            f"({deal.passes} passes since; players per table {seated})"
        )
    return problems
