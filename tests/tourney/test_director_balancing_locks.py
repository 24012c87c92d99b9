"""Locked seats in the balancing planner: balancing never moves them; breaking prefers
tables without them; the final-table redraw keeps them."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tourney.planning.balancing import TableState, plan_moves


def test_balancing_moves_the_next_player_clockwise_past_a_locked_seat():
    # table 1 has 7, table 2 has 5 (open seat 6... lowest open seat 6): seat 6 would move
    full = TableState(1, 8, {n: f"a{n}" for n in range(1, 8)}, locked=frozenset({6}))
    short = TableState(2, 8, {n: f"b{n}" for n in range(1, 6)})
    plan = plan_moves([full, short], random.Random(1))
    assert [(m.player, m.from_seat, m.to_seat) for m in plan.moves] == [("a7", 7, 6)]


def test_without_the_lock_the_same_seat_moves():
    full = TableState(1, 8, {n: f"a{n}" for n in range(1, 8)})
    short = TableState(2, 8, {n: f"b{n}" for n in range(1, 6)})
    plan = plan_moves([full, short], random.Random(1))
    assert [m.player for m in plan.moves] == ["a6"]


def test_a_table_without_locked_seats_breaks_first():
    tables = [
        TableState(1, 8, {n: f"a{n}" for n in range(1, 6)}),
        TableState(2, 8, {n: f"b{n}" for n in range(1, 5)}),
        TableState(3, 8, {n: f"c{n}" for n in range(1, 5)}, locked=frozenset({2})),
    ]
    plan = plan_moves(tables, random.Random(1))
    assert plan.breaking == (2,)


def test_the_final_table_redraw_keeps_a_locked_player_in_their_seat():
    tables = [
        TableState(1, 8, {3: "a3", 5: "a5", 7: "a7"}, locked=frozenset({5})),
        TableState(2, 8, {1: "b1", 2: "b2"}),
    ]
    for seed in range(20):
        plan = plan_moves(tables, random.Random(seed))
        assert plan.final_table == 1
        assert "a5" not in {m.player for m in plan.moves}
        assert all(m.to_seat != 5 for m in plan.moves)


def test_a_locked_seat_must_be_occupied():
    try:
        TableState(1, 8, {1: "a"}, locked=frozenset({2}))
    except ValueError as error:
        assert "locked seat is empty" in str(error)
    else:
        raise AssertionError("an empty locked seat was accepted")


@settings(max_examples=200, deadline=None)
@given(
    counts=st.lists(st.integers(min_value=0, max_value=8), min_size=2, max_size=6),
    locks=st.lists(st.integers(min_value=1, max_value=8), max_size=6),
    seed=st.integers(min_value=0, max_value=10**6),
)
def test_balancing_never_moves_a_locked_player_unless_their_table_breaks(counts, locks, seed):
    tables = []
    for number, count in enumerate(counts, start=1):
        seats = {n: f"t{number}s{n}" for n in range(1, count + 1)}
        locked = frozenset(n for n in locks if n in seats and n % len(counts) == number % 2)
        tables.append(TableState(number, 8, seats, locked=locked))
    plan = plan_moves(tables, random.Random(seed))
    locked_players = {t.seats[n] for t in tables for n in t.locked}
    for move in plan.moves:
        if move.player in locked_players:
            assert move.reason != "balance"
            source = next(t for t in tables if t.number == move.from_table)
            final_keeps = move.reason == "final_table" and move.from_table == plan.final_table
            assert not final_keeps
            assert move.from_table in plan.breaking or source.number != plan.final_table
