"""Receivers of games' signals: a hand ended at a tournament table; may a hand's seed go
public.

The signal arrives inside the settling transaction, which holds the table's lock. Locking
the tournament there would break the lock order (tournament > table), and would make every
table's hand wait on the others': a hand that changes nothing the tournament decides on
(``tourney.services.steps.hand_end``) lets its table deal on; after any other the receiver
holds the table (no new hand until the tournament has looked at this one) and asks for the
tournament's update after commit; hands ending together at many tables share one update.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.dispatch import receiver
from django.utils import timezone

from games.models import Hand, TableKind
from games.signals import hand_finished, seed_reveal_asked
from tourney import tasks
from tourney.models import Status, TournamentTable
from tourney.services.steps.hand_end import hand_end


@receiver(hand_finished, dispatch_uid="tourney.hand_finished")
def on_hand_finished(
    sender: Any, table_id: int, hand_id: int, kind: str, busted: bool, **kwargs: Any
) -> bool:
    """Hold a tournament table after a hand its tournament must look at, and update the
    tournament after commit; returns whether the table is held (the update pass that
    releases it advances it)."""
    if kind != TableKind.TOURNAMENT:
        return False
    tournament_id = hand_end(table_id, timezone.now(), busted=busted)
    if tournament_id is None:
        return False
    transaction.on_commit(lambda: tasks.tournament_update_soon(tournament_id))
    return True


@receiver(seed_reveal_asked, dispatch_uid="tourney.seed_reveal_asked")
def on_seed_reveal_asked(sender: Any, hand: Hand, **kwargs: Any) -> bool:
    """A tournament hand's seed stays secret until its tournament is over: it would show the
    mucked cards of players still in the event, even after their table has closed."""
    status = (
        TournamentTable.objects.filter(table_id=hand.table_id)
        .values_list("tournament__status", flat=True)
        .first()
    )
    return status is None or status in (Status.FINISHED, Status.CANCELLED)
