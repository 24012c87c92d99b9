"""The clock's commands: pause and resume (the update pass moves the clock on,
``tourney.services.steps.clock``)."""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.errors import Conflict
from tourney.codes import Code
from tourney.models import Status, Tournament
from tourney.selectors import unscheduled_break_on
from tourney.services.steps.locks import tournament_for_update
from tourney.services.steps.log import event_append
from tourney.services.update import tournament_refresh


def tournament_pause(*, tournament_id: int) -> Tournament:
    """Stop the clock (its time left is kept) and hold every table after its hand."""
    with transaction.atomic():
        tournament = tournament_for_update(tournament_id)
        if tournament.status != Status.RUNNING:
            raise Conflict(
                _("the tournament is %(status)s, not running")
                % {"status": tournament.get_status_display()},
                code=Code.NOT_RUNNING,
            )
        if unscheduled_break_on(tournament):
            raise Conflict(
                _(
                    "an unscheduled break is on (the tables already wait): lengthen it "
                    'with the clock\'s "add_time", or end it with "end_break"'
                ),
                code=Code.ON_BREAK,
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
    with transaction.atomic():
        tournament = tournament_for_update(tournament_id)
        if tournament.status != Status.PAUSED:
            raise Conflict(
                _("the tournament is %(status)s, not paused")
                % {"status": tournament.get_status_display()},
                code=Code.NOT_PAUSED,
            )
        now = timezone.now()
        if tournament.paused_remaining_ms is not None:
            tournament.level_ends_at = now + timedelta(milliseconds=tournament.paused_remaining_ms)
        tournament.paused_remaining_ms = None
        tournament.status = Status.RUNNING
        tournament.save()
        event_append(tournament, "resumed", {"ends_at": str(tournament.level_ends_at)})
        tournament_refresh(tournament, now=now)
        return tournament
