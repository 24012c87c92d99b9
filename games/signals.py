"""Signals other apps (the tournament side) listen to; games never imports them back.

``hand_finished`` is sent inside the settling transaction with ``table_id`` and ``hand_id``;
receivers that lock other rows must defer that work with ``transaction.on_commit`` to keep
the lock order (tournament > table).
"""

from django.dispatch import Signal

hand_finished = Signal()

# ``seat_changed`` is sent inside the seating transaction (the table locked) with ``table_id``,
# ``seat``, ``player_id`` and ``taken`` (True: sat down, False: the seat is free now); the
# floor listens to call the next name. Seats freed when a hand settles come with
# ``hand_finished`` instead.
seat_changed = Signal()
