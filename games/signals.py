"""Signals other apps (the tournament side) listen to; games never imports them back.

``hand_finished`` is sent inside the settling transaction with ``table_id`` and ``hand_id``;
receivers that lock other rows must defer that work with ``transaction.on_commit`` to keep
the lock order (tournament > table).
"""

from django.dispatch import Signal

hand_finished = Signal()
