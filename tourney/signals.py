"""Signals the tournament side sends for the apps above it (leagues); tourney never
imports them back.

``tournament_finished`` is sent inside the finishing transaction, with ``tournament_id``,
once the winner and every place are recorded; receivers that do more than note it defer
their work with ``transaction.on_commit``.

``entry_bought`` (``tournament``, ``entry``: a registration or a re-entry, just paid for)
and ``entries_refunded`` (``tournament``, ``entries``: unregistering, cancelling, just
refunded) are sent inside the paying transaction, under the tournament lock, so a receiver
can move money with them; a receiver that raises refuses the whole purchase or refund (a
league fee the player cannot pay refuses their registration).
"""

from django.dispatch import Signal

tournament_finished = Signal()
entry_bought = Signal()
entries_refunded = Signal()
