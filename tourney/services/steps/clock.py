"""The tournament clock's steps: levels and breaks from deadlines in the database.

``level_index`` points into the schedule's entries (levels and breaks); ``level_ends_at`` is
that entry's deadline. The beat tick (``tourney.tasks.tournament_tick``) moves the clock on;
new stakes and games are written to the tables at once and apply from each table's next hand
(a hand in progress keeps the stakes it started with). Pausing and resuming are commands
(``tourney.services.commands.clock``).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from games.models import Table
from tourney.models import ScheduleEntry, Status, Tournament
from tourney.planning.levels import STAKE_FIELDS, entry_seconds, level_number, playing_level
from tourney.selectors import schedule_entries, unscheduled_break_on
from tourney.services.steps.breaks import unscheduled_break_holds
from tourney.services.steps.locks import LockedTable
from tourney.services.steps.log import event_append


def clock_start(tournament: Tournament, now: datetime) -> None:
    """Start the first schedule entry's clock."""
    entries = schedule_entries(tournament.schedule_id)
    tournament.level_index = 0
    tournament.level_ends_at = now + timedelta(
        seconds=entry_seconds(entries[0], minute_seconds=tournament.minute_seconds)
    )


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
        tournament.level_ends_at += timedelta(
            seconds=entry_seconds(entry, minute_seconds=tournament.minute_seconds)
        )
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
    """Write the stakes, game and smallest chip in force to every table whose fields differ
    (they apply from the table's next hand)."""
    entries = schedule_entries(tournament.schedule_id)
    level = playing_level(entries, tournament.level_index)
    wanted = {
        "variant": level.game,
        "chip_unit": tournament.unit_in_play,
        **{name: getattr(level, name) for name in STAKE_FIELDS},
    }
    for locked in tables:
        if any(getattr(locked.table, name) != value for name, value in wanted.items()):
            if locked.busy:  # its hand keeps its stakes; the next one waits for them
                locked.look = True
                continue
            Table.objects.filter(pk=locked.table.pk).update(**wanted)
            for name, value in wanted.items():
                setattr(locked.table, name, value)
