"""How a hand's row is stored: its snapshot compressed with LZ4 on PostgreSQL
(``games/migrations/0010_hand_snapshot_lz4.py``), and read back as written."""

from __future__ import annotations

import pytest
from django.db import connection

from games import selectors
from games.models import Hand
from games.services import hands
from tests.games.factories import make_player, make_table, seat_players

pytestmark = pytest.mark.django_db


def _lz4_available() -> bool:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT 'lz4' = ANY(enumvals) FROM pg_settings WHERE name = 'default_toast_compression'"
        )
        return bool(cursor.fetchone()[0])


@pytest.mark.skipif(connection.vendor != "postgresql", reason="TOAST compression is PostgreSQL's")
def test_a_finished_hands_snapshot_is_stored_with_lz4_and_reads_back_whole():
    if not _lz4_available():
        pytest.skip("this PostgreSQL was built without LZ4: the snapshot keeps pglz")
    table = make_table()
    seat_players(table, [make_player(bot="station") for _ in range(3)], buy_in=200)
    assert hands.table_advance(table.id) == "hand finished"
    hand = Hand.objects.get(table=table)

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_column_compression(snapshot), octet_length(snapshot::text) "
            "FROM games_hand WHERE id = %s",
            [hand.pk],
        )
        method, length = cursor.fetchone()

    assert length > 2000 and method == "lz4"  # large enough to be compressed, and with LZ4
    assert selectors.hand_state(hand) == selectors.hand_state_from_events(hand)
