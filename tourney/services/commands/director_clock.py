"""The director's clock: add or remove time, skip to the next level or back one, an
unscheduled break (now, or once the hands in progress end), and the colour-up chip race.

Each control runs under the tournament lock, is logged in the tournament's event log and is
refused (409) where it makes no sense, with nothing changed; bad amounts are 400s.
"""

from __future__ import annotations

import secrets
from datetime import timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.engine.fairness import SeededShuffler
from games.errors import Conflict, Invalid
from games.models import Seat
from tourney.codes import Code
from tourney.models import Status, Tournament
from tourney.plan_messages import plan_message
from tourney.planning.chip_race import check_units, race
from tourney.planning.levels import STAKE_FIELDS, entry_seconds, level_number
from tourney.selectors import schedule_entries, unscheduled_break_on
from tourney.services.commands.director_lookup import running_for_update
from tourney.services.steps.breaks import (
    hands_running,
    unscheduled_break_end,
    unscheduled_break_start,
)
from tourney.services.steps.chips import chips_check
from tourney.services.steps.clock import on_break
from tourney.services.steps.locks import open_tables_for_update
from tourney.services.steps.log import event_append
from tourney.services.steps.results import places_assign
from tourney.services.update import tournament_refresh
from tourney.windows import (
    add_on_open,
    late_registration_open,
    re_entry_open,
    rebuy_open,
    standings_final,
)

MAX_BREAK_MINUTES = 24 * 60


def clock_add_time(*, tournament_id: int, seconds: int) -> Tournament:
    """Add ``seconds`` to the current level (or to the unscheduled break); negative removes
    time, but never so much that the level would already be over (400)."""
    if seconds == 0:
        raise Invalid(_("seconds must not be 0: positive adds time, negative removes it"))
    with transaction.atomic():
        tournament = running_for_update(tournament_id)
        now = timezone.now()
        tournament_refresh(tournament, now=now)
        if tournament.break_pending_minutes is not None:
            raise Conflict(
                _(
                    "the break has not started yet (it waits for the hands in progress): "
                    "add time to it once it runs"
                ),
                code=Code.BREAK_PENDING,
            )
        what = "break" if tournament.break_ends_at is not None else "level"
        if tournament.status == Status.PAUSED and what == "level":
            left_ms = tournament.paused_remaining_ms
        else:
            deadline = tournament.break_ends_at or tournament.level_ends_at
            left_ms = None if deadline is None else _ms(deadline - now)
        if left_ms is None:
            raise Conflict(
                _(
                    "the last level of the schedule plays on with no end: there is no time "
                    "to change (add levels in settings/ to give it one)"
                ),
                code=Code.NO_DEADLINE,
            )
        if left_ms + seconds * 1000 <= 0:
            raise Invalid(
                _(
                    "the %(what)s has %(number)s s left: at most %(max)s s can be removed "
                    "(use next_level to end it now)"
                )
                % {"what": what, "number": left_ms // 1000, "max": max(left_ms // 1000 - 1, 0)},
                code=Code.NEGATIVE_TIME,
                detail={"time_left_ms": left_ms},
            )
        delta = timedelta(seconds=seconds)
        if what == "break":
            assert tournament.break_ends_at is not None
            tournament.break_ends_at += delta
        elif tournament.status == Status.PAUSED:
            tournament.paused_remaining_ms = left_ms + seconds * 1000
        else:
            assert tournament.level_ends_at is not None
            tournament.level_ends_at += delta
        tournament.save()
        event_append(
            tournament,
            "clock_time",
            {
                "seconds": seconds,
                "on": what,
                "level_index": tournament.level_index,
                "time_left_ms": left_ms + seconds * 1000,
            },
        )
        return tournament


def clock_jump(*, tournament_id: int, step: int) -> Tournament:
    """Go to the next schedule entry (``step`` 1) or back one (-1), with its full time.

    Going back is refused (409) where it would reopen a window that already closed (late
    registration, re-entry, rebuys, add-on): places or prizes may have been given on it.
    An unscheduled break ends with the jump."""
    with transaction.atomic():
        tournament = running_for_update(tournament_id)
        now = timezone.now()
        tournament_refresh(tournament, now=now)
        entries = schedule_entries(tournament.schedule_id)
        target = tournament.level_index + step
        if target < 0:
            raise Conflict(
                _("the clock is at the first level: there is none before it"), code=Code.FIRST
            )
        if target >= len(entries):
            raise Conflict(
                _("the clock is at the last level of the schedule: add levels in settings/ first"),
                code=Code.LAST,
            )
        before = standings_final(tournament)
        old_index = tournament.level_index
        tournament.level_index = target
        after = standings_final(tournament)
        if any(b and not a for b, a in zip(before, after, strict=True)):
            raise Conflict(
                _(
                    "going back to level %(level_number)s would reopen buying (late "
                    "registration, re-entry, rebuys or the add-on) after it closed and the "
                    "field or the prize pool became final; reopen late registration by "
                    "hand if you must"
                )
                % {"level_number": level_number(entries, target)},
                code=Code.WINDOW_CLOSED,
            )
        if unscheduled_break_on(tournament):
            _break_cancel(tournament)
        seconds = entry_seconds(entries[target], minute_seconds=tournament.minute_seconds)
        if tournament.status == Status.PAUSED:
            tournament.paused_remaining_ms = seconds * 1000
        else:
            tournament.level_ends_at = now + timedelta(seconds=seconds)
        entry = entries[target]
        ends_at = tournament.level_ends_at
        event_append(
            tournament,
            "clock_jump",
            {
                "from_index": old_index,
                "index": target,
                "level": level_number(entries, target),
                "entry": str(entry),
                "is_break": entry.is_break,
                "ends_at": ends_at.isoformat() if ends_at else None,
            },
        )
        if after != before:
            places_assign(tournament)  # the field (or the pool) just became final
        chips_check(tournament)
        tournament_refresh(tournament, now=now)
        return tournament


def _break_cancel(tournament: Tournament) -> None:
    tournament.break_ends_at = None
    tournament.break_pending_minutes = None
    tournament.break_level_left_ms = None
    event_append(tournament, "break_cancelled", {})


def clock_break(*, tournament_id: int, minutes: int, after_hands: bool = False) -> Tournament:
    """An unscheduled break of ``minutes``: now (hands in progress finish during it), or
    once the hands in progress end (the level's clock runs until then). Live tournaments
    cannot see their hands, so their break always starts now."""
    if not 1 <= minutes <= MAX_BREAK_MINUTES:
        raise Invalid(
            _("a break lasts 1 to %(MAX_BREAK_MINUTES)s minutes")
            % {"MAX_BREAK_MINUTES": MAX_BREAK_MINUTES},
            code=Code.MINUTES,
        )
    with transaction.atomic():
        tournament = running_for_update(tournament_id)
        now = timezone.now()
        tournament_refresh(tournament, now=now)
        if tournament.status == Status.PAUSED:
            raise Conflict(_("the tournament is paused: resume it first"), code=Code.PAUSED)
        if on_break(tournament):
            raise Conflict(
                _('the tournament is on a break already: lengthen it with "add_time"'),
                code=Code.ON_BREAK,
            )
        busy = hands_running(tournament)
        if after_hands and busy:
            tournament.break_pending_minutes = minutes
            event_append(
                tournament, "break_called", {"minutes": minutes, "after_hands_at_tables": busy}
            )
        else:
            unscheduled_break_start(tournament, minutes, now)
        tournament_refresh(tournament, now=now)
        return tournament


def clock_end_break(*, tournament_id: int) -> Tournament:
    """End the unscheduled break now (or call off the one waiting for the hands): the level
    resumes with the time it had left."""
    with transaction.atomic():
        tournament = running_for_update(tournament_id)
        now = timezone.now()
        tournament_refresh(tournament, now=now)
        if tournament.break_pending_minutes is not None:
            _break_cancel(tournament)
        elif tournament.break_ends_at is not None:
            unscheduled_break_end(tournament, now)
        else:
            raise Conflict(
                _("no unscheduled break is on (a break of the schedule ends with next_level)"),
                code=Code.NO_BREAK,
            )
        tournament_refresh(tournament, now=now)
        return tournament


def clock_color_up(*, tournament_id: int, chip_unit: int) -> Tournament:
    """Colour up to ``chip_unit`` at a break: a chip race at every table (Poker TDA 23, see
    ``tourney.planning.chip_race``), logged with its seed, each table's result and the chips
    it took out of play (``chips_delta``, negative; positive if it gave chips)."""
    with transaction.atomic():
        tournament = running_for_update(tournament_id)
        now = timezone.now()
        tournament_refresh(tournament, now=now)
        if not on_break(tournament) or tournament.break_pending_minutes is not None:
            raise Conflict(
                _(
                    "a colour-up is done at a break: wait for one, or call one with "
                    '{"action": "break"}'
                ),
                code=Code.NOT_ON_BREAK,
            )
        old_unit = tournament.unit_in_play
        try:
            check_units(old_unit, chip_unit)
        except ValueError as error:
            raise Invalid(plan_message(error), code=Code.CHIP_UNIT) from error
        _amounts_check(tournament, chip_unit)
        tables = open_tables_for_update(tournament)
        busy = sorted(locked.tt.number for locked in tables if locked.in_hand)
        if busy:
            raise Conflict(
                _("tables %(names)s are finishing a hand: colour up when they are done")
                % {"names": ", ".join(map(str, busy))},
                code=Code.IN_HAND,
            )
        seed = secrets.token_bytes(16)
        rng = SeededShuffler(seed)
        logged, removed = [], 0
        for locked in sorted(tables, key=lambda t: t.tt.number):
            seats = {
                s.number: s for s in Seat.objects.filter(table=locked.table, player__isnull=False)
            }
            stacks = {number: seat.stack for number, seat in seats.items()}
            odd = [n for n, stack in stacks.items() if stack % old_unit]
            if odd:
                raise Conflict(
                    _(
                        "table %(number)s seat %(value)s has %(value2)s chips, not a multiple "
                        "of %(old_unit)s: correct the count first"
                    )
                    % {
                        "number": locked.tt.number,
                        "value": odd[0],
                        "value2": stacks[odd[0]],
                        "old_unit": old_unit,
                    },
                    code=Code.ODD_STACK,
                )
            if not stacks:
                continue
            result = race(stacks, old_unit=old_unit, new_unit=chip_unit, rng=rng)
            for number, stack in result.stacks.items():
                if stack != stacks[number]:
                    Seat.objects.filter(pk=seats[number].pk).update(stack=stack)
            removed += result.removed
            logged.append(
                {
                    "table": locked.tt.number,
                    "before": {str(n): s for n, s in sorted(stacks.items())},
                    "after": {str(n): s for n, s in sorted(result.stacks.items())},
                    "winners": list(result.winners),
                    "not_raced_out": list(result.not_raced_out),
                    "removed": result.removed,
                }
            )
        tournament.smallest_chip = chip_unit
        tournament.chips_adjusted -= removed
        tournament.save()
        event_append(
            tournament,
            "color_up",
            {
                "from_unit": old_unit,
                "to_unit": chip_unit,
                "seed": seed.hex(),
                "tables": logged,
                "chips_delta": -removed,
            },
        )
        tournament_refresh(tournament, now=now)
        return tournament


def _amounts_check(tournament: Tournament, unit: int) -> None:
    """400 unless every chip amount still to come is a multiple of ``unit``: the stakes of
    the level in force and the levels after it, and the chips still for sale."""
    entries = schedule_entries(tournament.schedule_id)
    for index in range(tournament.level_index, len(entries)):
        entry = entries[index]
        if entry.is_break:
            continue
        for name in STAKE_FIELDS:
            amount = getattr(entry, name)
            if amount % unit:
                raise Invalid(
                    _(
                        "level %(level_number)s: %(name)s %(amount)s is not a multiple of "
                        "%(unit)s: change the levels to come in settings/ first"
                    )
                    % {
                        "level_number": level_number(entries, index),
                        "name": name,
                        "amount": amount,
                        "unit": unit,
                    },
                    code=Code.CHIP_UNIT,
                )
    for name, is_open in (
        ("starting_stack", late_registration_open(tournament) or re_entry_open(tournament)),
        ("rebuy_chips", rebuy_open(tournament)),
        ("add_on_chips", add_on_open(tournament)),
    ):
        amount = getattr(tournament, name)
        if is_open and amount % unit:
            raise Invalid(
                _("%(name)s %(amount)s is still sold and is not a multiple of %(unit)s")
                % {"name": name, "amount": amount, "unit": unit},
                code=Code.CHIP_UNIT,
            )


def _ms(delta: timedelta) -> int:
    return max(0, int(delta.total_seconds() * 1000))
