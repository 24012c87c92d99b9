"""Ante schedules: create, generate with the planner, read back as a planner Schedule."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from games.errors import Conflict, Invalid, NotFound
from tourney.codes import Code
from tourney.models import AnteSchedule, ScheduleEntry, Status, Tournament
from tourney.plan_messages import plan_message
from tourney.planning.schedules import Break, Level, Schedule, generate_schedule
from tourney.selectors import schedule_entries

LEVEL_FIELDS = ("game", "ante", "bring_in", "small_bet", "big_bet", "minutes")


def _planner_entry(data: dict[str, Any]) -> Level | Break:
    try:
        if data.get("is_break"):
            return Break(data["minutes"])
        return Level(*(data[name] for name in LEVEL_FIELDS))
    except KeyError as error:
        raise Invalid(
            _("a level needs %(LEVEL_FIELDS)s: %(error)s is missing")
            % {"LEVEL_FIELDS": ", ".join(LEVEL_FIELDS), "error": error}
        ) from error
    except (TypeError, ValueError) as error:
        raise Invalid(plan_message(error), code=Code.INVALID_SCHEDULE) from error


MAX_AMOUNT = 2**31 - 1
"""The largest stake a table stores (a 32-bit integer column, as in games.Table)."""


def _check_amounts(schedule: Schedule) -> None:
    for level in schedule.levels:
        if level.big_bet > MAX_AMOUNT:
            raise Invalid(
                _("a big bet of %(big_bet)s is above %(MAX_AMOUNT)s: use fewer levels")
                % {"big_bet": level.big_bet, "MAX_AMOUNT": MAX_AMOUNT},
                code=Code.INVALID_SCHEDULE,
            )


def _rows(stored: AnteSchedule, schedule: Schedule) -> list[ScheduleEntry]:
    return [
        ScheduleEntry(schedule=stored, position=i, is_break=True, minutes=entry.minutes)
        if isinstance(entry, Break)
        else ScheduleEntry(
            schedule=stored,
            position=i,
            **entry.amounts(),
            game=entry.game,
            minutes=entry.minutes,
        )
        for i, entry in enumerate(schedule.entries)
    ]


def _store(*, name: str, schedule: Schedule, club_id: int | None) -> AnteSchedule:
    _check_amounts(schedule)
    with transaction.atomic():
        stored = AnteSchedule.objects.create(
            name=name, chip_unit=schedule.chip_unit, club_id=club_id
        )
        ScheduleEntry.objects.bulk_create(_rows(stored, schedule))
    return stored


def _planned(entries: Sequence[dict[str, Any]], chip_unit: int) -> Schedule:
    try:
        return Schedule(tuple(_planner_entry(dict(e)) for e in entries), chip_unit)
    except (TypeError, ValueError) as error:
        raise Invalid(plan_message(error), code=Code.INVALID_SCHEDULE) from error


def schedule_create(
    *, name: str, chip_unit: int, entries: Sequence[dict[str, Any]], club_id: int | None = None
) -> AnteSchedule:
    """Store a schedule written by staff, checked by the planner's rules (400 if wrong).

    ``entries`` are levels ``{game, ante, bring_in, small_bet, big_bet, minutes}`` or breaks
    ``{is_break: true, minutes}``, in playing order; ``club_id``: the club whose tournaments
    alone may use it (none: the house's, for any tournament)."""
    return _store(name=name, schedule=_planned(entries, chip_unit), club_id=club_id)


def schedule_update(
    *, schedule_id: int, name: str | None = None, entries: Sequence[dict[str, Any]] | None = None
) -> AnteSchedule:
    """Rename a schedule or rewrite its levels (staff).

    Levels already played, or in play, at a tournament that uses the schedule cannot change
    (409): a director may change the levels still to come, which apply when they start. Every
    tournament using it must still be able to deal the amounts in its chip unit.
    """
    with transaction.atomic():
        stored = AnteSchedule.objects.select_for_update().filter(pk=schedule_id).first()
        if stored is None:
            raise NotFound(
                _("no schedule %(schedule_id)s") % {"schedule_id": schedule_id},
                code=Code.NO_SCHEDULE,
            )
        if name is not None:
            stored.name = name
            stored.save(update_fields=["name"])
        if entries is None:
            return stored
        schedule = _planned(entries, stored.chip_unit)
        _check_amounts(schedule)
        new_rows = _rows(stored, schedule)
        old_rows = schedule_entries(stored.id)
        users = Tournament.objects.filter(schedule=stored)
        started = users.filter(status__in=[Status.RUNNING, Status.PAUSED, Status.FINISHED])
        fixed = max((t.level_index + 1 for t in started), default=0)
        if [_entry_values(r) for r in old_rows[:fixed]] != [
            _entry_values(r) for r in new_rows[:fixed]
        ]:
            raise Conflict(
                _(
                    "levels 1 to %(fixed)s of this schedule were played or are in play at "
                    "a tournament: change only the levels after them"
                )
                % {"fixed": fixed},
                code=Code.SCHEDULE_IN_PLAY,
            )
        for tournament in users:
            _check_units(schedule, tournament.chip_unit)
            if tournament.smallest_chip:  # coloured up: the levels to come in the new unit
                _check_units_from(schedule, tournament.smallest_chip, tournament.level_index)
        ScheduleEntry.objects.filter(schedule=stored).delete()
        ScheduleEntry.objects.bulk_create(new_rows)
        return stored


def _entry_values(row: ScheduleEntry) -> tuple[Any, ...]:
    return (row.is_break, row.minutes, *(getattr(row, name) for name in LEVEL_FIELDS))


def _check_units(schedule: Schedule, unit: int) -> None:
    for number, level in enumerate(schedule.levels, start=1):
        for name, amount in level.amounts().items():
            if amount % unit:
                raise Invalid(
                    _(
                        "level %(number)s: %(name)s %(amount)s is not a multiple of the chip "
                        "unit %(unit)s of a tournament that uses this schedule"
                    )
                    % {"number": number, "name": name, "amount": amount, "unit": unit},
                    code=Code.CHIP_UNIT,
                )


def _check_units_from(schedule: Schedule, unit: int, index: int) -> None:
    """The levels from entry ``index`` on are multiples of ``unit`` (a coloured-up
    tournament's smallest chip)."""
    for position, entry in enumerate(schedule.entries):
        if position < index or isinstance(entry, Break):
            continue
        for name, amount in entry.amounts().items():
            if amount % unit:
                raise Invalid(
                    _(
                        "entry %(number)s: %(name)s %(amount)s is not a multiple of %(unit)s, "
                        "the smallest chip left in play at a tournament that uses this schedule"
                    )
                    % {"number": position + 1, "name": name, "amount": amount, "unit": unit},
                    code=Code.CHIP_UNIT,
                )


def schedule_generate(
    *,
    name: str,
    starting_stack: int,
    level_minutes: int,
    target_hours: int,
    chip_unit: int,
    games: Sequence[str] = ("stud_hi",),
    break_every: int | None = 4,
    break_minutes: int = 10,
    club_id: int | None = None,
) -> AnteSchedule:
    """Generate a sensible schedule with the planner (see tourney.planning.schedules), for
    ``club_id``'s tournaments (none: the house's)."""
    try:
        schedule = generate_schedule(
            starting_stack,
            level_minutes,
            target_hours,
            chip_unit,
            games,
            break_every,
            break_minutes,
        )
    except (TypeError, ValueError) as error:
        raise Invalid(plan_message(error), code=Code.INVALID_SCHEDULE) from error
    return _store(name=name, schedule=schedule, club_id=club_id)
