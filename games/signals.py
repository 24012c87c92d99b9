"""Signals other apps (the tournament side) listen to; games never imports them back.

``hand_finished`` is sent inside the settling transaction with ``table_id``, ``hand_id``, the
table's ``kind`` (a ``TableKind``: a receiver for the other kind returns without a query) and
``busted`` (a player at the table has no chips left, as settled; a ring game frees such seats)
and ``in_game`` (the table is one of a ring game's, ``games.rows.TableRead.in_game``);
receivers that lock other rows must defer that work with ``transaction.on_commit`` to keep
the lock order (tournament > table). A receiver that held the table (set its ``hold_reason``)
returns True: no advance is then sent for the table's next hand, which would find it held;
whoever releases the hold advances it.

``seed_reveal_asked`` is sent with ``hand`` before a finished hand's server seed is shown to
players under the reveal policy; a receiver that answers False keeps it secret for now (the
tournament side does while the hand's tournament is still being played).
"""

from django.dispatch import Signal

hand_finished = Signal()
seed_reveal_asked = Signal()

# ``seat_changed`` is sent inside the seating transaction (the table locked) with ``table_id``,
# ``seat``, ``player_id`` and ``taken`` (True: sat down, False: the seat is free now); the
# floor listens to call the next name. Seats freed when a hand settles come with
# ``hand_finished`` instead.
seat_changed = Signal()
