"""The update pass does not wait for a table whose hand is being played: it leaves that
table as it is and looks at it again after that hand."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, transaction
from django.utils import timezone

from games.locks import table_for_update
from tests.tourney.tournaments import expire_level, make_tournament, table_of
from tourney.models import TournamentTable
from tourney.services.commands.draw import tournament_start
from tourney.services.steps.hand_end import hand_end
from tourney.services.update import tournament_update

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def _hold_lock(table_id: int, locked: threading.Event, release: threading.Event) -> None:
    """Another transaction holding the table's lock, as a hand being played does."""
    try:
        with transaction.atomic():
            table_for_update(table_id)
            locked.set()
            release.wait(timeout=30)
    finally:
        connection.close()


def test_a_new_level_reaches_a_busy_table_after_its_hand_without_waiting_for_it():
    tournament = make_tournament(players=10)  # two tables of five
    tournament_start(tournament_id=tournament.id)
    busy, free = table_of(tournament, 1), table_of(tournament, 2)
    locked, release = threading.Event(), threading.Event()
    holder = threading.Thread(target=_hold_lock, args=(busy.id, locked, release))
    holder.start()
    try:
        assert locked.wait(timeout=10)
        expire_level(tournament)
        tournament_update(tournament_id=tournament.id)  # returns while the lock is held
        assert table_of(tournament, 2).small_bet != free.small_bet
        assert table_of(tournament, 1).small_bet == busy.small_bet
        assert TournamentTable.objects.get(table_id=busy.id).look_after_hand
    finally:
        release.set()
        holder.join()
    assert hand_end(busy.id, timezone.now()) == tournament.id  # held after its hand
    tournament_update(tournament_id=tournament.id)
    assert table_of(tournament, 1).small_bet == table_of(tournament, 2).small_bet
    assert table_of(tournament, 1).hold_reason == ""
    assert not TournamentTable.objects.get(table_id=busy.id).look_after_hand
