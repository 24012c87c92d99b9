"""Receiver of tourney's ``tournament_finished``: a finished tournament attached to a season
enters its results by itself, right after the finish commits (``robust``: a failure is
logged and kept on the event, never undoes the tournament's finish)."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.dispatch import receiver

from leagues.services.events import tournament_results_enter
from tourney.signals import tournament_finished


@receiver(tournament_finished, dispatch_uid="leagues.tournament_finished")
def on_tournament_finished(sender: Any, tournament_id: int, **kwargs: Any) -> None:
    transaction.on_commit(lambda: tournament_results_enter(tournament_id), robust=True)
