"""The clock: levels and breaks from database deadlines, stakes from the next hand, pause."""

from __future__ import annotations

from datetime import timedelta

import pytest

from games.errors import Conflict
from games.services import hands
from tests.tourney.tournaments import events, expire_level, make_tournament, table_of
from tourney.models import ScheduleEntry, Tournament
from tourney.services.commands.clock import tournament_pause, tournament_resume
from tourney.services.commands.draw import tournament_start
from tourney.services.update import tournament_update

pytestmark = pytest.mark.django_db


def _started(**overrides) -> Tournament:
    tournament = make_tournament(players=4, **overrides)
    tournament_start(tournament_id=tournament.id)
    tournament.refresh_from_db()
    return tournament


def test_the_first_level_deadline_is_its_minutes_from_the_start():
    tournament = _started(minute_seconds=6)
    assert tournament.level_ends_at - tournament.started_at == timedelta(seconds=60)


def test_an_update_before_the_deadline_keeps_the_level():
    tournament = _started()
    tournament_update(tournament_id=tournament.id)
    tournament.refresh_from_db()
    assert tournament.level_index == 0


def test_a_due_level_moves_on_and_its_stakes_apply_from_the_next_hand():
    tournament = _started(minute_seconds=1)
    table = table_of(tournament, 1)
    hands.table_advance(table.id)  # a hand in progress (bots play it out at once)
    expire_level(tournament)
    old_deadline = Tournament.objects.get(pk=tournament.pk).level_ends_at
    tournament_update(tournament_id=tournament.id)
    tournament.refresh_from_db()
    table.refresh_from_db()
    assert tournament.level_index == 1
    assert tournament.level_ends_at == old_deadline + timedelta(seconds=10)
    assert (table.ante, table.bring_in, table.small_bet, table.big_bet) == (10, 15, 50, 100)
    hands.table_advance(table.id)
    hand = table.hands.order_by("-number").first()
    assert hand.header["stakes"] == {
        "ante": 10,
        "bring_in": 15,
        "small_bet": 50,
        "big_bet": 100,
        "unit": 5,
    }


def test_a_break_holds_every_table_and_the_next_level_releases_them_with_its_game():
    tournament = _started()
    expire_level(tournament)
    tournament_update(tournament_id=tournament.id)
    expire_level(tournament)
    tournament_update(tournament_id=tournament.id)
    assert table_of(tournament, 1).hold_reason == "break"
    assert hands.table_advance(table_of(tournament, 1).id) == "held: break"
    expire_level(tournament)
    tournament_update(tournament_id=tournament.id)
    table = table_of(tournament, 1)
    assert (table.hold_reason, table.variant, table.small_bet) == ("", "razz", 100)


def test_pause_keeps_the_time_left_and_resume_shifts_the_deadline():
    tournament = _started()
    left = tournament.level_ends_at
    tournament_pause(tournament_id=tournament.id)
    paused = Tournament.objects.get(pk=tournament.pk)
    assert (paused.status, paused.level_ends_at) == ("paused", None)
    assert 590_000 < paused.paused_remaining_ms <= 600_000
    assert table_of(tournament, 1).hold_reason == "tournament paused"
    tournament_resume(tournament_id=tournament.id)
    resumed = Tournament.objects.get(pk=tournament.pk)
    assert resumed.level_ends_at > left
    assert table_of(tournament, 1).hold_reason == ""


def test_pausing_a_paused_tournament_is_a_409():
    tournament = _started()
    tournament_pause(tournament_id=tournament.id)
    with pytest.raises(Conflict):
        tournament_pause(tournament_id=tournament.id)
    tournament_resume(tournament_id=tournament.id)
    with pytest.raises(Conflict):
        tournament_resume(tournament_id=tournament.id)


def _at_last_entry(tournament: Tournament) -> None:
    """Jump the clock to the schedule's last entry, its deadline due now."""
    last = ScheduleEntry.objects.filter(schedule_id=tournament.schedule_id).count() - 1
    Tournament.objects.filter(pk=tournament.pk).update(level_index=last)
    expire_level(tournament)


def test_past_the_last_level_it_plays_on_with_no_deadline():
    tournament = _started()
    _at_last_entry(tournament)
    tournament_update(tournament_id=tournament.id)
    tournament.refresh_from_db()
    assert (tournament.level_index, tournament.level_ends_at) == (6, None)
    table = table_of(tournament, 1)
    assert (table.hold_reason, table.small_bet) == ("", 3000)


def test_a_stored_schedule_ending_with_a_break_goes_back_to_its_last_level_at_the_end():
    tournament = _started()
    # stored before schedules had to end with a level (the planner refuses it now)
    ScheduleEntry.objects.create(
        schedule_id=tournament.schedule_id, position=7, is_break=True, minutes=5
    )
    _at_last_entry(tournament)
    tournament_update(tournament_id=tournament.id)
    tournament.refresh_from_db()
    assert (tournament.level_index, tournament.level_ends_at) == (6, None)
    assert table_of(tournament, 1).hold_reason == ""
    assert events(tournament, "level")[-1] == {
        "index": 6,
        "level": 6,
        "entry": "stud_hi 500/1000/3000/6000",
        "ends_at": None,
    }
