"""Season standings: pure functions of the events' results (no Django).

A player's line: their points are the sum of their best ``best_of`` event totals (all of
them when ``best_of`` is None), where an event total is the formula's points plus the
season's participation and knockout points, rounded as the season says. Events played and
counted, wins, cashes (a prize won), final tables (a place within the final table size),
knockouts, best finish and net winnings (prizes and bounties won less everything spent)
sit beside them.

Ranking: more points first; then the season's tie-breaks in their order (each from
:data:`TIE_BREAKS`); players still equal share a rank (1, 2, 2, 4) and are listed by player
id. Movement compares each rank with the standings before the latest event (by date, then
by the order events were entered).

``line_add`` folds one result into a line (the incremental path the service takes when an
event is entered); ``lines_from_results`` computes every line from scratch (a recompute).
Both must agree: tests check it with Hypothesis.
"""

from __future__ import annotations

import bisect
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal

TIE_BREAKS = {
    "wins": "more wins",
    "best_finish": "a better best finish",
    "final_tables": "more final tables",
    "cashes": "more cashes",
    "knockouts": "more knockouts",
    "net_winnings": "more net winnings",
    "events_played": "more events played",
    "fewest_events": "fewer events played",
}
DEFAULT_TIE_BREAKS = ("wins", "best_finish", "final_tables", "knockouts")


@dataclass(frozen=True)
class Result:
    """One player's result in one event (``total``: the points the event gave them)."""

    event: int
    player: int
    place: int
    total: Decimal
    knockouts: Decimal = Decimal(0)
    prize: int = 0
    bounties: int = 0
    spent: int = 0
    final_table: bool = False


@dataclass(frozen=True)
class Line:
    """A player's line in the standings. ``totals``: every event total, best first."""

    player: int
    points: Decimal = Decimal(0)
    events_played: int = 0
    events_counted: int = 0
    wins: int = 0
    cashes: int = 0
    final_tables: int = 0
    knockouts: Decimal = Decimal(0)
    best_finish: int | None = None
    net_winnings: int = 0
    totals: tuple[Decimal, ...] = field(default=(), compare=True)


@dataclass(frozen=True)
class Standing:
    rank: int
    previous_rank: int | None
    line: Line


def line_add(line: Line, result: Result, best_of: int | None) -> Line:
    """``line`` with ``result`` folded in (the incremental step)."""
    descending = [-t for t in line.totals]
    bisect.insort(descending, -result.total)
    totals = tuple(-t for t in descending)
    # with best N, the new total may push another one out of the count
    points = line.points + result.total if best_of is None else sum(totals[:best_of], Decimal(0))
    return replace(
        line,
        totals=totals,
        points=points,
        events_played=line.events_played + 1,
        events_counted=min(len(totals), best_of) if best_of is not None else len(totals),
        wins=line.wins + (result.place == 1),
        cashes=line.cashes + (result.prize > 0),
        final_tables=line.final_tables + result.final_table,
        knockouts=line.knockouts + result.knockouts,
        best_finish=result.place
        if line.best_finish is None
        else min(line.best_finish, result.place),
        net_winnings=line.net_winnings + result.prize + result.bounties - result.spent,
    )


def lines_from_results(results: Iterable[Result], best_of: int | None) -> dict[int, Line]:
    """Every player's line, computed from all their results at once (a recompute)."""
    by_player: dict[int, list[Result]] = defaultdict(list)
    for result in results:
        by_player[result.player].append(result)
    lines = {}
    for player, own in by_player.items():
        totals = tuple(sorted((r.total for r in own), reverse=True))
        counted = totals if best_of is None else totals[:best_of]
        lines[player] = Line(
            player=player,
            points=sum(counted, Decimal(0)),
            events_played=len(own),
            events_counted=len(counted),
            wins=sum(1 for r in own if r.place == 1),
            cashes=sum(1 for r in own if r.prize > 0),
            final_tables=sum(1 for r in own if r.final_table),
            knockouts=sum((r.knockouts for r in own), Decimal(0)),
            best_finish=min(r.place for r in own),
            net_winnings=sum(r.prize + r.bounties - r.spent for r in own),
            totals=totals,
        )
    return lines


def _tie_key(line: Line, tie_breaks: Sequence[str]) -> tuple[object, ...]:
    """A sort key, smaller first: points, then each tie-break."""
    key: list[object] = [-line.points]
    for name in tie_breaks:
        if name == "best_finish":
            key.append(line.best_finish if line.best_finish is not None else 10**9)
        elif name == "fewest_events":
            key.append(line.events_played)
        else:
            key.append(-getattr(line, name))
    return tuple(key)


def ranks(lines: Iterable[Line], tie_breaks: Sequence[str]) -> list[tuple[int, Line]]:
    """Lines in standings order with their ranks (equal keys share a rank: 1, 2, 2, 4)."""
    ordered = sorted(lines, key=lambda line: (_tie_key(line, tie_breaks), line.player))
    ranked: list[tuple[int, Line]] = []
    for index, line in enumerate(ordered):
        if index and _tie_key(line, tie_breaks) == _tie_key(ordered[index - 1], tie_breaks):
            ranked.append((ranked[-1][0], line))
        else:
            ranked.append((index + 1, line))
    return ranked


def standings(
    results: Sequence[Result],
    event_order: Sequence[int],
    best_of: int | None,
    tie_breaks: Sequence[str],
) -> list[Standing]:
    """The standings from scratch, each rank with the one before the latest event of
    ``event_order`` (the events oldest first)."""
    current = ranks(lines_from_results(results, best_of).values(), tie_breaks)
    previous: dict[int, int] = {}
    if len(event_order) > 1:
        latest = event_order[-1]
        before = lines_from_results((r for r in results if r.event != latest), best_of)
        previous = {line.player: rank for rank, line in ranks(before.values(), tie_breaks)}
    return [Standing(rank, previous.get(line.player), line) for rank, line in current]
