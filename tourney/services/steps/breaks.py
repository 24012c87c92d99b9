"""Unscheduled breaks: the director stops play for N minutes, now or once the hands in
progress end; the level's clock stands still during the break and resumes with the time it
had left.

The state is on the tournament row: ``break_pending_minutes`` while waiting for the hands,
``break_ends_at`` while the break runs, ``break_level_left_ms`` the level's time left (none:
the last level, which has no end). ``tourney.services.steps.clock.clock_advance`` calls
:func:`unscheduled_break_holds` first, so the beat tick starts and ends breaks like levels.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from games.models import Hand, HandStatus
from tourney.models import Mode, Tournament
from tourney.services.steps.log import event_append


def hands_running(tournament: Tournament) -> list[int]:
    """The numbers of the tournament's tables with a hand in progress (online)."""
    if tournament.mode != Mode.ONLINE:
        return []
    return sorted(
        Hand.objects.filter(
            table__tournament_table__tournament=tournament, status=HandStatus.RUNNING
        ).values_list("table__tournament_table__number", flat=True)
    )


def unscheduled_break_start(tournament: Tournament, minutes: int, now: datetime) -> None:
    """Start the break's clock now: the level's time left is kept for after it."""
    if tournament.level_ends_at is not None:
        left = max(tournament.level_ends_at - now, timedelta(0))
        tournament.break_level_left_ms = int(left.total_seconds() * 1000)
    else:
        tournament.break_level_left_ms = None
    tournament.level_ends_at = None
    tournament.break_pending_minutes = None
    tournament.break_ends_at = now + timedelta(seconds=minutes * tournament.minute_seconds)
    event_append(
        tournament,
        "break_started",
        {"minutes": minutes, "ends_at": tournament.break_ends_at.isoformat()},
    )


def unscheduled_break_end(tournament: Tournament, at: datetime) -> None:
    """End the break at ``at``: the level resumes with the time it had left."""
    left = tournament.break_level_left_ms
    tournament.level_ends_at = None if left is None else at + timedelta(milliseconds=left)
    tournament.break_ends_at = None
    tournament.break_pending_minutes = None
    tournament.break_level_left_ms = None
    ends_at = tournament.level_ends_at
    event_append(
        tournament, "break_over", {"level_ends_at": ends_at.isoformat() if ends_at else None}
    )


def unscheduled_break_holds(tournament: Tournament, now: datetime) -> bool:
    """Start a pending break once no hand is in progress, end a break whose time is up;
    True while a break stops the level's clock."""
    if tournament.break_pending_minutes is not None:
        if hands_running(tournament):
            return False  # the level plays on until the last hand in progress ends
        unscheduled_break_start(tournament, tournament.break_pending_minutes, now)
        return True
    if tournament.break_ends_at is None:
        return False
    if now < tournament.break_ends_at:
        return True
    # From the break's deadline, not from now: a late tick does not stretch the level.
    unscheduled_break_end(tournament, tournament.break_ends_at)
    return False
