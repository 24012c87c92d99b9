"""Settings in play (level lengths, levels to come, payouts before the money, the action
clock) and late registration by hand; what cannot change is refused and explained."""

from __future__ import annotations

from datetime import timedelta

import pytest

from games.errors import Conflict, Invalid
from tests.games.factories import make_player
from tests.tourney.director import entry_at, snapshot, started
from tests.tourney.tournaments import events, fake_hand, seats_of, table_of
from tourney.models import Entry, ScheduleEntry, Tournament
from tourney.services.commands.director_clock import clock_jump
from tourney.services.commands.director_settings import late_registration_set, settings_change
from tourney.services.commands.registration import entry_register
from tourney.services.update import tournament_update

pytestmark = pytest.mark.django_db


def _t(tournament: Tournament) -> Tournament:
    return Tournament.objects.get(pk=tournament.pk)


def test_level_minutes_change_the_level_in_play_and_those_to_come_on_a_copy():
    tournament = started(minute_seconds=1)
    shared = tournament.schedule_id
    deadline = tournament.level_ends_at
    settings_change(tournament_id=tournament.id, level_minutes=15)
    fresh = _t(tournament)
    assert fresh.schedule_id != shared
    assert fresh.level_ends_at == deadline + timedelta(seconds=5)
    minutes = list(
        ScheduleEntry.objects.filter(schedule_id=fresh.schedule_id)
        .order_by("position")
        .values_list("is_break", "minutes")
    )
    assert minutes == [(False, 15), (False, 15), (True, 5), *[(False, 15)] * 4]
    # the shared schedule is untouched
    assert ScheduleEntry.objects.filter(schedule_id=shared, minutes=10).count() == 6
    assert events(tournament, "settings_changed")[0]["level_minutes"] == 15


def test_a_level_cannot_be_shortened_below_what_it_has_run():
    tournament = started()
    Tournament.objects.filter(pk=tournament.pk).update(
        level_ends_at=tournament.level_ends_at - timedelta(minutes=8)
    )
    before = snapshot(tournament)
    with pytest.raises(Invalid) as error:
        settings_change(tournament_id=tournament.id, level_minutes=2)
    assert error.value.code == "too_short"
    assert snapshot(tournament) == before


def test_the_levels_to_come_are_replaced_and_the_played_ones_kept():
    tournament = started()
    clock_jump(tournament_id=tournament.id, step=1)
    new = [
        {
            "game": "stud_hi",
            "ante": 20,
            "bring_in": 25,
            "small_bet": 80,
            "big_bet": 160,
            "minutes": 20,
        }
    ]
    settings_change(tournament_id=tournament.id, levels=new)
    rows = list(ScheduleEntry.objects.filter(schedule_id=_t(tournament).schedule_id))
    assert len(rows) == 3 and rows[2].small_bet == 80 and rows[1].small_bet == 50


def test_levels_to_come_are_checked():
    tournament = started()
    before = snapshot(tournament)
    for levels in (
        [
            {
                "game": "stud_hi",
                "ante": 3,
                "bring_in": 10,
                "small_bet": 30,
                "big_bet": 60,
                "minutes": 5,
            }
        ],
        [{"is_break": True, "minutes": 5}],
    ):
        with pytest.raises(Invalid):
            settings_change(tournament_id=tournament.id, levels=levels)
    with pytest.raises(Invalid):
        settings_change(tournament_id=tournament.id, levels=[], level_minutes=5)
    assert snapshot(tournament) == before


def test_payouts_change_before_the_money_and_not_after():
    tournament = started(players=6)
    settings_change(tournament_id=tournament.id, payout_percentages=["65", "35"])
    assert _t(tournament).payout_percentages == ["65", "35"]
    before = snapshot(tournament)
    with pytest.raises(Invalid):  # not 100
        settings_change(tournament_id=tournament.id, payout_percentages=["60", "30"])
    with pytest.raises(Invalid) as error:  # 7 paid places with 6 players left
        settings_change(
            tournament_id=tournament.id,
            payout_percentages=["40", "20", "10", "10", "10", "5", "5"],
        )
    assert error.value.code == "too_many_places"
    assert snapshot(tournament) == before
    seats = sorted(seats_of(table_of(tournament, 1).id))
    stacks = seats_of(table_of(tournament, 1).id)
    fake_hand(
        table_of(tournament, 1).id,
        {**{s: 0 for s in seats[1:5]}, seats[0]: sum(stacks[s][1] for s in seats[:5])},
    )
    tournament_update(tournament_id=tournament.id)  # 2 left, 2 paid: in the money
    before = snapshot(tournament)
    with pytest.raises(Conflict) as error:
        settings_change(tournament_id=tournament.id, payout_percentages=["100"])
    assert error.value.code == "in_the_money"
    assert snapshot(tournament) == before


def test_the_action_clock_applies_to_every_table():
    tournament = started(players=10)
    settings_change(tournament_id=tournament.id, action_seconds=12)
    assert _t(tournament).action_seconds == 12
    assert {table_of(tournament, n).action_seconds for n in (1, 2)} == {12}


def test_settings_in_play_need_a_tournament_in_play():
    from tests.tourney.tournaments import make_tournament

    tournament = make_tournament(players=2)
    with pytest.raises(Conflict):
        settings_change(tournament_id=tournament.id, action_seconds=12)


def test_late_registration_closed_by_hand_and_reopened():
    tournament = started(players=4, late_reg_levels=3)
    late_registration_set(tournament_id=tournament.id, open_=False)
    with pytest.raises(Conflict) as error:
        entry_register(tournament_id=tournament.id, player_id=make_player(bot="rules").id)
    assert error.value.code == "registration_closed"
    with pytest.raises(Conflict):
        late_registration_set(tournament_id=tournament.id, open_=False)
    late_registration_set(tournament_id=tournament.id, open_=True, until_level=2)
    entry_register(tournament_id=tournament.id, player_id=make_player(bot="rules").id)
    assert [e["open"] for e in events(tournament, "late_registration")] == [False, True]
    assert _t(tournament).late_reg_levels == 2


def test_closing_late_registration_makes_the_field_final_and_places_the_busted():
    tournament = started(players=6, late_reg_levels=3, payout_percentages=["100"])
    seats = sorted(seats_of(table_of(tournament, 1).id))
    out = entry_at(tournament, 1, seats[1])
    stacks = seats_of(table_of(tournament, 1).id)
    fake_hand(table_of(tournament, 1).id, {seats[1]: 0, seats[0]: stacks[seats[0]][1] + 1000})
    tournament_update(tournament_id=tournament.id)
    assert Entry.objects.get(pk=out.id).place is None  # the field is still open
    late_registration_set(tournament_id=tournament.id, open_=False)
    assert Entry.objects.get(pk=out.id).place == 6
    before = snapshot(tournament)
    with pytest.raises(Conflict) as error:
        late_registration_set(tournament_id=tournament.id, open_=True)
    assert error.value.code == "places_given"
    with pytest.raises(Invalid):
        late_registration_set(tournament_id=tournament.id, open_=True, until_level=0)
    assert snapshot(tournament) == before


def test_after_a_colour_up_the_shared_schedule_keeps_the_levels_to_come_in_the_new_unit():
    from tests.tourney.tournaments import expire_level
    from tourney.services.commands.director_clock import clock_color_up
    from tourney.services.commands.schedules import schedule_update

    tournament = started(colour_up=True)
    for _ in range(2):
        expire_level(tournament)
        tournament_update(tournament_id=tournament.id)
    clock_color_up(tournament_id=tournament.id, chip_unit=25)
    rows = ScheduleEntry.objects.filter(schedule_id=tournament.schedule_id).order_by("position")
    entries = [
        {"is_break": True, "minutes": r.minutes}
        if r.is_break
        else {
            "game": r.game,
            "ante": r.ante,
            "bring_in": r.bring_in,
            "small_bet": r.small_bet,
            "big_bet": r.big_bet,
            "minutes": r.minutes,
        }
        for r in rows
    ]
    entries[3] = {**entries[3], "ante": 30}
    with pytest.raises(Invalid) as error:
        schedule_update(schedule_id=tournament.schedule_id, entries=entries)
    assert error.value.code == "chip_unit"
