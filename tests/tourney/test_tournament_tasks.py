"""The receiver holds a tournament table after each hand; the tasks update and tick."""

from __future__ import annotations

import pytest

from games.services import hands
from tests.tourney.tournaments import expire_level, make_tournament, table_of
from tourney import tasks
from tourney.receivers import AFTER_HAND
from tourney.services.draw import tournament_start

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
