"""The hot path's hand-built SQL (``games.rows``) reads and writes exactly what the ORM would.

Every field of every model it builds is compared with the ORM's instance of the same row
(dates, binary seeds and JSON included), on SQLite here and on PostgreSQL in CI.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import IntegrityError, connection, transaction
from django.db.models import Model, signals
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from rest_framework.authtoken.models import Token

from games import rows
from games.errors import NotFound
from games.locks import table_for_update
from games.models import GameTable, Hand, Player, Seat, Table
from games.services import hands
from games.services.seating import seat_sit
from tests.games.factories import make_player, make_table
from tests.games.floor import make_game, tables_of

pytestmark = pytest.mark.django_db


def fields_of(instance: Model) -> dict[str, Any]:
    values = {f.attname: getattr(instance, f.attname) for f in instance._meta.concrete_fields}
    return {k: bytes(v) if isinstance(v, memoryview) else v for k, v in values.items()}


def a_table_with_a_human_to_act() -> Table:
    table = make_table()
    seat_sit(table_id=table.id, player=make_player("alice"), seat_number=2, buy_in=100)
    bot = make_player(bot="station")
    seat_sit(table_id=table.id, player=bot, seat_number=5, buy_in=100, by_staff=True)
    hands.table_advance(table.id)
    return table


def test_the_locked_table_and_its_running_hand_are_the_orms_rows():
    table = a_table_with_a_human_to_act()
    with transaction.atomic():
        locked = table_for_update(table.id)
        hand = rows.running_hand(locked)
    assert hand is not None and hand.table is locked
    assert rows.table_seq(table.id) == locked.seq > 0
    assert fields_of(locked) == fields_of(Table.objects.get(pk=table.id))
    assert fields_of(hand) == fields_of(Hand.objects.get(pk=hand.pk))
    assert isinstance(hand.snapshot, dict) and isinstance(hand.lineup, list)
    assert len(bytes(hand.seed)) == 32 and len(bytes(locked.next_seed)) == 32


def test_a_table_without_a_running_hand_has_none():
    table = make_table()
    read = rows.table(table.id)
    assert read is not None and fields_of(read) == fields_of(Table.objects.get(pk=table.id))
    assert rows.running_hand(read) is None


@pytest.mark.parametrize("table_id", [987654, 0, -1, 2**63, -(2**63) - 1, 10**30])
def test_a_missing_table_is_none_whatever_its_number(table_id: int):
    assert rows.table(table_id) is None and rows.table_seq(table_id) is None


def test_locking_a_missing_table_is_a_404():
    with transaction.atomic(), pytest.raises(NotFound, match="no table 987654"):
        table_for_update(987654)


@pytest.mark.django_db(transaction=True)
def test_locking_outside_a_transaction_is_refused():
    with pytest.raises(transaction.TransactionManagementError, match="inside transaction"):
        table_for_update(make_table().id)


def test_update_writes_the_named_fields_and_nothing_else():
    table = a_table_with_a_human_to_act()
    hand = Hand.objects.get(table=table, status="running")
    deadline = timezone.now() + timedelta(minutes=3)
    hand.deadline, hand.cards_used, hand.rake = deadline, 11, 7
    hand.snapshot = {**hand.snapshot, "probe": ["ä", 1]}
    rows.update(hand, ["deadline", "snapshot", "cards_used"])
    stored = Hand.objects.get(pk=hand.pk)
    assert stored.deadline == deadline and stored.cards_used == 11
    assert stored.snapshot["probe"] == ["ä", 1]
    assert stored.rake == 0  # not named: not written


def test_update_each_writes_every_row_as_bulk_update_would_and_only_those():
    tables = [make_table(name=f"t{n}") for n in range(3)]
    for n, table in enumerate(tables[:2]):
        table.hold_reason, table.pause_ms, table.name = "break", 700 + n, "not written"
    with CaptureQueriesContext(connection) as queries:
        rows.update_each(tables[:2], ["hold_reason", "pause_ms"])
    assert len(queries.captured_queries) == 1
    stored = {t.pk: t for t in Table.objects.filter(pk__in=[t.pk for t in tables])}
    assert [(stored[t.pk].hold_reason, stored[t.pk].pause_ms) for t in tables[:2]] == [
        ("break", 700),
        ("break", 701),
    ]
    assert {stored[t.pk].name for t in tables[:2]} == {"t0", "t1"}
    untouched = Table.objects.get(pk=tables[2].pk)
    assert (untouched.hold_reason, untouched.pause_ms) == ("", tables[2].pause_ms)


def test_update_each_finds_rows_by_the_fields_named():
    table = make_table(seat_count=4)
    player = make_player("yan")
    seat = Seat(table_id=table.id, number=2, player_id=player.id, stack=450, leaving=True)
    rows.update_each([seat], ["player", "stack", "leaving"], by=("table", "number"))
    stored = {s.number: s for s in Seat.objects.filter(table=table)}
    assert (stored[2].player_id, stored[2].stack, stored[2].leaving) == (player.id, 450, True)
    assert all(stored[n].player_id is None for n in (1, 3, 4))


def test_update_each_of_nothing_sends_nothing():
    with CaptureQueriesContext(connection) as queries:
        rows.update_each([], ["stack"])
    assert queries.captured_queries == []


def test_a_read_tells_whether_the_table_is_one_of_a_games_in_the_same_statement():
    alone, (in_game,) = make_table(), tables_of(make_game())
    with transaction.atomic(), CaptureQueriesContext(connection) as queries:
        reads = [rows.table_read(table.id, lock=True) for table in (alone, in_game)]
    assert [read.in_game for read in reads if read is not None] == [False, True]
    assert len(queries.captured_queries) == 2 * 3  # the table's, its hand's, its seats'
    assert GameTable.objects.filter(table=in_game).exists()


@pytest.mark.parametrize("model", [Table, Hand, Seat, Player])
def test_no_receiver_listens_to_saves_of_the_rows_written_without_the_orm(model: type[Model]):
    """``rows.update`` sends no save signals: a receiver added for these models would be
    silently skipped on the hot path, so adding one must fail here first."""
    for signal in (signals.pre_save, signals.post_save):
        assert not signal.has_listeners(model), f"{signal} has a receiver for {model.__name__}"


def test_insert_writes_every_field_and_sets_the_key():
    table = a_table_with_a_human_to_act()
    model = Hand.objects.get(table=table, status="running")
    copy = Hand(
        table=table,
        number=model.number + 1,
        status="finished",
        lineup=model.lineup,
        header=model.header,
        snapshot=model.snapshot,
        seed=bytes(model.seed),
        commitment=model.commitment,
        client_seeds=["x", "ü"],
        card_root=model.card_root,
    )
    rows.insert(copy)
    assert copy.pk is not None and copy.pk != model.pk and not copy._state.adding
    assert copy.started_at is not None  # auto_now_add, as save() would set it
    assert fields_of(Hand.objects.get(pk=copy.pk)) == fields_of(copy)

    keyed = Hand(**{**fields_of(copy), "id": copy.pk + 1000, "number": copy.number + 1})
    rows.insert(keyed)
    assert keyed.pk == copy.pk + 1000 and not keyed._state.adding
    assert fields_of(Hand.objects.get(pk=keyed.pk)) == fields_of(keyed)


@pytest.mark.parametrize("lock", [False, True])
def test_one_read_gives_the_table_its_running_hand_and_its_seats_as_the_orm(lock: bool):
    table = a_table_with_a_human_to_act()
    with transaction.atomic():
        read = rows.table_read(table.id, lock=lock)
    assert read is not None
    assert fields_of(read.table) == fields_of(Table.objects.get(pk=table.id))
    assert read.hand is not None and read.hand.table is read.table
    assert fields_of(read.hand) == fields_of(Hand.objects.get(pk=read.hand.pk))
    orm = Seat.objects.filter(table=table).select_related("player").order_by("number")
    assert list(read.seats) == [seat.number for seat in orm]
    for seat in orm:
        built = read.seats[seat.number]
        assert fields_of(built) == fields_of(seat) and built.table is read.table
        assert (built.player and fields_of(built.player)) == (
            seat.player and fields_of(seat.player)
        )


def test_a_read_without_seats_or_without_a_hand_has_none_of_them():
    table = make_table()
    with transaction.atomic():
        bare = rows.table_read(table.id, lock=True, with_seats=False)
    assert bare is not None and bare.hand is None and bare.seats == {}
    assert set(rows.table_read(table.id).seats) == set(range(1, table.seat_count + 1))


@pytest.mark.parametrize("table_id", [987654, 0, 2**63, 10**30])
def test_a_read_of_a_missing_table_is_none(table_id: int):
    assert rows.table_read(table_id) is None


@pytest.mark.django_db(transaction=True)
def test_a_locking_read_outside_a_transaction_is_refused():
    with pytest.raises(transaction.TransactionManagementError, match="inside transaction"):
        rows.table_read(make_table().id, lock=True)


def test_a_token_comes_with_its_user_and_the_users_player_as_the_orm():
    player = make_player("carol")
    key = Token.objects.create(user=player.user).key

    found = rows.token(key)

    orm = Token.objects.select_related("user__player").get(key=key)
    assert found is not None
    assert fields_of(found) == fields_of(orm) and fields_of(found.user) == fields_of(orm.user)
    with CaptureQueriesContext(connection) as queries:
        assert fields_of(found.user.player) == fields_of(player)
    assert len(queries) == 0


def test_a_token_of_a_user_without_a_player_says_so_without_a_query():
    user = get_user_model().objects.create_user(username="staff-only")
    found = rows.token(Token.objects.create(user=user).key)

    assert found is not None and found.user.pk == user.pk
    with CaptureQueriesContext(connection) as queries, pytest.raises(Player.DoesNotExist):
        found.user.player  # noqa: B018 (the access is what is tested)
    assert len(queries) == 0


@pytest.mark.parametrize("key", ["", "nope", "x" * 40, "'; DROP TABLE games_table; --"])
def test_an_unknown_token_is_none(key: str):
    make_player("dave")
    assert rows.token(key) is None


postgresql_only = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="pipeline mode is PostgreSQL's"
)


@postgresql_only
def test_a_pipelined_block_inside_another_sends_with_the_outer_one():
    table = make_table()
    with transaction.atomic(), rows.pipelined():
        with rows.pipelined():
            rows.update(Table(pk=table.pk, name="renamed"), ["name"])
        assert connection.connection.pgconn.pipeline_status  # not sent on its own
        assert rows.table_read(table.id, with_seats=False).table.name == "renamed"
    assert not connection.connection.pgconn.pipeline_status


@postgresql_only
def test_a_pipelined_statements_error_is_djangos_and_fails_the_transaction():
    table = make_table()
    with pytest.raises(IntegrityError), transaction.atomic(), rows.pipelined():
        rows.update(Table(pk=table.pk, name=None), ["name"])  # NOT NULL
        rows.update(Table(pk=table.pk, seat_count=3), ["seat_count"])
    assert Table.objects.get(pk=table.pk).seat_count == table.seat_count


@postgresql_only
def test_a_key_is_reserved_only_for_a_table_without_a_running_hand():
    busy, idle = a_table_with_a_human_to_act(), make_table()
    with transaction.atomic():
        assert rows.table_read(busy.id, lock=True, with_hand_key=True).hand_key is None
        first = rows.table_read(idle.id, lock=True, with_hand_key=True).hand_key
        second = rows.table_read(idle.id, lock=True, with_hand_key=True).hand_key
    assert first is not None and second is not None and second > first
    assert rows.table_read(idle.id).hand_key is None  # not asked for


@postgresql_only
def test_a_bot_hand_is_inserted_once_as_it_ends_and_never_updated():
    table = make_table()
    for seat in (1, 2, 3):
        bot = make_player(bot="rules")
        seat_sit(table_id=table.id, player=bot, seat_number=seat, buy_in=500, by_staff=True)
    with CaptureQueriesContext(connection) as queries:
        assert hands.table_advance(table.id) == "hand finished"
    hand_writes = [
        q["sql"].split(" (")[0]
        for q in queries.captured_queries
        if '"games_hand"' in q["sql"].split("SET")[0].split("(")[0]
        and q["sql"].startswith(("INSERT", "UPDATE"))
    ]
    assert hand_writes == ['INSERT INTO "games_hand"']
    hand = Hand.objects.get(table=table)
    assert hand.status == "finished" and hand.finished_at is not None
    assert hand.events.first().kind == "hand_start" and hand.events.first().data["hand"] == hand.pk
