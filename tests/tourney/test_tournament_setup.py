"""Creating and configuring tournaments and schedules; bad input gets a clear 4xx."""

from __future__ import annotations

import pytest

from games.errors import Conflict, Invalid, NotFound
from tests.tourney.tournaments import LEVELS, make_tournament
from tourney.models import ScheduleEntry
from tourney.services.commands.draw import tournament_start
from tourney.services.commands.schedules import schedule_create, schedule_generate
from tourney.services.commands.setup import tournament_configure, tournament_create

pytestmark = pytest.mark.django_db


def test_a_schedule_is_stored_in_order_with_its_breaks():
    schedule = schedule_create(name="s", chip_unit=5, entries=LEVELS)
    stored = list(ScheduleEntry.objects.filter(schedule=schedule).order_by("position"))
    assert [e.is_break for e in stored] == [False, False, True, False, False, False, False]
    assert (stored[3].game, stored[3].small_bet, stored[3].big_bet) == ("razz", 100, 200)


def test_a_schedule_breaking_the_planner_rules_is_refused():
    bad = [
        {
            "game": "stud_hi",
            "ante": 5,
            "bring_in": 30,
            "small_bet": 30,
            "big_bet": 60,
            "minutes": 10,
        }
    ]
    with pytest.raises(Invalid, match="bring-in"):
        schedule_create(name="s", chip_unit=5, entries=bad)


def test_a_generated_schedule_comes_from_the_planner():
    schedule = schedule_generate(
        name="g", starting_stack=3000, level_minutes=20, target_hours=4, chip_unit=5
    )
    first = ScheduleEntry.objects.filter(schedule=schedule).order_by("position").first()
    assert (first.game, first.ante, first.bring_in, first.small_bet, first.big_bet) == (
        "stud_hi",
        10,
        15,
        50,
        100,
    )


def test_a_generated_schedule_with_stakes_too_big_to_store_is_refused():
    with pytest.raises(Invalid, match="fewer levels"):
        schedule_generate(
            name="g",
            starting_stack=2000,
            level_minutes=10,
            target_hours=8,
            chip_unit=5,
            break_every=None,
        )


@pytest.mark.parametrize(
    ("field", "value", "code"),
    [
        ("starting_stack", -100, "negative"),
        ("buy_in", 0, "not_positive"),
        ("table_size", 9, "table_size"),
        ("table_size", 1, "table_size"),
        ("mode", "telepathy", "mode"),
        ("payout_percentages", ["50", "30"], "invalid_payouts"),
        ("starting_stack", 3002, "chip_unit"),  # the test tournaments play in 5s
        ("rebuy_chips", 1001, "chip_unit"),
        ("add_on_chips", 999, "chip_unit"),
    ],
)
def test_bad_settings_are_refused_with_a_400(field, value, code):
    with pytest.raises(Invalid) as error:
        make_tournament(**{field: value})
    assert (error.value.status, error.value.code) == (400, code)


def test_a_fee_above_the_price_is_refused():
    with pytest.raises(Invalid, match="fee is part of buy_in"):
        make_tournament(buy_in=10, fee=20)


def test_an_unknown_schedule_is_a_404():
    with pytest.raises(NotFound):
        tournament_create(name="x", buy_in=10, starting_stack=100, schedule_id=999999)


def test_settings_change_while_registering_and_are_fixed_once_started():
    tournament = make_tournament(players=2)
    tournament_configure(tournament_id=tournament.id, starting_stack=2000)
    tournament.refresh_from_db()
    assert tournament.starting_stack == 2000
    tournament_start(tournament_id=tournament.id)
    with pytest.raises(Conflict) as error:
        tournament_configure(tournament_id=tournament.id, starting_stack=3000)
    assert error.value.code == "started"


def test_a_schedule_ending_with_a_break_is_refused():
    with pytest.raises(Invalid, match="a schedule ends with a level, not a break") as error:
        schedule_create(name="s", chip_unit=5, entries=[*LEVELS, {"is_break": True, "minutes": 5}])
    assert (error.value.status, error.value.code) == (400, "invalid_schedule")


def test_a_generated_schedule_never_ends_with_a_break():
    # "Sunday 3k" of docs/walkthroughs/tournament.md: 4 hours of 20-minute levels used to end
    # with a break
    schedule = schedule_generate(
        name="Sunday 3k", starting_stack=3000, level_minutes=20, target_hours=4, chip_unit=5
    )
    last = ScheduleEntry.objects.filter(schedule=schedule).order_by("position").last()
    assert (last.is_break, last.game) == (False, "stud_hi")


def test_a_schedule_off_the_tournament_chip_unit_is_refused_at_create_and_configure():
    schedule = schedule_create(name="units of 5", chip_unit=5, entries=LEVELS)
    with pytest.raises(Invalid) as error:
        tournament_create(
            name="x", buy_in=100, starting_stack=1000, chip_unit=25, schedule_id=schedule.id
        )
    assert (error.value.status, error.value.code) == (400, "chip_unit")
    assert error.value.message == (
        "level 1 of the schedule: ante 5 is not a multiple of the tournament's chip unit 25"
    )
    tournament = make_tournament()
    with pytest.raises(Invalid, match="level 1 of the schedule: ante 5 is not a multiple of"):
        tournament_configure(tournament_id=tournament.id, chip_unit=10)
    tournament.refresh_from_db()
    assert tournament.chip_unit == 5


def test_a_schedule_in_a_multiple_of_the_chip_unit_is_accepted():
    schedule = schedule_create(name="units of 5", chip_unit=5, entries=LEVELS)
    tournament = tournament_create(
        name="x", buy_in=100, starting_stack=1000, chip_unit=1, schedule_id=schedule.id
    )
    assert tournament.chip_unit == 1
