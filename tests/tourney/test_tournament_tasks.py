"""The receiver holds a tournament table after a hand its tournament must look at; the tasks
update and tick."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import HoldReason, Seat, Table
from games.services import hands, schedule
from tests.games.factories import make_player, make_table
from tests.tourney.tournaments import events, expire_level, make_tournament, table_of
from tourney import tasks
from tourney.models import Tournament, TournamentTable
from tourney.services.commands.draw import tournament_start
from tourney.services.commands.registration import entry_register
from tourney.services.steps.hand_end import hand_end

pytestmark = pytest.mark.django_db


def test_a_hand_that_changes_nothing_for_the_tournament_lets_its_table_deal_on():
    tournament = make_tournament(players=3)
    tournament_start(tournament_id=tournament.id)
    table = table_of(tournament, 1)
    # level 1 caps a hand's bets at 965 chips (5 ante, 4 bets of 30 on third and fourth
    # street, of 60 on the last three): nobody's 1000 can go
    assert hands.table_advance(table.id) == "hand finished"
    assert table_of(tournament, 1).hold_reason == ""
    assert hands.table_advance(table.id) == "hand finished"  # no update in between
    assert not events(tournament, "eliminated")


def test_a_bust_holds_the_table_until_the_tournament_updates():
    tournament = make_tournament(players=3)
    tournament_start(tournament_id=tournament.id)
    table = table_of(tournament, 1)
    Seat.objects.filter(table=table, player__isnull=False).filter(number=_first_seat(table)).update(
        stack=0
    )
    assert hand_end(table.id, timezone.now(), busted=True) == tournament.id
    assert table_of(tournament, 1).hold_reason == HoldReason.AFTER_HAND
    assert hands.table_advance(table.id) == f"held: {HoldReason.AFTER_HAND}"
    assert tasks.tournament_update(tournament.id) == "running"
    assert table_of(tournament, 1).hold_reason == ""
    assert events(tournament, "eliminated")


def test_a_hand_that_ends_with_a_player_without_chips_at_the_table_holds_it():
    """The settling hand tells the receiver (``busted``) from the seats it settled: here a
    seat without chips, not dealt in, is still at the table after the hand."""
    tournament = make_tournament(players=3)
    tournament_start(tournament_id=tournament.id)
    table = table_of(tournament, 1)
    Seat.objects.filter(table=table, number=_first_seat(table)).update(stack=0)
    assert hands.table_advance(table.id) == "hand finished"
    assert table_of(tournament, 1).hold_reason == HoldReason.AFTER_HAND
    assert hands.table_advance(table.id) == f"held: {HoldReason.AFTER_HAND}"


@pytest.mark.django_db(transaction=True)
def test_a_held_table_is_sent_no_advance_until_the_update_releases_it(monkeypatch):
    """The settling task stops at its held table without a second advance (which would only
    find the hold); the update pass that releases the table sends its one advance. The
    transactions commit, so the tasks recorded are those the broker would get."""
    sent: list[tuple[str, tuple]] = []
    monkeypatch.setattr(
        schedule, "_send", lambda task, args, countdown, **options: sent.append((task, args))
    )
    monkeypatch.setattr(tasks, "tournament_update_soon", lambda tournament_id: None)
    tournament = make_tournament(players=3)
    tournament_start(tournament_id=tournament.id)
    table = table_of(tournament, 1)
    Seat.objects.filter(table=table, number=_first_seat(table)).update(stack=0)
    sent.clear()

    assert hands.table_play_on(table.id, seconds=5) == "hand finished"
    assert table_of(tournament, 1).hold_reason == HoldReason.AFTER_HAND
    assert (schedule.TABLE_ADVANCE, (table.id,)) not in sent

    assert tasks.tournament_update(tournament.id) == "running"
    assert table_of(tournament, 1).hold_reason == ""
    assert sent.count((schedule.TABLE_ADVANCE, (table.id,))) == 1


def _first_seat(table: Table) -> int:
    return table.seats.filter(player__isnull=False).order_by("number").first().number


@pytest.mark.parametrize(
    "change",
    [
        {"level_ends_at": timezone.now() - timedelta(seconds=1)},
        {"status": "paused"},
        {"hand_for_hand": True},
        {"break_pending_minutes": 5},
        {"break_ends_at": timezone.now() + timedelta(minutes=5)},
    ],
    ids=["level over", "paused", "hand-for-hand", "break called", "on a break"],
)
def test_the_clock_or_hand_for_hand_holds_the_table_after_its_hand(change):
    tournament = make_tournament(players=3)
    tournament_start(tournament_id=tournament.id)
    table = table_of(tournament, 1)
    assert hand_end(table.id, timezone.now(), busted=False) is None
    Tournament.objects.filter(pk=tournament.pk).update(**change)
    assert hand_end(table.id, timezone.now(), busted=False) == tournament.id
    assert table_of(tournament, 1).hold_reason == HoldReason.AFTER_HAND


@pytest.mark.parametrize(
    ("ends_in", "held"),
    [
        (timedelta(microseconds=1), False),
        (timedelta(0), True),
        (timedelta(microseconds=-1), True),
        (timedelta(microseconds=-500_000), True),  # on the second: no fraction stored
        (timedelta(days=-1), True),
    ],
)
def test_the_level_s_deadline_holds_the_table_from_that_very_moment(ends_in, held):
    tournament = make_tournament(players=3)
    tournament_start(tournament_id=tournament.id)
    table = table_of(tournament, 1)
    now = timezone.now().replace(microsecond=500_000)
    Tournament.objects.filter(pk=tournament.pk).update(level_ends_at=now + ends_in)
    assert hand_end(table.id, now, busted=False) == (tournament.id if held else None)


def test_a_table_outside_any_tournament_is_none_of_its_business():
    tournament = make_tournament(players=3)
    tournament_start(tournament_id=tournament.id)
    ring = make_table()
    assert hand_end(ring.id, timezone.now(), busted=True) is None
    assert Table.objects.get(pk=ring.pk).hold_reason == ""


def test_a_table_a_balancing_move_waits_for_is_looked_at_after_its_hand():
    tournament = make_tournament(players=3)
    tournament_start(tournament_id=tournament.id)
    table = table_of(tournament, 1)
    TournamentTable.objects.filter(table=table).update(look_after_hand=True)
    assert hand_end(table.id, timezone.now(), busted=False) == tournament.id
    assert tasks.tournament_update(tournament.id) == "running"
    assert not TournamentTable.objects.get(table=table).look_after_hand  # nothing waits now


def test_the_tick_moves_every_running_clock_on():
    tournament = make_tournament(players=3)
    tournament_start(tournament_id=tournament.id)
    idle = make_tournament(players=2)
    expire_level(tournament)
    assert tasks.tournament_tick() == 1
    tournament.refresh_from_db()
    idle.refresh_from_db()
    assert (tournament.level_index, idle.status) == (1, "registering")


def test_the_tick_starts_a_tournament_whose_scheduled_start_has_passed():
    past = timezone.now() - timedelta(seconds=1)
    due = make_tournament(players=2, scheduled_start=past)
    later = make_tournament(players=2, scheduled_start=past + timedelta(hours=1))
    tasks.tournament_tick()
    due.refresh_from_db()
    later.refresh_from_db()
    assert (due.status, later.status) == ("running", "registering")
    assert events(due, "scheduled_start") == [{"scheduled_start": past.isoformat()}]
    assert len(events(due, "draw")) == 1


def test_a_scheduled_start_with_one_player_waits_and_says_why_once():
    past = timezone.now() - timedelta(seconds=1)
    tournament = make_tournament(players=1, scheduled_start=past)
    tasks.tournament_tick()
    tasks.tournament_tick()
    tournament.refresh_from_db()
    assert tournament.status == "registering"
    assert events(tournament, "start_waiting") == [
        {"scheduled_start": past.isoformat(), "registered": 1}
    ]
    entry_register(tournament_id=tournament.id, player_id=make_player(bot="rules").id)
    tasks.tournament_tick()
    tournament.refresh_from_db()
    assert tournament.status == "running"


def test_hands_ending_before_an_update_starts_share_it(monkeypatch):
    tournament = make_tournament(players=3)
    tournament_start(tournament_id=tournament.id)
    sent: list[int] = []
    monkeypatch.setattr(  # the broker
        tasks.tournament_update, "apply_async", lambda args, countdown: sent.append(*args)
    )
    tasks.tournament_update_soon(tournament.id)
    tasks.tournament_update_soon(tournament.id)  # another table's hand, same moment
    assert sent == [tournament.id]
    tasks.tournament_update(tournament.id)  # the update starts: later hands queue anew
    tasks.tournament_update_soon(tournament.id)
    assert sent == [tournament.id, tournament.id]
    tasks.tournament_update(tournament.id)  # leaves no queued mark for later tests
