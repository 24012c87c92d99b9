"""Ante schedules: create, generate with the planner, read back as a planner Schedule."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction

from games.errors import Invalid
from tourney.models import AnteSchedule, ScheduleEntry
from tourney.planning.schedules import Break, Level, Schedule, generate_schedule

LEVEL_FIELDS = ("game", "ante", "bring_in", "small_bet", "big_bet", "minutes")


def _planner_entry(data: dict[str, Any]) -> Level | Break:
    try:
        if data.get("is_break"):
            return Break(data["minutes"])
        return Level(*(data[name] for name in LEVEL_FIELDS))
    except KeyError as error:
        raise Invalid(f"a level needs {', '.join(LEVEL_FIELDS)}: {error} is missing") from error
    except (TypeError, ValueError) as error:
        raise Invalid(str(error), code="invalid_schedule") from error


MAX_AMOUNT = 2**31 - 1
"""The largest stake a table stores (a 32-bit integer column, as in games.Table)."""


def _store(*, name: str, schedule: Schedule) -> AnteSchedule:
    for level in schedule.levels:
        if level.big_bet > MAX_AMOUNT:
            raise Invalid(
                f"a big bet of {level.big_bet} is above {MAX_AMOUNT}: use fewer levels",
                code="invalid_schedule",
            )
    with transaction.atomic():
        stored = AnteSchedule.objects.create(name=name, chip_unit=schedule.chip_unit)
        ScheduleEntry.objects.bulk_create(
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
        )
    return stored


def schedule_create(
    *, name: str, chip_unit: int, entries: Sequence[dict[str, Any]]
) -> AnteSchedule:
    """Store a schedule written by staff, checked by the planner's rules (400 if wrong).

    ``entries`` are levels ``{game, ante, bring_in, small_bet, big_bet, minutes}`` or breaks
    ``{is_break: true, minutes}``, in playing order."""
    try:
        schedule = Schedule(tuple(_planner_entry(dict(e)) for e in entries), chip_unit)
    except (TypeError, ValueError) as error:
        raise Invalid(str(error), code="invalid_schedule") from error
    return _store(name=name, schedule=schedule)


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
) -> AnteSchedule:
    """Generate a sensible schedule with the planner (see tourney.planning.schedules)."""
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
        raise Invalid(str(error), code="invalid_schedule") from error
    return _store(name=name, schedule=schedule)


def schedule_entries(schedule_id: int) -> list[ScheduleEntry]:
    """The schedule's levels and breaks in playing order."""
    return list(ScheduleEntry.objects.filter(schedule_id=schedule_id).order_by("position"))
