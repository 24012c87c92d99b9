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


def tournament_update_soon(tournament_id: int) -> None:
    """Queue the tournament's update unless one is queued and has not started yet.

    Many tables end hands at once in a big tournament: each update takes the tournament's
    lock and looks at every table, so one update serves all the hands that ended before it
    started, instead of one update per hand queueing on the lock.
    """
    if cache.add(_queued_key(tournament_id), 1, timeout=UPDATE_QUEUED_SECONDS):
        tournament_update.delay(tournament_id)


@shared_task(acks_late=True)
def tournament_update(tournament_id: int) -> str:
    """Hands ended at the tournament's tables: eliminations, moves, holds."""
    cache.delete(_queued_key(tournament_id))  # hands ending from now on queue another
    return update(tournament_id=tournament_id)


@shared_task
def tournament_tick() -> int:
    """Beat's tick (every ~2 s): start the tournaments whose scheduled start has passed,
    move every live clock on and catch up on lost updates. Returns how many tournaments it
    updated."""
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
    for tournament_id in ids:
        update(tournament_id=tournament_id)
    return len(ids)
