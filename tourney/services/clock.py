"""The tournament clock: levels and breaks from deadlines in the database, pause and resume.

``level_index`` points into the schedule's entries (levels and breaks); ``level_ends_at`` is
that entry's deadline. The beat tick (``tourney.tasks.tournament_tick``) moves the clock on;
new stakes and games are written to the tables at once and apply from each table's next hand
(a hand in progress keeps the stakes it started with).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone

from games.errors import Conflict
from games.models import Table
from tourney.models import ScheduleEntry, Status, Tournament
from tourney.services.breaks import unscheduled_break_holds, unscheduled_break_on
from tourney.services.locks import LockedTable, tournament_for_update
from tourney.services.log import event_append
from tourney.services.schedules import schedule_entries

STAKE_FIELDS = ("ante", "bring_in", "small_bet", "big_bet")


def entry_seconds(tournament: Tournament, entry: ScheduleEntry) -> int:
    """How long a level or break lasts, in seconds of this tournament's clock."""
    return entry.minutes * tournament.minute_seconds


def level_number(entries: list[ScheduleEntry], index: int) -> int:
    """The 1-based number of the level at ``index`` (at a break: of the level before it)."""
    return sum(1 for entry in entries[: index + 1] if not entry.is_break)


def playing_level(entries: list[ScheduleEntry], index: int) -> ScheduleEntry:
    """The level whose stakes are in force at ``index``: that level, or during a break the
    level before it (the first level before the first one)."""
    before = [entry for entry in entries[: index + 1] if not entry.is_break]
    return before[-1] if before else next(entry for entry in entries if not entry.is_break)


def clock_start(tournament: Tournament, now: datetime) -> None:
    """Start the first schedule entry's clock."""
    entries = schedule_entries(tournament.schedule_id)
    tournament.level_index = 0
    tournament.level_ends_at = now + timedelta(seconds=entry_seconds(tournament, entries[0]))


def clock_advance(tournament: Tournament, now: datetime) -> bool:
    """Move past every entry whose deadline is over; True if the level changed. Past the end
    of the schedule the last level plays on with no deadline (never a break: a schedule
    stored ending with a break goes back to its last level)."""
    if tournament.status != Status.RUNNING or unscheduled_break_holds(tournament, now):
        return False
    if tournament.level_ends_at is None:
        return False
    entries = schedule_entries(tournament.schedule_id)
    changed = False
    while tournament.level_ends_at is not None and tournament.level_ends_at <= now:
        if tournament.level_index + 1 >= len(entries):
            tournament.level_ends_at = None
            last_level = max(i for i, entry in enumerate(entries) if not entry.is_break)
            if tournament.level_index != last_level:
                tournament.level_index = last_level
                changed = True
                _level_log(tournament, entries)
            break
        tournament.level_index += 1
        entry = entries[tournament.level_index]
        # From the old deadline, not from now: a late tick does not stretch the schedule.
        tournament.level_ends_at += timedelta(seconds=entry_seconds(tournament, entry))
        changed = True
        _level_log(tournament, entries)
    return changed


def _level_log(tournament: Tournament, entries: list[ScheduleEntry]) -> None:
    entry = entries[tournament.level_index]
    ends_at = tournament.level_ends_at
    event_append(
        tournament,
        "break" if entry.is_break else "level",
        {
            "index": tournament.level_index,
            "level": level_number(entries, tournament.level_index),
            "entry": str(entry),
            "ends_at": ends_at.isoformat() if ends_at else None,
        },
    )


def on_break(tournament: Tournament) -> bool:
    """Whether the clock is in a break (of the schedule, or one the director called)."""
    if unscheduled_break_on(tournament):
        return True
    entries = schedule_entries(tournament.schedule_id)
    return entries[tournament.level_index].is_break


def stakes_apply(tournament: Tournament, tables: list[LockedTable]) -> None:
    """Write the stakes and game in force to every table whose fields differ (they apply
    from the table's next hand)."""
    entries = schedule_entries(tournament.schedule_id)
    level = playing_level(entries, tournament.level_index)
    wanted = {"variant": level.game, **{name: getattr(level, name) for name in STAKE_FIELDS}}
    for locked in tables:
        if any(getattr(locked.table, name) != value for name, value in wanted.items()):
            Table.objects.filter(pk=locked.table.pk).update(**wanted)
            for name, value in wanted.items():
                setattr(locked.table, name, value)


def tournament_pause(*, tournament_id: int) -> Tournament:
    """Stop the clock (its time left is kept) and hold every table after its hand."""
    from tourney.services.update import tournament_refresh

    with transaction.atomic():
        tournament = tournament_for_update(tournament_id)
        if tournament.status != Status.RUNNING:
            raise Conflict(
                f"the tournament is {tournament.status}, not running", code="not_running"
            )
        if unscheduled_break_on(tournament):
            raise Conflict(
                "an unscheduled break is on (the tables already wait): lengthen it with "
                'the clock\'s "add_time", or end it with "end_break"',
                code="on_break",
            )
        now = timezone.now()
        tournament_refresh(tournament, now=now)
        if tournament.level_ends_at is not None:
            left = max(tournament.level_ends_at - now, timedelta(0))
            tournament.paused_remaining_ms = int(left.total_seconds() * 1000)
        tournament.level_ends_at = None
        tournament.status = Status.PAUSED
        tournament.save()
        event_append(tournament, "paused", {"remaining_ms": tournament.paused_remaining_ms})
        tournament_refresh(tournament, now=now)
        return tournament


def tournament_resume(*, tournament_id: int) -> Tournament:
    """Restart the clock with the time left when it was paused, and release the tables."""
    from tourney.services.update import tournament_refresh

    with transaction.atomic():
        tournament = tournament_for_update(tournament_id)
        if tournament.status != Status.PAUSED:
            raise Conflict(f"the tournament is {tournament.status}, not paused", code="not_paused")
        now = timezone.now()
        if tournament.paused_remaining_ms is not None:
            tournament.level_ends_at = now + timedelta(milliseconds=tournament.paused_remaining_ms)
        tournament.paused_remaining_ms = None
        tournament.status = Status.RUNNING
        tournament.save()
        event_append(tournament, "resumed", {"ends_at": str(tournament.level_ends_at)})
        tournament_refresh(tournament, now=now)
        return tournament
