"""What the clock screen shows: the tournament's state (``tourney.selectors``), the next
schedule entry, the payouts, and the clock's deadline for the browser to count down from."""

from __future__ import annotations

from typing import Any

from games.models import Seat, TableStatus
from tourney import selectors
from tourney.models import Mode, Status, Tournament, TournamentEvent
from tourney.services.clock import level_number
from tourney.services.schedules import schedule_entries
from web.games import game_name


def _level_text(entry: Any, number: int) -> dict[str, Any]:
    if entry.is_break:
        return {"is_break": True, "minutes": entry.minutes}
    return {
        "is_break": False,
        "number": number,
        "game": game_name(entry.game),
        "ante": entry.ante,
        "bring_in": entry.bring_in,
        "small_bet": entry.small_bet,
        "big_bet": entry.big_bet,
        "minutes": entry.minutes,
    }


def clock_board(tournament: Tournament) -> dict[str, Any]:
    """Everything the clock screen shows about ``tournament``.

    ``deadline_ms`` is the level's end (epoch milliseconds) while the clock runs; when it is
    paused, ``paused_ms`` is the time left it keeps. The browser counts down from them.
    """
    state = selectors.tournament_state(tournament)
    entries = schedule_entries(tournament.schedule_id)
    index = tournament.level_index
    following = entries[index + 1] if index + 1 < len(entries) else None
    seats = [seat for table in state["tables"] for seat in table["seats"]]
    leader = max(seats, key=lambda seat: seat["chips"], default=None)
    ends_at = tournament.level_ends_at
    level = {**state["level"], "game_name": game_name(state["level"]["game"])}
    return {
        "tournament": tournament,
        "state": state,
        "level": level,
        "next": _level_text(following, level_number(entries, index + 1)) if following else None,
        "deadline_ms": int(ends_at.timestamp() * 1000) if ends_at else None,
        "paused_ms": tournament.paused_remaining_ms if tournament.status == Status.PAUSED else None,
        "time_left_ms": state["time_left_ms"],
        "payouts": selectors.payouts_list(tournament),
        "chip_leader": leader if tournament.mode == Mode.ONLINE and leader else None,
        "tables_in_play": len(state["tables"]),
        "finished": tournament.status in (Status.FINISHED, Status.CANCELLED),
        "results": [r for r in selectors.results_list(tournament) if r["place"]][:10]
        if tournament.status == Status.FINISHED
        else [],
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
