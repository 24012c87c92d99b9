"""Table balancing and breaking (tourney.planning.balancing): rules, then random bust-outs."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tourney.planning.balancing import (
    BalanceConfig,
    DeferredMove,
    Move,
    TableState,
    hand_for_hand_needed,
    plan_moves,
    seat_for_newcomer,
)


def table(number, players, capacity=8, in_hand=False, breaking=False):
    """A table whose players sit in seats 1..len(players), or at the given {seat: player}."""
    seats = players if isinstance(players, dict) else dict(enumerate(players, start=1))
    return TableState(number, capacity, seats, in_hand, breaking)


def names(prefix, count):
    return [f"{prefix}{i}" for i in range(1, count + 1)]


def test_a_table_breaks_as_soon_as_its_players_fit_at_the_others():
    # 16 players fit at two 8-seat tables: table 3 (highest first) breaks.
    tables = [table(1, names("a", 6)), table(2, names("b", 5)), table(3, names("c", 5))]
    plan = plan_moves(tables, random.Random(1))
    assert plan.breaking == (3,)
    assert plan.closed == (3,)
    assert sorted(move.player for move in plan.moves) == names("c", 5)
    assert {move.reason for move in plan.moves} == {"break"}
    arrivals = [move.to_table for move in plan.moves]
    assert sorted(arrivals) == [1, 1, 2, 2, 2]  # shortest first: ends 8 and 8


def test_no_table_breaks_while_the_players_need_every_table():
    tables = [table(1, names("a", 6)), table(2, names("b", 6)), table(3, names("c", 5))]
    plan = plan_moves(tables, random.Random(1))
    assert plan == plan_moves(tables, random.Random(2))
    assert plan.breaking == ()
    assert plan.moves == ()


def test_broken_players_take_random_open_seats_reproducibly():
    tables = [table(1, names("a", 6)), table(2, names("b", 5)), table(3, names("c", 5))]
    first = plan_moves(tables, random.Random(7))
    assert first == plan_moves(tables, random.Random(7))
    for move in first.moves:
        assert move.to_seat not in tables[move.to_table - 1].seats


def test_a_table_in_a_hand_breaks_after_the_hand():
    tables = [
        table(1, names("a", 6)),
        table(2, names("b", 5)),
        table(3, names("c", 5), in_hand=True),
    ]
    plan = plan_moves(tables, random.Random(1))
    assert plan.moves == ()
    assert plan.breaking == (3,)
    assert plan.closed == ()
    assert plan.deferred == (DeferredMove("break", 3, None, (3,)),) * 5
    assert 3 in plan.waiting


def test_random_break_order_draws_the_table_and_the_flag_keeps_it():
    tables = [table(n, names(f"t{n}-", 6)) for n in range(1, 5)]  # 24 players fit at 3 tables
    config = BalanceConfig(break_order="random")
    broken = {plan_moves(tables, random.Random(seed), config).breaking for seed in range(40)}
    assert broken == {(1,), (2,), (3,), (4,)}
    # Once flagged, the same table keeps breaking whatever the draw.
    flagged = [table(n, names(f"t{n}-", 6), breaking=n == 2, in_hand=n == 2) for n in range(1, 5)]
    assert {plan_moves(flagged, random.Random(s), config).breaking for s in range(10)} == {(2,)}


def test_an_empty_table_is_closed_first():
    tables = [table(1, names("a", 7)), table(2, []), table(3, names("c", 7)), table(4, ["d1"])]
    plan = plan_moves(tables, random.Random(3))
    assert plan.breaking == (2, 4)
    assert plan.closed == (2, 4)
    assert [(m.player, m.reason) for m in plan.moves] == [("d1", "break")]


def test_balance_moves_the_player_in_the_same_seat_as_the_open_seat():
    # At six or fewer tables the threshold is 1: 8 against 6 moves one player.
    tables = [table(1, names("a", 8)), table(2, {s: f"b{s}" for s in (1, 2, 4, 5, 6, 8)})]
    plan = plan_moves(tables, random.Random(1))
    assert plan.moves == (Move("a3", 1, 3, 2, 3, "balance"),)
    assert str(plan.moves[0]) == "table 1 seat 3 -> table 2 seat 3"


def test_when_that_seat_is_empty_the_next_player_clockwise_moves():
    giver = table(1, {s: f"a{s}" for s in (1, 2, 3, 4, 5, 6, 8)})
    receiver = table(2, {s: f"b{s}" for s in (1, 2, 3, 4, 5)})
    plan = plan_moves([giver, receiver], random.Random(1))
    # The open seat is 6 at table 2, and a6 sits in seat 6.
    assert plan.moves == (Move("a6", 1, 6, 2, 6, "balance"),)
    giver = table(1, {s: f"a{s}" for s in (1, 2, 3, 4, 5, 7, 8)})
    plan = plan_moves([giver, receiver], random.Random(1))
    assert plan.moves == (Move("a7", 1, 7, 2, 6, "balance"),)


def test_above_six_tables_the_threshold_is_two():
    full = [table(n, names(f"t{n}-", 8)) for n in range(1, 7)]
    assert plan_moves([*full, table(7, names("s", 6))], random.Random(1)).moves == ()
    plan = plan_moves([*full, table(7, names("s", 5))], random.Random(1))
    assert [(m.from_table, m.to_table, m.reason) for m in plan.moves] == [(6, 7, "balance")]


def test_at_six_tables_the_threshold_is_one_and_can_be_configured():
    tables = [*(table(n, names(f"t{n}-", 8)) for n in range(1, 6)), table(6, names("s", 6))]
    assert len(plan_moves(tables, random.Random(1)).moves) == 1
    assert plan_moves(tables, random.Random(1), BalanceConfig(threshold=2)).moves == ()


def test_ties_for_most_players_follow_the_giver_order():
    tables = [table(1, names("a", 8)), table(2, names("b", 8)), table(3, names("c", 6))]
    highest = plan_moves(tables, random.Random(1)).moves
    lowest = plan_moves(tables, random.Random(1), BalanceConfig(giver_order="lowest_first")).moves
    assert [m.from_table for m in highest] == [2]
    assert [m.from_table for m in lowest] == [1]


def test_a_giver_in_a_hand_is_skipped_for_a_tied_one_that_is_not():
    tables = [
        table(1, names("a", 8)),
        table(2, names("b", 8), in_hand=True),
        table(3, names("c", 6)),
    ]
    assert [m.from_table for m in plan_moves(tables, random.Random(1)).moves] == [1]


def test_moves_wait_for_hands_and_every_table_outside_the_threshold_waits_for_them():
    tables = [table(1, names("a", 8), in_hand=True), table(2, names("b", 5))]
    plan = plan_moves(tables, random.Random(1), BalanceConfig(threshold=1))
    assert plan.moves == ()
    assert plan.deferred == (DeferredMove("balance", 1, 2, (1,)),)
    assert plan.waiting == (1, 2)
    tables = [table(1, names("a", 8), in_hand=True), table(2, names("b", 6))]
    plan = plan_moves(tables, random.Random(1))
    assert plan.deferred == (DeferredMove("balance", 1, 2, (1,)),)
    assert plan.waiting == (1, 2)  # only 2 short, yet out of balance: no deal before the move


def test_a_table_inside_the_threshold_deals_on_while_a_move_waits():
    tables = [
        table(1, names("a", 8), in_hand=True),
        table(2, names("b", 7)),
        table(3, names("c", 5)),
    ]
    plan = plan_moves(tables, random.Random(1), BalanceConfig(threshold=2))
    assert plan.deferred == (DeferredMove("balance", 1, 3, (1,)),)
    assert plan.unbalanced == plan.waiting == (1, 3)


def test_every_tied_giver_waits_while_the_short_table_is_in_a_hand():
    tables = [
        table(1, names("a", 7)),
        table(2, names("b", 7)),
        table(3, names("c", 5), in_hand=True),
    ]
    plan = plan_moves(tables, random.Random(1), BalanceConfig(threshold=1))
    assert plan.moves == ()
    assert plan.unbalanced == plan.waiting == (1, 2, 3)


def test_a_table_out_of_balance_only_by_locked_seats_is_reported_and_deals_on():
    locked = TableState(
        1, 8, dict(enumerate(names("a", 7), start=1)), locked=frozenset(range(1, 8))
    )
    tables = [locked, table(2, names("b", 5))]
    plan = plan_moves(tables, random.Random(1), BalanceConfig(threshold=1))
    assert plan.moves == plan.deferred == ()
    assert plan.unbalanced == (1, 2)
    assert plan.waiting == ()


def test_a_short_table_in_a_hand_receives_after_its_hand():
    tables = [table(1, names("a", 8)), table(2, names("b", 6), in_hand=True)]
    plan = plan_moves(tables, random.Random(1))
    assert plan.moves == ()
    assert plan.deferred == (DeferredMove("balance", 1, 2, (2,)),)


def test_the_final_table_is_a_full_random_redraw():
    tables = [table(1, names("a", 4)), table(2, names("b", 3))]
    plan = plan_moves(tables, random.Random(5))
    assert plan.final_table == 1
    assert plan.closed == (2,)
    assert {m.reason for m in plan.moves} == {"final_table"}
    seats = {m.player: m.to_seat for m in plan.moves}
    for seat, player in tables[0].seats.items():
        seats.setdefault(player, seat)  # players whose seat did not change get no move
    assert sorted(seats) == sorted(names("a", 4) + names("b", 3))
    assert len(set(seats.values())) == 7
    assert all(1 <= seat <= 8 for seat in seats.values())
    assert plan != plan_moves(tables, random.Random(6))


def test_the_final_table_redraw_waits_for_every_hand():
    tables = [table(1, names("a", 4)), table(2, names("b", 3), in_hand=True)]
    plan = plan_moves(tables, random.Random(5))
    assert plan.moves == ()
    assert plan.final_table == 1
    assert plan.breaking == (2,)
    assert plan.waiting == (1, 2)
    assert plan.deferred == (
        DeferredMove("final_table", 1, 1, (2,)),
        DeferredMove("final_table", 2, 1, (2,)),
    )


def test_players_already_at_one_table_are_not_redrawn():
    plan = plan_moves([table(1, names("a", 5)), table(2, [])], random.Random(1))
    assert plan.moves == ()
    assert plan.closed == (2,)


def test_hand_for_hand_starts_on_the_bubble():
    assert hand_for_hand_needed(16, 15)
    assert not hand_for_hand_needed(17, 15)
    assert not hand_for_hand_needed(15, 15)
    assert hand_for_hand_needed(18, 15, extra_players=2)
    assert not hand_for_hand_needed(19, 15, extra_players=2)


def test_a_newcomer_gets_an_open_seat_at_the_shortest_table():
    tables = [table(1, names("a", 7)), table(2, names("b", 6)), table(3, names("c", 6))]
    number, seat = seat_for_newcomer(tables, random.Random(1))
    assert number == 2
    assert seat in (7, 8)
    full = [table(1, names("a", 8)), table(2, names("b", 2), breaking=True)]
    assert seat_for_newcomer(full, random.Random(1)) is None


def test_bad_tables_are_refused_with_a_clear_error():
    with pytest.raises(ValueError, match="9 seats"):
        table(1, names("a", 2), capacity=9)
    with pytest.raises(ValueError, match=r"outside 1\.\.6"):
        table(1, {7: "a"}, capacity=6)
    with pytest.raises(ValueError, match="seated at two seats"):
        plan_moves([table(1, ["a", "b"]), table(2, ["a"])], random.Random(1))
    with pytest.raises(ValueError, match="share a number"):
        plan_moves([table(1, ["a"]), table(1, ["b"])], random.Random(1))
    with pytest.raises(ValueError, match="break order"):
        BalanceConfig(break_order="lowest_first")


def simulate(players, capacity, seed, config):
    """Run random hands and bust-outs to one player, applying each plan; check every step.

    Tables start and end hands at random (a waiting or breaking table never starts one);
    each hand that ends may eliminate players; after each hand the planner is asked, and its
    moves are applied as one batch. Returns counts of what happened, to show what was tested.
    """
    rng = random.Random(seed)
    planner_rng = random.Random(seed + 1)
    table_count = -(-players // capacity)
    tables: dict[int, dict[int, int]] = {n: {} for n in range(1, table_count + 1)}
    for player in range(players):
        seats = tables[player % table_count + 1]
        seats[len(seats) + 1] = player
    alive = set(range(players))
    in_hand: set[int] = set()
    breaking: set[int] = set()
    waiting: set[int] = set()
    seen: Counter[str] = Counter()
    while len(alive) > 1:
        seen["steps"] += 1
        assert seen["steps"] < 50 * players, "the tournament stopped making progress"
        for number, seats in tables.items():
            if number in in_hand:
                if rng.random() < 0.5:
                    in_hand.discard(number)
                    for seat in rng.sample(
                        sorted(seats), min(len(seats), rng.choice((0, 0, 1, 2)))
                    ):
                        if len(alive) > 1:
                            alive.discard(seats.pop(seat))
            elif number not in waiting | breaking and len(seats) >= 2 and rng.random() < 0.6:
                in_hand.add(number)
        states = [
            TableState(n, capacity, dict(seats), n in in_hand, n in breaking)
            for n, seats in tables.items()
        ]
        plan = plan_moves(states, planner_rng, config)
        seen.update(move.reason for move in plan.moves)
        seen.update(f"deferred {move.reason}" for move in plan.deferred)
        seen["checked spread"] += not in_hand

        movers = [move.player for move in plan.moves]
        assert len(movers) == len(set(movers)), "a player got two moves"
        for move in plan.moves:
            assert move.from_table not in in_hand, "a player left a table during its hand"
            assert move.to_table not in in_hand, "a player joined a table during its hand"
            assert tables[move.from_table][move.from_seat] == move.player
        for move in plan.moves:
            del tables[move.from_table][move.from_seat]
        for move in plan.moves:
            assert move.to_seat not in tables[move.to_table], "two players in one seat"
            tables[move.to_table][move.to_seat] = move.player
        for number in plan.closed:
            assert not tables.pop(number), "a closed table still had players"
        breaking = set(plan.breaking) - set(plan.closed)
        waiting = set(plan.waiting)
        assert set(plan.unbalanced) <= waiting, "a table outside the threshold may deal"
        in_hand &= set(tables)

        seated = [player for seats in tables.values() for player in seats.values()]
        assert len(seated) == len(set(seated)) == len(alive) and set(seated) == alive
        assert all(1 <= s <= capacity for seats in tables.values() for s in seats)
        active = [seats for number, seats in tables.items() if number not in breaking]
        if len(active) > 1:
            # Broken as soon as the players fit at one fewer table.
            assert len(alive) > capacity * (len(active) - 1)
        if not in_hand and len(active) > 1:
            sizes = [len(seats) for seats in active]
            assert max(sizes) - min(sizes) <= config.threshold_for(len(active))
            assert not breaking, "a breaking table kept players with no hand in the way"
    return seen


@settings(max_examples=200, deadline=None)
@given(
    players=st.integers(2, 120),
    capacity=st.integers(2, 8),
    seed=st.integers(0, 2**32),
    break_order=st.sampled_from(["highest_first", "random"]),
    threshold=st.sampled_from([None, 1, 2, 3]),
    giver_order=st.sampled_from(["highest_first", "lowest_first"]),
)
def test_random_bust_outs_keep_every_table_legal(
    players, capacity, seed, break_order, threshold, giver_order
):
    config = BalanceConfig(break_order=break_order, threshold=threshold, giver_order=giver_order)
    assert simulate(players, capacity, seed, config)["steps"] > 0


def test_a_large_field_plays_down_to_one_player_through_every_kind_of_move():
    seen = simulate(400, 8, 2024, BalanceConfig())
    for kind in ("break", "balance", "final_table", "deferred break", "deferred balance"):
        assert seen[kind] > 0, kind
    assert seen["checked spread"] > 10
