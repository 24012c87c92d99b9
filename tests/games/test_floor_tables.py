"""Must-move games, seat and table changes, opening and breaking tables, rotation by orbit
and live tables: what the floor does with a game's tables."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import selectors
from games.errors import Conflict, Invalid, ServiceError
from games.models import (
    ChangeStatus,
    GameTable,
    OfferKind,
    PendingTableStatus,
    Player,
    Seat,
    Table,
    TableEvent,
    TableRole,
    TableStatus,
)
from games.services import hands, offers, waitlist
from games.services.floor_tables import game_table_confirm, live_report_left, rotation_step
from games.services.seating import seat_leave
from tests.games.factories import make_player
from tests.games.floor import (
    fill,
    fill_table,
    make_game,
    pending_offers,
    seated_ids,
    tables_of,
    waiting,
)

pytestmark = pytest.mark.django_db


def _seat_of(player_id: int) -> tuple[int, int]:
    seat = Seat.objects.get(player_id=player_id)
    return seat.table_id, seat.number


# ----------------------------------------------------------------------------- must-move


def test_a_main_seat_goes_to_the_longest_waiting_must_move_player_and_theirs_to_the_list():
    game = make_game(must_move=True)
    main, must_move = tables_of(game)
    assert GameTable.objects.get(table=must_move).role == TableRole.MUST_MOVE
    main_players = fill_table(main)
    mm_players = fill_table(must_move, 2, prefix="mm")  # seat 1 sat first
    listed = make_player("listed")
    entry = waitlist.entry_join(game_id=game.id, player=listed)
    fill(game)  # the must-move table's free seats go to the list
    [first_offer] = pending_offers(game)
    assert first_offer.table_id == must_move.id

    seat_leave(table_id=main.id, player=main_players[0])
    fill(game)

    stack = Seat.objects.get(player=mm_players[0]).stack
    assert _seat_of(mm_players[0].id) == (main.id, 1)  # moved between hands, stack kept
    assert stack == 100
    assert _seat_of(mm_players[1].id) == (must_move.id, 2)
    assert TableEvent.objects.filter(table=must_move, kind="move_out").count() == 1
    assert [o.entry_id for o in pending_offers(game)] == [entry.id]


def test_a_must_move_player_in_a_hand_moves_when_their_hand_is_over():
    game = make_game(must_move=True)
    main, must_move = tables_of(game)
    main_players = fill_table(main)
    mm_players = fill_table(must_move, 2, prefix="mm")
    hands.table_advance(must_move.id)  # a hand starts at the must-move table
    assert selectors.running_hand(must_move) is not None

    seat_leave(table_id=main.id, player=main_players[3])
    fill(game)
    [move] = pending_offers(game)
    assert (move.kind, move.mover_id, move.seat) == (OfferKind.MUST_MOVE, mm_players[0].id, 4)
    assert _seat_of(mm_players[0].id) == (must_move.id, 1)  # not mid-hand

    hand = selectors.running_hand(must_move)
    assert hand is not None
    hand.status = "finished"
    hand.save(update_fields=["status"])
    fill(game)
    assert _seat_of(mm_players[0].id) == (main.id, 4)


# ----------------------------------------------------------------------------- changes


def test_seat_changes_are_honoured_in_request_order_when_the_seat_opens():
    game = make_game(tables=2)
    one, two = tables_of(game)
    at_one = fill_table(one)
    at_two = fill_table(two, prefix="q")
    waitlist.change_request(table_id=one.id, player=at_one[0], to_table_id=two.id, to_seat=None)
    waitlist.change_request(table_id=one.id, player=at_one[1], to_table_id=two.id, to_seat=None)
    waitlist.change_request(table_id=two.id, player=at_two[0], to_table_id=None, to_seat=3)
    listed = make_player("listed")
    waitlist.entry_join(game_id=game.id, player=listed)

    seat_leave(table_id=two.id, player=at_two[2])  # seat 3 of table two opens
    fill(game)

    # the first change request for table two (any seat) came before the seat-3 request
    assert _seat_of(at_one[0].id) == (two.id, 3)
    assert _seat_of(at_one[1].id) == (one.id, 2)
    # seat 1 at table one freed by the move: nobody asked for it, so the list is called
    [offer] = pending_offers(game)
    assert (offer.table_id, offer.seat, offer.kind) == (one.id, 1, OfferKind.LIST)


def test_a_change_to_another_game_or_a_table_of_none_is_refused_and_changes_nothing():
    game = make_game()
    other = make_game(name="Razz", variant="razz", small_bet=10, big_bet=20, bring_in=3)
    table = tables_of(game)[0]
    [player] = fill_table(table, 1)
    with pytest.raises(Invalid) as refused:
        waitlist.change_request(
            table_id=table.id, player=player, to_table_id=tables_of(other)[0].id, to_seat=None
        )
    assert refused.value.code == "other_game"
    with pytest.raises(Conflict):
        waitlist.change_request(
            table_id=tables_of(other)[0].id, player=player, to_table_id=None, to_seat=2
        )
    assert not game.changes.exists() and not other.changes.exists()


def test_a_change_request_is_cancelled_when_its_player_leaves():
    game = make_game(tables=2)
    one, two = tables_of(game)
    [player] = fill_table(one, 1)
    at_two = fill_table(two, prefix="q")
    change = waitlist.change_request(
        table_id=one.id, player=player, to_table_id=two.id, to_seat=None
    )
    seat_leave(table_id=one.id, player=player)
    seat_leave(table_id=two.id, player=at_two[0])
    fill(game)
    change.refresh_from_db()
    assert change.status == ChangeStatus.CANCELLED
    assert Seat.objects.get(table=two, number=1).player_id is None


# ----------------------------------------------------------------------------- tables


def test_a_new_table_opens_when_the_list_is_long_and_no_seat_is_free():
    game = make_game(open_at_list_length=3, max_tables=2)
    fill_table(tables_of(game)[0])
    entries = [waitlist.entry_join(game_id=game.id, player=make_player()) for _ in range(5)]
    result = fill(game)
    assert (result.opened, result.offered) == (1, 4)
    assert len(tables_of(game)) == 2

    # 4 seats at the new table: the first four names are called
    assert [o.entry_id for o in pending_offers(game)] == [e.id for e in entries[:4]]
    # the game is at max_tables: a longer list opens nothing more
    for _ in range(4):
        waitlist.entry_join(game_id=game.id, player=make_player())
    fill(game)
    assert len(tables_of(game)) == 2


def test_live_games_propose_a_table_for_staff_to_confirm():
    game = make_game(mode="live", open_at_list_length=2)
    table = tables_of(game)[0]
    assert table.hold_reason  # live tables deal no cards
    fill_table(table)
    for _ in range(2):
        waitlist.entry_join(game_id=game.id, player=make_player())
    fill(game)
    assert len(tables_of(game)) == 1
    assert game.game_tables.filter(status=PendingTableStatus.PROPOSED).count() == 1

    game_table_confirm(game_id=game.id)
    fill(game)
    assert len(tables_of(game)) == 2
    assert len(pending_offers(game)) == 2
    with pytest.raises(Conflict):
        game_table_confirm(game_id=game.id)


def test_a_short_table_breaks_its_players_move_and_it_closes():
    game = make_game(tables=2, short_players=3, short_seconds=60)
    one, two = tables_of(game)
    fill_table(one, 2)
    fill_table(two, 2, prefix="q")
    fill(game)  # both short: clocks start
    GameTable.objects.filter(table=two).update(short_since=timezone.now() - timedelta(seconds=61))
    fill(game)

    one.refresh_from_db()
    two.refresh_from_db()
    assert sorted(
        Seat.objects.filter(table=one, player__isnull=False).values_list("number", flat=True)
    ) == [1, 2, 3, 4]
    assert two.status == TableStatus.CLOSED
    assert GameTable.objects.get(table=two).status == PendingTableStatus.CLOSED
    assert len(seated_ids(game)) == 4


def test_live_staff_report_who_left_and_the_next_name_is_called():
    game = make_game(mode="live")
    table = tables_of(game)[0]
    fill_table(table)
    entry = waitlist.entry_walk_in(game_id=game.id, name="Walk-in Wally", by=None)
    live_report_left(table_id=table.id, seat=2)
    fill(game)
    [offer] = pending_offers(game)
    assert (offer.entry_id, offer.seat) == (entry.id, 2)

    offers.offer_accept(entry_id=entry.id, caller=None, staff=True, buy_in=300)
    seat = Seat.objects.select_related("player").get(table=table, number=2)
    assert (seat.player.display_name, seat.stack) == ("Walk-in Wally", 300)
    assert not seat.player.user.has_usable_password()
    with pytest.raises(Conflict):
        live_report_left(table_id=table.id, seat=5)


def test_online_tables_are_not_reported_by_staff():
    game = make_game()
    table = tables_of(game)[0]
    fill_table(table, 1)
    with pytest.raises(Conflict) as refused:
        live_report_left(table_id=table.id, seat=1)
    assert refused.value.code == "not_live"


# ----------------------------------------------------------------------------- rotation


def test_rotation_by_orbit_announces_the_next_game_and_switches_between_hands():
    game = make_game(rotation=["stud_hi", "razz", "stud_8"])
    table = tables_of(game)[0]

    for _ in range(2):
        rotation_step(table_id=table.id, players=3)  # an orbit of three players
    assert list(TableEvent.objects.filter(kind="game_next").values_list("data", flat=True)) == [
        {"variant": "stud_hi", "next": "razz", "hands_left": 1}
    ]
    table.refresh_from_db()
    assert table.variant == "stud_hi"
    rotation_step(table_id=table.id, players=3)
    table.refresh_from_db()
    assert table.variant == "razz"
    assert TableEvent.objects.filter(kind="game_change").count() == 1


def test_rotation_every_n_hands_follows_the_game_and_a_real_hand_deals_the_new_variant():
    game = make_game(rotation=["stud_hi", "razz"], rotate_every_hands=1)
    table = tables_of(game)[0]
    fill_table(table, 2)
    hands.table_advance(table.id)
    hand = selectors.running_hand(table)
    assert hand is not None and hand.header["rules"]["variant"] == "stud_hi"
    _play_out(table.id)
    table.refresh_from_db()
    assert table.variant == "razz"
    hands.table_advance(table.id)
    hand = selectors.running_hand(table)
    assert hand is not None and hand.header["rules"]["variant"] == "razz"


def _play_out(table_id: int) -> None:
    """Everyone folds or checks until the hand ends (the worker's and players' part)."""
    for _ in range(200):
        table = Table.objects.get(pk=table_id)
        hand = selectors.running_hand(table)
        if hand is None:
            return
        state = selectors.hand_state(hand)
        i = state.candidates[0]
        option = hands.automatic_option(state)
        player = Player.objects.get(pk=hand.lineup[i]["player"])
        hands.hand_act(
            table_id=table_id, player=player, action=option.action, amount=option.to, seq=None
        )
        hands.table_advance(table_id)
    raise AssertionError("the hand did not end")


def test_joining_is_refused_for_a_seated_player_a_second_time_and_for_bots():
    game = make_game()
    table = tables_of(game)[0]
    [seated] = fill_table(table, 1)
    player = make_player()
    waitlist.entry_join(game_id=game.id, player=player)
    for who, code in (
        (seated, "already_seated"),
        (player, "already_listed"),
        (make_player(bot="random"), "bots"),
    ):
        with pytest.raises(ServiceError) as refused:
            waitlist.entry_join(game_id=game.id, player=who)
        assert refused.value.code == code
    assert len(waiting(game)) == 1
