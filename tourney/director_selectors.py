"""Read paths for the director's tools: the detail (settings as created, live state, next
level and next break), the chip-count leaderboard, every table with its status, and the
filtered list of tournaments. No writes."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Any

from django.db.models import QuerySet
from django.db.models.functions import Coalesce, TruncDate
from django.utils import timezone

from games.models import Seat, TableStatus
from tourney.models import SETTINGS, Entry, Status, Tournament
from tourney.planning.levels import STAKE_FIELDS, entry_seconds, level_number
from tourney.selectors import (
    LEFT,
    schedule_entries,
    tournament_state,
    tournaments_seen,
    unscheduled_break_on,
)
from tourney.windows import late_registration_open


def _ms(delta: timedelta) -> int:
    return max(0, int(delta.total_seconds() * 1000))


def tournament_settings(tournament: Tournament) -> dict[str, Any]:
    """Every setting as the tournament was created and configured, with its schedule."""
    settings = {name: getattr(tournament, name) for name in SETTINGS}
    settings["club_id"] = tournament.club_id
    settings["schedule"] = [
        {
            "index": index,
            "is_break": entry.is_break,
            "game": entry.game,
            **{name: getattr(entry, name) for name in STAKE_FIELDS},
            "minutes": entry.minutes,
        }
        for index, entry in enumerate(schedule_entries(tournament.schedule_id))
    ]
    return settings


def _current_left_ms(tournament: Tournament, now: datetime) -> int | None:
    """The time the entry in play has left (during an unscheduled break: the break's)."""
    if tournament.break_ends_at is not None:
        return _ms(tournament.break_ends_at - now)
    if tournament.paused_remaining_ms is not None:
        return tournament.paused_remaining_ms
    if tournament.level_ends_at is None:
        return None
    return _ms(tournament.level_ends_at - now)


def _coming(tournament: Tournament, now: datetime) -> tuple[Any, Any]:
    """The next level and the next break of the schedule, each with when it starts: in ms
    from now (standing still while paused) and as a time (null while paused)."""
    entries = schedule_entries(tournament.schedule_id)
    start_ms = _current_left_ms(tournament, now)
    if tournament.break_ends_at is not None and tournament.break_level_left_ms is not None:
        assert start_ms is not None
        start_ms += tournament.break_level_left_ms
    elif tournament.break_ends_at is not None:
        start_ms = None
    running = tournament.status == Status.RUNNING
    next_level = next_break = None
    for index in range(tournament.level_index + 1, len(entries)):
        entry = entries[index]
        when = {
            "index": index,
            "starts_in_ms": start_ms,
            "starts_at": (
                now + timedelta(milliseconds=start_ms) if running and start_ms is not None else None
            ),
            "minutes": entry.minutes,
        }
        if entry.is_break and next_break is None:
            next_break = {**when, "after_level": level_number(entries, index)}
        if not entry.is_break and next_level is None:
            next_level = {
                **when,
                "number": level_number(entries, index),
                "game": entry.game,
                **{name: getattr(entry, name) for name in STAKE_FIELDS},
            }
        if next_level is not None and next_break is not None:
            break
        if start_ms is not None:
            start_ms += entry_seconds(entry, minute_seconds=tournament.minute_seconds) * 1000
    return next_level, next_break


def tournament_detail(tournament: Tournament) -> dict[str, Any]:
    """The state (``tourney.selectors.tournament_state``), the settings as created, the next
    level and break, the unscheduled break and the director's switches. During an
    unscheduled break the clock (``level.is_break``, ``time_left_ms``) shows the break."""
    now = timezone.now()
    next_level, next_break = _coming(tournament, now)
    unscheduled = None
    if unscheduled_break_on(tournament):
        unscheduled = {
            "waiting_for_hands": tournament.break_pending_minutes is not None,
            "minutes": tournament.break_pending_minutes,
            "ends_at": tournament.break_ends_at,
            "time_left_ms": (
                _ms(tournament.break_ends_at - now) if tournament.break_ends_at else None
            ),
            "level_time_left_ms": tournament.break_level_left_ms,
        }
    state = tournament_state(tournament)
    if tournament.break_ends_at is not None:  # the clock shows the break the director called
        state["level"]["is_break"] = True
        state["time_left_ms"] = _ms(tournament.break_ends_at - now)
    return {
        **state,
        "settings": tournament_settings(tournament),
        "next_level": next_level,
        "next_break": next_break,
        "unscheduled_break": unscheduled,
        "late_registration_open": late_registration_open(tournament),
        "chip_unit_in_play": tournament.unit_in_play,
        "chips_adjusted": tournament.chips_adjusted,
        "started_at": tournament.started_at,
        "finished_at": tournament.finished_at,
    }


def leaderboard(tournament: Tournament) -> list[dict[str, Any]]:
    """The players left by chips (most first; ties by entry id), with their table and seat.
    Online the chips are live from the seats; live they are the counts last reported."""
    entries = {
        e.player_id: e
        for e in Entry.objects.filter(tournament=tournament, status__in=LEFT).select_related(
            "player"
        )
    }
    seats = Seat.objects.filter(
        table__tournament_table__tournament=tournament, player_id__in=list(entries)
    ).select_related("table__tournament_table")
    rows = [
        {
            "entry": entries[s.player_id].id,
            "player": s.player_id,
            "name": entries[s.player_id].player.display_name,
            "chips": s.stack,
            "table": s.table.tournament_table.number,
            "seat": s.number,
            "seat_locked": entries[s.player_id].seat_locked,
        }
        for s in seats
    ]
    rows.sort(key=lambda row: (-row["chips"], row["entry"]))
    for rank, row in enumerate(rows, start=1):
        row["rank"] = rank
    return rows


def _final_table_number(tournament: Tournament) -> int | None:
    """The final table: the one the final-table redraw went to, else the only table the
    tournament had or still has open once every other one was broken."""
    final = tournament.events.filter(kind="final_table").order_by("-seq").first()
    if final is not None:
        return int(final.data["table"])
    numbers = list(tournament.tables.values_list("number", flat=True))
    if len(numbers) == 1:
        return numbers[0]
    still_open = list(
        tournament.tables.exclude(table__status=TableStatus.CLOSED).values_list("number", flat=True)
    )
    return still_open[0] if len(still_open) == 1 else None


def tables_list(tournament: Tournament) -> list[dict[str, Any]]:
    """Every table the tournament opened, by number: ``open``, ``broken`` (closed; its seats
    are empty) or ``final`` (the final table), with its seats and stacks."""
    final = _final_table_number(tournament)
    entry_of = {e.player_id: e.id for e in tournament.entries.filter(status__in=LEFT)}
    rows = []
    for tt in tournament.tables.select_related("table").order_by("number"):
        if tt.number == final:
            status = "final"
        elif tt.table.status == TableStatus.CLOSED:
            status = "broken"
        else:
            status = "open"
        seats = [
            {
                "seat": s.number,
                "entry": entry_of.get(s.player_id),
                "player": s.player_id,
                "name": s.player.display_name if s.player else "",
                "chips": s.stack,
            }
            for s in Seat.objects.filter(table=tt.table, player__isnull=False)
            .select_related("player")
            .order_by("number")
        ]
        rows.append(
            {
                "id": tt.id,
                "table_id": tt.table_id,
                "number": tt.number,
                "status": status,
                "breaking": tt.breaking,
                "hold_reason": tt.table.hold_reason,
                "hands_played": tt.table.hands_played,
                "seat_count": tt.table.seat_count,
                "seats": seats,
            }
        )
    return rows


def tournaments_filtered(
    *,
    user: Any,
    status: str | None = None,
    club: int | None = None,
    date_from: date | None = None,
    date_to: date | None = None,
) -> QuerySet[Tournament]:
    """The tournaments ``user`` sees, newest first, by status, club and day (the scheduled
    start, else the start, else the creation)."""
    tournaments = tournaments_seen(user).order_by("-id")
    if status is not None:
        tournaments = tournaments.filter(status=status)
    if club is not None:
        tournaments = tournaments.filter(club_id=club)
    if date_from is not None or date_to is not None:
        tournaments = tournaments.annotate(
            day=TruncDate(Coalesce("scheduled_start", "started_at", "created_at"))
        )
        if date_from is not None:
            tournaments = tournaments.filter(day__gte=date_from)
        if date_to is not None:
            tournaments = tournaments.filter(day__lte=date_to)
    return tournaments
