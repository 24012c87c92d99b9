"""Receivers of games' signals: a hand ended at a tournament table; may a hand's seed go
public.

The signal arrives inside the settling transaction, which holds the table's lock. Locking
the tournament there would break the lock order (tournament > table), so the receiver only
holds the table (no new hand until the tournament has looked at this one) and asks for the
tournament's update after commit; hands ending together at many tables share one update.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.dispatch import receiver

from games.models import Hand, Table
from games.signals import hand_finished, seed_reveal_asked
from tourney import tasks
from tourney.models import Status, TournamentTable

AFTER_HAND = "tournament: after the hand"
"""The hold a tournament table gets when its hand ends, until the tournament updates."""


@receiver(hand_finished, dispatch_uid="tourney.hand_finished")
def on_hand_finished(sender: Any, table_id: int, hand_id: int, **kwargs: Any) -> None:
    """Hold a tournament table after its hand and update its tournament after commit."""
    tournament_id = (
        TournamentTable.objects.filter(table_id=table_id)
        .values_list("tournament_id", flat=True)
        .first()
    )
    if tournament_id is None:
        return
    Table.objects.filter(pk=table_id).update(hold_reason=AFTER_HAND)
    transaction.on_commit(lambda: tasks.tournament_update_soon(tournament_id))


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
