"""Signals the tournament side sends for the apps above it (leagues); tourney never
imports them back.

``tournament_finished`` is sent inside the finishing transaction, with ``tournament_id``,
once the winner and every place are recorded; receivers that do more than note it defer
their work with ``transaction.on_commit``.
"""

from django.dispatch import Signal

tournament_finished = Signal()
