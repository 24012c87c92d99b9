"""The director's clock: time, levels, unscheduled breaks, colour-up; each refusal changes
nothing."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.errors import Conflict, Invalid
from games.models import Seat
from tests.tourney.director import finish_hand, hand_in_progress, snapshot, started
from tests.tourney.tournaments import events, expire_level, seated_chips, table_of
from tourney.models import Tournament
from tourney.services.commands.clock import tournament_pause
from tourney.services.commands.director_clock import (
    clock_add_time,
    clock_break,
    clock_color_up,
    clock_end_break,
    clock_jump,
)
from tourney.services.update import tournament_update

pytestmark = pytest.mark.django_db


def _t(tournament: Tournament) -> Tournament:
    return Tournament.objects.get(pk=tournament.pk)


def test_add_and_remove_time_move_the_deadline_and_are_logged():
    tournament = started()
    deadline = tournament.level_ends_at
    clock_add_time(tournament_id=tournament.id, seconds=120)
    assert _t(tournament).level_ends_at == deadline + timedelta(seconds=120)
    clock_add_time(tournament_id=tournament.id, seconds=-300)
    assert _t(tournament).level_ends_at == deadline - timedelta(seconds=180)
    assert [e["seconds"] for e in events(tournament, "clock_time")] == [120, -300]


def test_removing_more_time_than_is_left_is_refused_and_changes_nothing():
    tournament = started()
    before = snapshot(tournament)
    with pytest.raises(Invalid) as error:
        clock_add_time(tournament_id=tournament.id, seconds=-601)
    assert error.value.code == "negative_time"
    assert snapshot(tournament) == before


def test_time_changes_while_paused_change_the_time_left():
    tournament = started()
    tournament_pause(tournament_id=tournament.id)
    left = _t(tournament).paused_remaining_ms
    clock_add_time(tournament_id=tournament.id, seconds=-60)
    assert _t(tournament).paused_remaining_ms == left - 60_000


def test_next_and_previous_level_give_the_full_time_and_apply_the_stakes():
    tournament = started()
    clock_jump(tournament_id=tournament.id, step=1)
    moved = _t(tournament)
    assert moved.level_index == 1
    assert moved.level_ends_at - timezone.now() > timedelta(seconds=590)
    assert table_of(tournament, 1).small_bet == 50
    clock_jump(tournament_id=tournament.id, step=-1)
    assert _t(tournament).level_index == 0
    assert table_of(tournament, 1).small_bet == 30
    assert [e["index"] for e in events(tournament, "clock_jump")] == [1, 0]


def test_no_level_before_the_first_or_after_the_last():
    tournament = started()
    before = snapshot(tournament)
    with pytest.raises(Conflict):
        clock_jump(tournament_id=tournament.id, step=-1)
    assert snapshot(tournament) == before
    Tournament.objects.filter(pk=tournament.pk).update(level_index=6)
    with pytest.raises(Conflict) as error:
        clock_jump(tournament_id=tournament.id, step=1)
    assert error.value.code == "last"


def test_going_back_across_a_closed_window_is_refused():
    tournament = started(late_reg_levels=1)
    clock_jump(tournament_id=tournament.id, step=1)  # level 2: late registration over
    before = snapshot(tournament)
    with pytest.raises(Conflict) as error:
        clock_jump(tournament_id=tournament.id, step=-1)
    assert error.value.code == "window_closed"
    assert snapshot(tournament) == before


def test_a_break_now_holds_the_tables_and_keeps_the_level_time_for_after():
    tournament = started()
    clock_break(tournament_id=tournament.id, minutes=5)
    on = _t(tournament)
    assert on.level_ends_at is None and 590_000 < on.break_level_left_ms <= 600_000
    assert on.break_ends_at - timezone.now() > timedelta(seconds=295)
    assert table_of(tournament, 1).hold_reason == "break"
    Tournament.objects.filter(pk=tournament.pk).update(
        break_ends_at=timezone.now() - timedelta(seconds=1)
    )
    tournament_update(tournament_id=tournament.id)
    after = _t(tournament)
    assert after.break_ends_at is None and after.level_index == 0
    assert after.level_ends_at - timezone.now() > timedelta(seconds=585)
    assert table_of(tournament, 1).hold_reason == ""
    assert [e for e in events(tournament, "break_over")]


def test_a_break_after_the_hands_waits_for_the_last_hand():
    tournament = started(players=10)
    hand = hand_in_progress(tournament, 2)
    clock_break(tournament_id=tournament.id, minutes=5, after_hands=True)
    waiting = _t(tournament)
    assert waiting.break_pending_minutes == 5 and waiting.break_ends_at is None
    assert waiting.level_ends_at is not None  # the level's clock runs on meanwhile
    assert table_of(tournament, 1).hold_reason == "break"
    finish_hand(hand)
    tournament_update(tournament_id=tournament.id)
    on = _t(tournament)
    assert on.break_pending_minutes is None and on.break_ends_at is not None
    assert events(tournament, "break_called")[0]["after_hands_at_tables"] == [2]
    clock_end_break(tournament_id=tournament.id)
    assert _t(tournament).break_ends_at is None
    assert table_of(tournament, 1).hold_reason == ""


def test_break_refusals():
    tournament = started()
    clock_break(tournament_id=tournament.id, minutes=5)
    before = snapshot(tournament)
    with pytest.raises(Conflict) as error:
        clock_break(tournament_id=tournament.id, minutes=5)
    assert error.value.code == "on_break"
    with pytest.raises(Conflict):
        tournament_pause(tournament_id=tournament.id)
    with pytest.raises(Invalid):
        clock_break(tournament_id=tournament.id, minutes=0)
    assert snapshot(tournament) == before
    clock_add_time(tournament_id=tournament.id, seconds=60)
    assert _t(tournament).break_ends_at - timezone.now() > timedelta(seconds=355)


def test_end_break_needs_an_unscheduled_break():
    tournament = started()
    with pytest.raises(Conflict) as error:
        clock_end_break(tournament_id=tournament.id)
    assert error.value.code == "no_break"


def _to_the_break(tournament: Tournament) -> None:
    for _ in range(2):
        expire_level(tournament)
        tournament_update(tournament_id=tournament.id)
    assert _t(tournament).level_index == 2


def test_colour_up_races_odd_chips_at_most_one_per_player_and_logs_what_it_removed():
    tournament = started(players=6, colour_up=True)
    table = table_of(tournament, 1)
    assert table.chip_unit == 5  # the tournament's chip: ties are shared in it
    stacks = [1005, 990, 1010, 995, 1000, 1000]
    seats = Seat.objects.filter(table=table, player__isnull=False).order_by("number")
    for seat, stack in zip(seats, stacks, strict=True):
        Seat.objects.filter(pk=seat.pk).update(stack=stack)
    _to_the_break(tournament)
    clock_color_up(tournament_id=tournament.id, chip_unit=25)
    raced = events(tournament, "color_up")[0]
    after = list(
        Seat.objects.filter(table=table, player__isnull=False)
        .order_by("number")
        .values_list("stack", flat=True)
    )
    assert all(stack % 25 == 0 for stack in after)
    assert all(abs(a - b) < 25 for a, b in zip(after, stacks, strict=True))
    assert len(raced["tables"][0]["winners"]) == 2  # 50 in odd chips: two chips raced
    assert len(set(raced["tables"][0]["winners"])) == 2
    assert seated_chips(tournament) == sum(stacks) + raced["chips_delta"]
    fresh = _t(tournament)
    assert (fresh.smallest_chip, fresh.chip_unit) == (25, 5)
    assert table_of(tournament, 1).chip_unit == 25  # and from the next hand in 25s
    assert fresh.chips_adjusted == raced["chips_delta"]
    assert events(tournament, "chips")[-1]["ok"]


def test_colour_up_needs_every_amount_to_come_in_the_new_unit():
    tournament = started(players=4)
    _to_the_break(tournament)
    before = snapshot(tournament)
    with pytest.raises(Invalid) as error:  # level 3 (after the break) has an ante of 20
        clock_color_up(tournament_id=tournament.id, chip_unit=25)
    assert error.value.code == "chip_unit" and "level 3: ante 20" in error.value.message
    assert snapshot(tournament) == before


def test_colour_up_is_refused_outside_a_break_during_a_hand_or_to_a_smaller_unit():
    tournament = started(players=10, colour_up=True)
    before = snapshot(tournament)
    with pytest.raises(Conflict) as error:
        clock_color_up(tournament_id=tournament.id, chip_unit=25)
    assert error.value.code == "not_on_break"
    assert snapshot(tournament) == before
    clock_break(tournament_id=tournament.id, minutes=10)  # mid level 1 (ante 5)
    before = snapshot(tournament)
    with pytest.raises(Invalid):
        clock_color_up(tournament_id=tournament.id, chip_unit=25)
    clock_end_break(tournament_id=tournament.id)
    _to_the_break(tournament)
    before = snapshot(tournament)
    for unit in (5, 3, 30):
        with pytest.raises(Invalid):
            clock_color_up(tournament_id=tournament.id, chip_unit=unit)
    hand_in_progress(tournament, 1)
    with pytest.raises(Conflict) as error:
        clock_color_up(tournament_id=tournament.id, chip_unit=25)
    assert error.value.code == "in_hand"
    assert snapshot(tournament) == before
