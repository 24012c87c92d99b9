"""The event log's keys to its table and hand are not database constraints (a check per event
row cost the database 40% of writing a hand, ``TableEvent``): the code that writes the log
keeps them, and deleting a table through the ORM still takes its hands and events with it."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, connection, transaction

from games.models import Hand, Table, TableEvent
from games.services import hands
from games.services.seating import seat_leave, seat_sit
from tests.games.factories import make_player, make_table

pytestmark = pytest.mark.django_db


def _played_table() -> Table:
    """A ring table where bots played hands around a human who then left mid-hand."""
    table = make_table()
    for n, kind in enumerate(["random", "station", "rules"], start=1):
        seat_sit(
            table_id=table.id,
            player=make_player(bot=kind),
            seat_number=n,
            buy_in=200,
            by_staff=True,
        )
    human = make_player()
    seat_sit(table_id=table.id, player=human, seat_number=4, buy_in=200)
    for _ in range(6):
        hands.table_advance(table.id)
    seat_leave(table_id=table.id, player=human)
    for _ in range(4):
        hands.table_advance(table.id)
    return table


def test_every_event_names_its_own_table_and_one_of_that_tables_hands():
    table = _played_table()
    other = _played_table()

    events = TableEvent.objects.filter(table__in=[table, other])
    hand_tables = dict(Hand.objects.values_list("id", "table_id"))

    assert events.count() > 100 and Hand.objects.count() >= 4
    assert set(events.values_list("table_id", flat=True)) == {table.id, other.id}
    for table_id, hand_id in events.exclude(hand=None).values_list("table_id", "hand_id"):
        assert hand_tables[hand_id] == table_id
    assert events.filter(kind="hand_start").count() == Hand.objects.count()


def test_deleting_a_table_through_the_orm_leaves_no_event_behind():
    table = _played_table()
    kept = _played_table()
    kept_events = TableEvent.objects.filter(table=kept).count()

    Table.objects.filter(pk=table.pk).delete()

    with connection.cursor() as cursor:  # the rows themselves, past any ORM filter
        cursor.execute(f"SELECT table_id, hand_id FROM {TableEvent._meta.db_table}")
        left = cursor.fetchall()
    assert {table_id for table_id, _ in left} == {kept.id}
    assert len(left) == kept_events
    assert set(Hand.objects.values_list("table_id", flat=True)) == {kept.id}


@pytest.mark.django_db(transaction=True)
def test_the_log_keyed_by_table_and_seq_migrates_both_ways_keeping_its_rows():
    from django.db.migrations.executor import MigrationExecutor

    table = _played_table()
    rows_before = list(TableEvent.objects.values_list("table_id", "seq", "hand_id", "kind", "data"))
    latest = MigrationExecutor(connection).loader.graph.leaf_nodes("games")
    migrations = [("games", "0008_table_chip_unit")], latest
    try:
        for target in migrations:
            executor = MigrationExecutor(connection)
            executor.migrate(target)
    finally:
        MigrationExecutor(connection).migrate(latest)

    assert list(TableEvent.objects.values_list("table_id", "seq", "hand_id", "kind", "data")) == (
        rows_before
    )
    assert [field.name for field in TableEvent._meta.pk.fields] == ["table", "seq"]
    with pytest.raises(IntegrityError), transaction.atomic():  # the key is the database's
        TableEvent.objects.create(table=table, seq=1, kind="sit", data={})
