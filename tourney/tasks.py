"""Tasks of the tournaments: the update and the clock tick.

Tournament tasks take ids and re-check everything under the tournament lock, so a
duplicate, late or redelivered run changes nothing that was already done.
"""

from celery import shared_task
from django.core.cache import cache
from django.db.models import Q
from django.utils import timezone

from games.models import TableStatus
from tourney.models import Status, Tournament
from tourney.services.commands.draw import tournament_start_scheduled
from tourney.services.update import tournament_update as update

UPDATE_QUEUED_SECONDS = 30
"""How long a queued update stops others being queued; should it be lost, the beat tick
(every 2 s) updates the tournament anyway."""


def _queued_key(tournament_id: int) -> str:
    return f"tourney:update-queued:{tournament_id}"


def tournament_update_soon(tournament_id: int, *, after: float = 0) -> None:
    """Queue the tournament's update (to run ``after`` seconds from now) unless one is queued
    and has not started yet.

    Many tables end hands at once in a big tournament: each update takes the tournament's
    lock and looks at every table, so one update serves all the hands that ended before it
    started, instead of one update per hand queueing on the lock.
    """
    if cache.add(_queued_key(tournament_id), 1, timeout=UPDATE_QUEUED_SECONDS):
        tournament_update.apply_async((tournament_id,), countdown=after or None)


BUSY_AGAIN_SECONDS = 0.2
"""When an update finds another one running, it is queued again to run this much later
(about one pass of a big field's): the one running may have read the tables before the
hands that queued this one ended."""


@shared_task(acks_late=True)
def tournament_update(tournament_id: int) -> str:
    """Hands ended at the tournament's tables: eliminations, moves, holds. Never waits for
    an update already running (the worker deals other tables' hands meanwhile): it runs
    again after it."""
    cache.delete(_queued_key(tournament_id))  # hands ending from now on queue another
    status = update(tournament_id=tournament_id, unless_busy=True)
    if status is None:
        tournament_update_soon(tournament_id, after=BUSY_AGAIN_SECONDS)
        return "another update is running: queued again"
    return status


@shared_task
def tournament_tick() -> int:
    """Beat's tick (every ~2 s): start the tournaments whose scheduled start has passed,
    move every live clock on and catch up on lost updates. Returns how many tournaments it
    updated (not those it found updating)."""
    due = Tournament.objects.filter(
        status=Status.REGISTERING, scheduled_start__lte=timezone.now()
    ).values_list("id", flat=True)
    for tournament_id in list(due):
        tournament_start_scheduled(tournament_id=tournament_id)
    active = Q(status__in=[Status.RUNNING, Status.PAUSED]) | Q(
        status__in=[Status.FINISHED, Status.CANCELLED],
        tables__table__status__in=[TableStatus.OPEN, TableStatus.PAUSED],
    )
    ids = list(Tournament.objects.filter(active).values_list("id", flat=True).distinct())
    # a tournament whose update is running is left to it
    return sum(update(tournament_id=i, unless_busy=True) is not None for i in ids)
