"""The update pass does not wait for a table whose hand is being played: it leaves that
table as it is and looks at it again after that hand. A routine pass (busts in the middle of
a level) does not hold a table that is not waiting for it: that table deals on meanwhile."""

from __future__ import annotations

import threading

import pytest
from django.db import OperationalError, connection, transaction
from django.utils import timezone

from games.locks import table_for_update
from tests.tourney.tournaments import expire_level, fake_hand, make_tournament, seats_of, table_of
from tourney.models import Entry, TournamentTable
from tourney.services.commands.draw import tournament_start
from tourney.services.steps.eliminations import Eliminations
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
    assert hand_end(busy.id, timezone.now(), busted=False) == tournament.id  # held after its hand
    tournament_update(tournament_id=tournament.id)
    assert table_of(tournament, 1).small_bet == table_of(tournament, 2).small_bet
    assert table_of(tournament, 1).hold_reason == ""
    assert not TournamentTable.objects.get(table_id=busy.id).look_after_hand


def test_a_routine_pass_holds_only_the_tables_waiting_for_it(monkeypatch):
    # Given three tables, a bust at the first, and the update pass stopped while it
    # eliminates (a pass busy with many busts)
    tournament = make_tournament(players=24)  # three tables of eight
    tournament_start(tournament_id=tournament.id)
    first, second = table_of(tournament, 1), table_of(tournament, 2)
    seats = seats_of(first.id)
    (one, (_, lost)), (two, (_, won)) = sorted(seats.items())[:2]
    fake_hand(first.id, {one: 0, two: lost + won})
    eliminating, release = threading.Event(), threading.Event()

    write = Eliminations.write

    def slow_write(self):
        if self._groups:
            eliminating.set()
            release.wait(timeout=30)
        return write(self)

    monkeypatch.setattr(Eliminations, "write", slow_write)
    passing = threading.Thread(target=_update_in_a_thread, args=(tournament.id,))
    passing.start()
    try:
        assert eliminating.wait(timeout=10)
        # Then the second table, between two hands of its own, deals on: its lock is free
        assert _locked_within(second.id, "2s")
        # while the first, where the bust is, waits for the pass
        assert not _locked_within(first.id, "200ms")
    finally:
        release.set()
        passing.join()
    assert Entry.objects.get(player_id=seats[one][0], tournament=tournament).status == "eliminated"


def _update_in_a_thread(tournament_id: int) -> None:
    try:
        tournament_update(tournament_id=tournament_id)
    finally:
        connection.close()


def _locked_within(table_id: int, timeout: str) -> bool:
    """Whether this transaction gets the table's lock within ``timeout``."""
    try:
        with transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute(f"SET LOCAL lock_timeout = '{timeout}'")
            table_for_update(table_id)
        return True
    except OperationalError:
        return False
