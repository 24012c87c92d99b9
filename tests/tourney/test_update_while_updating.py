"""An update that finds another one running does not wait for it: its worker deals other
tables' hands meanwhile. The task queues itself again, to run after the one running (which
may have read the tables before the hands that queued it ended); the tick leaves the
tournament to the update running. Row locks: PostgreSQL."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from django.core.cache import cache
from django.db import connection, transaction

from games.errors import NotFound
from games.models import HoldReason
from tests.tourney.tournaments import fake_hand, make_tournament, seats_of, table_of
from tourney import tasks
from tourney.models import Entry, EntryStatus
from tourney.services.commands.draw import tournament_start
from tourney.services.steps.hand_end import hand_end
from tourney.services.steps.locks import tournament_for_update
from tourney.services.update import tournament_update

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@contextmanager
def another_update_running(tournament_id: int) -> Iterator[None]:
    """Another transaction holding the tournament's lock, as an update pass does."""
    locked, release = threading.Event(), threading.Event()

    def hold() -> None:
        try:
            with transaction.atomic():
                tournament_for_update(tournament_id)
                locked.set()
                release.wait(timeout=30)
        finally:
            connection.close()

    holder = threading.Thread(target=hold)
    holder.start()
    try:
        assert locked.wait(timeout=10)
        yield
    finally:
        release.set()
        holder.join()


@pytest.fixture
def busted_table():
    """A tournament of two tables with a player busted at the first, the table held."""
    tournament = make_tournament(players=10)
    tournament_start(tournament_id=tournament.id)
    table = table_of(tournament, 1)
    (one, (player, lost)), (two, (_, won)) = sorted(seats_of(table.id).items())[:2]
    fake_hand(table.id, {one: 0, two: lost + won})
    assert hand_end(table.id, tournament.started_at, busted=True) == tournament.id
    cache.delete(tasks._queued_key(tournament.id))
    return tournament, player


def _status(tournament, player) -> str:
    return Entry.objects.get(tournament=tournament, player_id=player).status


def test_an_update_returns_at_once_and_changes_nothing_while_another_runs(busted_table):
    tournament, player = busted_table
    with another_update_running(tournament.id):
        assert tournament_update(tournament_id=tournament.id, unless_busy=True) is None
        assert _status(tournament, player) == EntryStatus.PLAYING
    assert table_of(tournament, 1).hold_reason == HoldReason.AFTER_HAND
    assert tournament_update(tournament_id=tournament.id, unless_busy=True) == "running"
    assert _status(tournament, player) == EntryStatus.ELIMINATED
    assert table_of(tournament, 1).hold_reason == ""


def test_the_task_queues_itself_again_to_run_after_the_one_running(busted_table, monkeypatch):
    tournament, player = busted_table
    sent = []
    monkeypatch.setattr(
        tasks.tournament_update,
        "apply_async",
        lambda args, countdown: sent.append((args, countdown)),
    )
    with another_update_running(tournament.id):
        assert tasks.tournament_update(tournament.id) == "another update is running: queued again"
        # hands ending meanwhile do not queue more: the one queued serves them
        tasks.tournament_update_soon(tournament.id)
    assert sent == [((tournament.id,), tasks.BUSY_AGAIN_SECONDS)]
    assert tasks.tournament_update(*sent[0][0]) == "running"  # as the worker runs it later
    assert _status(tournament, player) == EntryStatus.ELIMINATED


def test_the_tick_leaves_a_tournament_to_the_update_running(busted_table):
    tournament, player = busted_table
    with another_update_running(tournament.id):
        assert tasks.tournament_tick() == 0
    assert _status(tournament, player) == EntryStatus.PLAYING
    assert tasks.tournament_tick() == 1
    assert _status(tournament, player) == EntryStatus.ELIMINATED


def test_an_update_of_no_tournament_is_still_a_404():
    with pytest.raises(NotFound):
        tournament_update(tournament_id=10**9, unless_busy=True)
