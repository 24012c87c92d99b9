"""What the clock screen shows: the tournament's state (``tourney.selectors``), the next
schedule entry, the payouts, and the clock's deadline for the browser to count down from."""

from __future__ import annotations

from functools import reduce
from math import gcd
from typing import Any

from games.models import Seat, TableStatus
from tourney import director_selectors, selectors
from tourney.models import Mode, Status, Tournament, TournamentEvent
from web.games import game_name


def _next_level(level: dict[str, Any] | None) -> dict[str, Any] | None:
    if level is None:
        return None
    return {**level, "game": game_name(level["game"])}


def _colour_up(tournament: Tournament, upcoming: list[dict[str, Any]]) -> dict[str, Any]:
    """The colour-up to announce: the smallest chip now in play (after a colour-up), and the
    chip the levels still to come no longer need (a colour-up the director may run at the
    next break)."""
    unit = tournament.unit_in_play
    amounts = [
        amount
        for level in upcoming
        for amount in (level["ante"], level["bring_in"], level["small_bet"], level["big_bet"])
        if amount
    ]
    needed = reduce(gcd, amounts, 0)
    coming = needed if needed > unit and needed % unit == 0 else None
    return {"done": unit if tournament.smallest_chip else None, "coming": coming}


def _upcoming_levels(tournament: Tournament) -> list[dict[str, Any]]:
    entries = selectors.schedule_entries(tournament.schedule_id)[tournament.level_index + 1 :]
    return [
        {"ante": e.ante, "bring_in": e.bring_in, "small_bet": e.small_bet, "big_bet": e.big_bet}
        for e in entries
        if not e.is_break
    ]


def clock_board(tournament: Tournament) -> dict[str, Any]:
    """Everything the clock screen shows about ``tournament``.

    The state is the director's read-back (``tourney.director_selectors.tournament_detail``:
    during an unscheduled break the clock shows the break). ``deadline_ms`` is the end of
    the level or break in play (epoch milliseconds) while the clock runs; when it is paused,
    ``paused_ms`` is the time left it keeps. The browser counts down from them.
    """
    state = director_selectors.tournament_detail(tournament)
    seats = [seat for table in state["tables"] for seat in table["seats"]]
    leader = max(seats, key=lambda seat: seat["chips"], default=None)
    ends_at = tournament.break_ends_at or tournament.level_ends_at
    next_level = _next_level(state["next_level"])
    next_break = state["next_break"]
    break_first = next_break is not None and (
        next_level is None or next_break["index"] < next_level["index"]
    )
    return {
        "tournament": tournament,
        "state": state,
        "level": {**state["level"], "game_name": game_name(state["level"]["game"])},
        "next_level": next_level,
        "next_break": next_break,
        "break_first": break_first,
        "unscheduled_break": state["unscheduled_break"],
        "deadline_ms": int(ends_at.timestamp() * 1000) if ends_at else None,
        "paused_ms": tournament.paused_remaining_ms if tournament.status == Status.PAUSED else None,
        "time_left_ms": state["time_left_ms"],
        "payouts": selectors.payouts_list(tournament),
        "deal": selectors.deal_summary(tournament),
        "chip_leader": leader if tournament.mode == Mode.ONLINE and leader else None,
        "tables_in_play": len(state["tables"]),
        "finished": tournament.status in (Status.FINISHED, Status.CANCELLED),
        "results": [r for r in selectors.results_list(tournament) if r["place"]]
        if tournament.status == Status.FINISHED
        else [],
        "chips_in_play": sum(seat["chips"] for seat in seats),
        "colour_up": _colour_up(tournament, _upcoming_levels(tournament)),
        "level_key": f"{state['level']['index']}-{state['level']['is_break']}",
    }


def clock_fingerprint(tournament: Tournament) -> tuple[Any, ...]:
    """What changes whenever the board would (cheaper than building it): every field of the
    tournament's row (clock, status, pool...), its log's last seq, its entries, and the
    seats and chips of its open tables."""
    row = tuple(getattr(tournament, f.attname) for f in Tournament._meta.concrete_fields)
    last_event = (
        TournamentEvent.objects.filter(tournament=tournament)
        .order_by("-seq")
        .values_list("seq", flat=True)
    ).first()
    entries = tournament.entries.count()
    seats = tuple(
        Seat.objects.filter(table__tournament_table__tournament=tournament, player__isnull=False)
        .exclude(table__status=TableStatus.CLOSED)
        .order_by("table_id", "number")
        .values_list("table_id", "number", "player_id", "stack")
    )
    return (row, last_event, entries, seats)
