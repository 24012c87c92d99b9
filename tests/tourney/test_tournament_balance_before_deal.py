"""Balance and break before the next deal: a table between hands that would deal while the
tournament is out of balance, should break, or waits for its final table's redraw, waits for
the pass that fixes it; a pass leaves every table within the threshold or logs why not."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, transaction

from games.locks import table_for_update
from games.services import hands
from tests.games.factories import make_player
from tests.tourney.tournaments import events, fake_hand, make_tournament, seats_of, table_of
from tourney.audit import AuditFailed, tournament_audit
from tourney.audit_deals import deals_audit
from tourney.models import Entry, Tournament
from tourney.services.commands.director_floor import floor_lock
from tourney.services.commands.draw import tournament_start
from tourney.services.commands.registration import entry_register
from tourney.services.update import tournament_update

pytestmark = pytest.mark.django_db


def _humans(players: int, **overrides: object) -> Tournament:
    """A started tournament of humans at tables of four (a hand dealt runs until they act)."""
    tournament = make_tournament(players=0, table_size=4, **overrides)
    for _ in range(players):
        entry_register(tournament_id=tournament.id, player_id=make_player().id)
    tournament_start(tournament_id=tournament.id)
    return tournament


def _bust(tournament: Tournament, number: int, out: int) -> None:
    """``out`` players of table ``number`` lose their chips to the next one; the pass runs."""
    seats = sorted(seats_of(table_of(tournament, number).id).items())
    winner, (_, kept) = seats[out]
    stacks = {seat: 0 for seat, _ in seats[:out]}
    stacks[winner] = kept + sum(stack for _, (_, stack) in seats[:out])
    fake_hand(table_of(tournament, number).id, stacks)
    tournament_update(tournament_id=tournament.id)


def _players(tournament: Tournament) -> list[int]:
    numbers = sorted(
        tournament.tables.exclude(table__status="closed").values_list("number", flat=True)
    )
    return [len(seats_of(table_of(tournament, n).id)) for n in numbers]


def test_a_free_giver_waits_while_the_short_table_plays_its_hand():
    # Given tables of 4, 3 and 2 players, within a threshold of 2, table 3 in a hand
    tournament = _humans(10, balance_threshold=2)
    _bust(tournament, 3, 1)
    assert _players(tournament) == [4, 3, 2]
    assert hands.table_advance(table_of(tournament, 3).id) == "waiting for a player"
    # When the threshold becomes 1: table 1 is one player over it, table 3 one short
    Tournament.objects.filter(pk=tournament.id).update(balance_threshold=1)
    tournament_update(tournament_id=tournament.id)
    # Then table 1 deals no hand before it gives its player; table 2, inside, deals on
    assert table_of(tournament, 1).hold_reason == "waiting for table balancing"
    assert table_of(tournament, 2).hold_reason == ""
    assert table_of(tournament, 3).hold_reason == "waiting for players to move in"
    assert tournament.tables.get(number=3).look_after_hand
    assert hands.table_advance(table_of(tournament, 1).id) == "held: waiting for table balancing"
    pending = events(tournament, "balance_pending")[-1]
    assert pending["why"] == "tables in a hand"
    assert pending["in_hand"] == [3]
    assert pending["tables"] == {"1": 4, "2": 3, "3": 2}


def test_the_pass_after_the_short_tables_hand_moves_and_leaves_it_within_the_threshold():
    tournament = _humans(10, balance_threshold=2)
    _bust(tournament, 3, 1)
    assert hands.table_advance(table_of(tournament, 3).id) == "waiting for a player"
    Tournament.objects.filter(pk=tournament.id).update(balance_threshold=1)
    tournament_update(tournament_id=tournament.id)
    logged = len(events(tournament, "balance_pending"))
    # When table 3's hand ends (no bust) and the pass runs
    hand = table_of(tournament, 3).hands.get(status="running")
    hand.status = "finished"
    hand.save(update_fields=["status"])
    tournament_update(tournament_id=tournament.id)
    # Then every table is within the threshold, dealing, and no new reason is logged
    assert _players(tournament) == [3, 3, 3]
    assert [table_of(tournament, n).hold_reason for n in (1, 2, 3)] == ["", "", ""]
    assert len(events(tournament, "balance_pending")) == logged


def test_a_pass_that_cannot_balance_for_locked_seats_says_so_and_the_tables_deal_on():
    tournament = _humans(10, balance_threshold=2)
    _bust(tournament, 3, 1)
    assert _players(tournament) == [4, 3, 2]  # 2 tables of 4 would not do: 9 > 8
    for player_id, _ in seats_of(table_of(tournament, 1).id).values():
        entry = Entry.objects.get(tournament=tournament, player_id=player_id)
        floor_lock(tournament_id=tournament.id, entry_id=entry.id, locked=True)
    Tournament.objects.filter(pk=tournament.id).update(balance_threshold=1)
    tournament_update(tournament_id=tournament.id)
    assert _players(tournament) == [4, 3, 2]
    pending = events(tournament, "balance_pending")[-1]
    assert (pending["why"], pending["unbalanced"], pending["waiting"]) == (
        "locked seats",
        [1, 3],
        [],
    )
    assert [table_of(tournament, n).hold_reason for n in (1, 2, 3)] == ["", "", ""]


def _hold_lock(table_id: int, locked: threading.Event, seconds: float) -> None:
    """Another transaction holding the table's lock for a while, as a hand being played."""
    try:
        with transaction.atomic():
            table_for_update(table_id)
            locked.set()
            threading.Event().wait(seconds)
    finally:
        connection.close()


def _while_busy(table_id: int, then: object) -> None:
    locked = threading.Event()
    holder = threading.Thread(target=_hold_lock, args=(table_id, locked, 0.5))
    holder.start()
    try:
        assert locked.wait(timeout=10)
        then()  # type: ignore[operator]
    finally:
        holder.join()


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_table_that_should_break_is_broken_even_while_its_hand_is_being_settled():
    # Given 3 tables of 4 and table 3's lock held by its hand's transaction
    tournament = _humans(12)
    _bust(tournament, 1, 2)
    assert sum(_players(tournament)) == 10
    t3 = table_of(tournament, 3)
    # When two more bust at table 2: 8 players fit at two tables
    _while_busy(t3.id, lambda: _bust(tournament, 2, 2))
    # Then the pass waited for that transaction and broke table 3: it deals no more hands
    t3.refresh_from_db()
    assert t3.status == "closed"
    assert _players(tournament) == [4, 4]


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_the_final_table_is_redrawn_before_a_busy_table_deals_again():
    # Given 6 players at 2 tables of 4, table 2's lock held by its hand's transaction
    tournament = _humans(8)
    _bust(tournament, 1, 2)
    assert _players(tournament) == [3, 3]
    # When 2 bust at table 1: the 4 left fit at one table
    _while_busy(table_of(tournament, 2).id, lambda: _bust(tournament, 1, 2))
    # Then the pass waited for that transaction and redrew the final table at once
    assert _players(tournament) == [4]
    assert events(tournament, "final_table")


def test_the_audit_catches_a_hand_dealt_out_of_balance_after_two_passes():
    # Given table 1 held for balancing while table 3 plays its hand, through two passes
    tournament = _humans(10, balance_threshold=2)
    _bust(tournament, 3, 1)
    assert hands.table_advance(table_of(tournament, 3).id) == "waiting for a player"
    Tournament.objects.filter(pk=tournament.id).update(balance_threshold=1)
    tournament.refresh_from_db()
    tournament_update(tournament_id=tournament.id)
    tournament_update(tournament_id=tournament.id)
    log = list(tournament.events.order_by("seq"))
    assert [e.kind for e in log].count("balance_pending") == 2
    assert deals_audit(tournament, log) == []
    # When a forged log shows table 1 playing a hand anyway
    fake_hand(table_of(tournament, 1).id, {})
    # Then the audit names it
    problems = deals_audit(tournament, log)
    assert len(problems) == 1
    assert problems[0].startswith("table 1 dealt hand 1 before its balance (2 passes since")
    with pytest.raises(AuditFailed, match="dealt out of turn"):
        tournament_audit(tournament)
