"""Receivers of tourney's signals.

``tournament_finished``: a finished tournament attached to a season enters its results by
itself, right after the finish commits (``robust``: a failure is logged and kept on the
event, never undoes the tournament's finish).

``entry_bought`` and ``entries_refunded``: an entry of a season's tournament pays the league
fee into the season pot, and a refunded one gets it back, in the tournament's own
transaction (a fee the player cannot pay refuses the registration).
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.dispatch import receiver

from leagues.services.events import tournament_results_enter
from leagues.services.fees import tournament_fees_charge, tournament_fees_refund
from tourney.signals import entries_refunded, entry_bought, tournament_finished


@receiver(tournament_finished, dispatch_uid="leagues.tournament_finished")
def on_tournament_finished(sender: Any, tournament_id: int, **kwargs: Any) -> None:
    transaction.on_commit(lambda: tournament_results_enter(tournament_id), robust=True)


@receiver(entry_bought, dispatch_uid="leagues.entry_bought")
def on_entry_bought(sender: Any, tournament: Any, entry: Any, **kwargs: Any) -> None:
    tournament_fees_charge(tournament, [entry])


@receiver(entries_refunded, dispatch_uid="leagues.entries_refunded")
def on_entries_refunded(sender: Any, tournament: Any, entries: Any, **kwargs: Any) -> None:
    tournament_fees_refund(tournament, entries)
