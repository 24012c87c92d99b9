"""Settings a director may change once the tournament is in play, and late registration
closed or reopened by hand. What cannot change is refused with the reason.

- Level lengths and the levels to come: the tournament gets its own copy of its schedule
  (other tournaments on the same schedule are not touched); levels played and the level in
  play stay as they were, except the length of the level in play.
- The payout table, before the money (the structure must pay fewer places than players
  are left) and before any deal; percentages summing to exactly 100.
- The action clock, from each table's next decision.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.errors import Conflict, Invalid
from games.models import Table
from tourney.codes import Code
from tourney.models import EntryStatus, ScheduleEntry, Status, Tournament
from tourney.plan_messages import plan_message
from tourney.planning.levels import STAKE_FIELDS, level_number
from tourney.planning.payouts import structure_from_percentages
from tourney.selectors import payout_structure, schedule_entries
from tourney.services.commands.director_lookup import running_for_update
from tourney.services.commands.schedules import LEVEL_FIELDS, schedule_create
from tourney.services.steps.log import event_append
from tourney.services.steps.results import places_assign
from tourney.services.update import tournament_refresh
from tourney.windows import late_registration_open, levels_started, standings_final


def late_registration_set(
    *, tournament_id: int, open_: bool, until_level: int | None = None
) -> Tournament:
    """Close late registration now, or reopen it until the end of ``until_level`` (default:
    the level in play). Reopening is refused once a place was given (the field was final
    and finishing places depend on it) or a deal was made."""
    with transaction.atomic():
        tournament = running_for_update(tournament_id)
        before = standings_final(tournament)
        level = levels_started(tournament)
        if not open_:
            if until_level is not None:
                raise Invalid(_("until_level is for reopening"), code=Code.UNTIL_LEVEL)
            if not late_registration_open(tournament):
                raise Conflict(_("late registration is closed already"), code=Code.CLOSED)
            tournament.late_reg_closed = True
        else:
            until = level if until_level is None else until_level
            if until < level:
                raise Invalid(
                    _("level %(level)s is in play: reopen until level %(level)s or later")
                    % {"level": level},
                    code=Code.UNTIL_LEVEL,
                )
            if tournament.deal:
                raise Conflict(_("a deal was made: the field stays as it is"), code=Code.DEAL_MADE)
            if tournament.entries.filter(place__isnull=False).exists():
                raise Conflict(
                    _(
                        "finishing places were given on a final field: late registration "
                        "cannot reopen"
                    ),
                    code=Code.PLACES_GIVEN,
                )
            if tournament.starting_stack % tournament.unit_in_play:
                raise Conflict(
                    _(
                        "the starting stack %(starting_stack)s is not a multiple of the "
                        "smallest chip in play (%(unit_in_play)s) since the colour-up"
                    )
                    % {
                        "starting_stack": tournament.starting_stack,
                        "unit_in_play": tournament.unit_in_play,
                    },
                    code=Code.CHIP_UNIT,
                )
            if late_registration_open(tournament) and tournament.late_reg_levels == until:
                raise Conflict(
                    _("late registration is open until level %(until)s") % {"until": until},
                    code=Code.OPEN,
                )
            tournament.late_reg_closed = False
            tournament.late_reg_levels = until
        tournament.save()
        event_append(
            tournament,
            "late_registration",
            {"open": open_, "until_level": tournament.late_reg_levels if open_ else None},
        )
        if standings_final(tournament) != before:
            places_assign(tournament)  # the field just became final
        tournament_refresh(tournament)
        return tournament


def settings_change(*, tournament_id: int, **changes: Any) -> Tournament:
    """Change ``level_minutes``, ``levels`` (the levels to come), ``payout_percentages`` or
    ``action_seconds`` of a tournament in play (see the module docstring)."""
    if not changes:
        raise Invalid(_("name at least one setting to change"), code=Code.NOTHING)
    if "levels" in changes and "level_minutes" in changes:
        raise Invalid(
            _("give the levels to come with their minutes, or level_minutes, not both"),
            code=Code.LEVELS_AND_MINUTES,
        )
    with transaction.atomic():
        tournament = running_for_update(tournament_id)
        now = timezone.now()
        tournament_refresh(tournament, now=now)
        logged: dict[str, Any] = {}
        if "levels" in changes:
            _levels_to_come(tournament, changes["levels"])
            logged["levels"] = changes["levels"]
        if "level_minutes" in changes:
            _level_minutes(tournament, changes["level_minutes"], now)
            logged["level_minutes"] = changes["level_minutes"]
        if "payout_percentages" in changes:
            _payouts(tournament, changes["payout_percentages"])
            logged["payout_percentages"] = changes["payout_percentages"]
        if "action_seconds" in changes:
            tournament.action_seconds = changes["action_seconds"]
            Table.objects.filter(tournament_table__tournament=tournament).update(
                action_seconds=changes["action_seconds"]
            )
            logged["action_seconds"] = changes["action_seconds"]
        tournament.save()
        event_append(tournament, "settings_changed", {**logged, "schedule": tournament.schedule_id})
        tournament_refresh(tournament, now=now)
        return tournament


def _as_dict(entry: ScheduleEntry) -> dict[str, Any]:
    if entry.is_break:
        return {"is_break": True, "minutes": entry.minutes}
    return {name: getattr(entry, name) for name in LEVEL_FIELDS}


def _schedule_replace(tournament: Tournament, entries: list[dict[str, Any]]) -> None:
    """Give the tournament its own schedule with ``entries`` (checked by the planner)."""
    stored = tournament.schedule
    copy = schedule_create(
        name=f"{stored.name} (tournament {tournament.id})"[:80],
        chip_unit=stored.chip_unit,
        entries=entries,
        club_id=tournament.club_id,  # the tournament's own copy: its club's, like it
    )
    unit = tournament.unit_in_play
    for index, entry in enumerate(schedule_entries(copy.id)):
        for name in STAKE_FIELDS:
            amount = getattr(entry, name)
            needed = unit if index >= tournament.level_index else tournament.chip_unit
            if not entry.is_break and amount % needed:
                raise Invalid(
                    _(
                        "level %(level_number)s: %(name)s %(amount)s is not a multiple of the "
                        "chip unit in play (%(needed)s)"
                    )
                    % {
                        "level_number": level_number(schedule_entries(copy.id), index),
                        "name": name,
                        "amount": amount,
                        "needed": needed,
                    },
                    code=Code.CHIP_UNIT,
                )
    tournament.schedule = copy


def _levels_to_come(tournament: Tournament, levels: list[dict[str, Any]]) -> None:
    entries = schedule_entries(tournament.schedule_id)
    kept = [_as_dict(e) for e in entries[: tournament.level_index + 1]]
    if not levels:
        raise Invalid(_("give at least one level to come"), code=Code.NO_LEVELS)
    _schedule_replace(tournament, kept + [dict(level) for level in levels])


def _level_minutes(tournament: Tournament, minutes: int, now: Any) -> None:
    """Every level from the one in play on lasts ``minutes`` (breaks keep theirs); the level
    in play ends ``minutes`` after it started."""
    entries = schedule_entries(tournament.schedule_id)
    current = entries[tournament.level_index]
    changed = [_as_dict(e) for e in entries]
    for index in range(tournament.level_index, len(entries)):
        if not entries[index].is_break:
            changed[index]["minutes"] = minutes
    shift = timedelta(seconds=(minutes - current.minutes) * tournament.minute_seconds)
    if not current.is_break and shift and tournament.break_ends_at is None:
        if tournament.status == Status.PAUSED:
            left = (tournament.paused_remaining_ms or 0) + int(shift.total_seconds() * 1000)
            if tournament.paused_remaining_ms is not None and left <= 0:
                raise _too_short(current.minutes, minutes)
            if tournament.paused_remaining_ms is not None:
                tournament.paused_remaining_ms = left
        elif tournament.level_ends_at is not None:
            if tournament.level_ends_at + shift <= now:
                raise _too_short(current.minutes, minutes)
            tournament.level_ends_at += shift
    _schedule_replace(tournament, changed)


def _too_short(old: int, new: int) -> Invalid:
    return Invalid(
        _(
            "the level in play has run longer than %(new)s minutes (of its "
            "%(old)s): give a longer length, or move on with the clock's next_level"
        )
        % {"new": new, "old": old},
        code=Code.TOO_SHORT,
    )


def _payouts(tournament: Tournament, percentages: list[str]) -> None:
    if tournament.deal:
        raise Conflict(_("a deal was made: the prizes are the deal's"), code=Code.DEAL_MADE)
    try:
        new = structure_from_percentages(percentages)
    except (TypeError, ValueError) as error:
        raise Invalid(plan_message(error), code=Code.INVALID_PAYOUTS) from error
    left = tournament.entries.filter(status=EntryStatus.PLAYING).count()
    paid_now = payout_structure(tournament).places
    if left <= paid_now or tournament.entries.filter(prize__gt=0).exists():
        raise Conflict(
            _(
                "the money is reached (%(left)s left, %(paid_now)s paid): the payout "
                "table is locked in"
            )
            % {"left": left, "paid_now": paid_now},
            code=Code.IN_THE_MONEY,
        )
    if new.places > left:
        raise Invalid(
            _(
                "%(left)s players are left: a new table must pay fewer places "
                "(%(places)s asked), or players already out would be owed prizes they "
                "were not playing for"
            )
            % {"left": left, "places": new.places},
            code=Code.TOO_MANY_PLACES,
        )
    tournament.payout_percentages = percentages
