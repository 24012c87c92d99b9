"""The receiver holds a tournament table after each hand; the tasks update and tick."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.services import hands
from tests.games.factories import make_player
from tests.tourney.tournaments import events, expire_level, make_tournament, table_of
from tourney import tasks
from tourney.receivers import AFTER_HAND
from tourney.services.commands.draw import tournament_start
from tourney.services.commands.registration import entry_register

pytestmark = pytest.mark.django_db


def test_a_finished_hand_holds_the_table_until_the_tournament_updates():
    tournament = make_tournament(players=3)
    tournament_start(tournament_id=tournament.id)
    table = table_of(tournament, 1)
    assert hands.table_advance(table.id) == "hand finished"
    assert table_of(tournament, 1).hold_reason == AFTER_HAND
    assert hands.table_advance(table.id) == f"held: {AFTER_HAND}"
    assert tasks.tournament_update(tournament.id) == "running"
    assert table_of(tournament, 1).hold_reason == ""
    assert table_of(tournament, 1).hands.count() == 1


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
    monkeypatch.setattr(tasks.tournament_update, "delay", sent.append)  # the broker
    tasks.tournament_update_soon(tournament.id)
    tasks.tournament_update_soon(tournament.id)  # another table's hand, same moment
    assert sent == [tournament.id]
    tasks.tournament_update(tournament.id)  # the update starts: later hands queue anew
    tasks.tournament_update_soon(tournament.id)
    assert sent == [tournament.id, tournament.id]
    tasks.tournament_update(tournament.id)  # leaves no queued mark for later tests
