"""Busts placed in the order their hands ended even when update passes see them out of that
order (issue 35): a hand ending while a pass runs, its table locked by its own transaction,
is seen by the next pass; and a pass starting hand-for-hand waits for such a table, so it
does not deal on unheld into the next round. Row locks: PostgreSQL."""

from __future__ import annotations

import threading
import time
from contextlib import contextmanager
from datetime import timedelta

import pytest
from django.db import connection, transaction

from games.models import Hand, HoldReason, Table
from tests.tourney.director import audit
from tests.tourney.tournaments import events, fake_hand, make_tournament, seats_of, table_of
from tourney.models import Entry, Tournament
from tourney.services.commands.draw import tournament_start
from tourney.services.update import tournament_update

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@contextmanager
def hand_ending(table_id: int, end_stacks: dict[int, int], *, earlier: float, hold: float):
    """Another transaction ending a hand at the table (its lock held): the hand ends
    ``earlier`` seconds before now, and the transaction commits ``hold`` seconds after it
    began, or when the block ends."""
    locked, release = threading.Event(), threading.Event()

    def end() -> None:
        try:
            with transaction.atomic():
                Table.objects.select_for_update().get(pk=table_id)
                hand = fake_hand(table_id, end_stacks)
                Hand.objects.filter(pk=hand.pk).update(
                    finished_at=hand.finished_at - timedelta(seconds=earlier)
                )
                locked.set()
                release.wait(timeout=hold)
        finally:
            connection.close()

    ender = threading.Thread(target=end)
    ender.start()
    try:
        assert locked.wait(timeout=10)
        yield
    finally:
        release.set()
        ender.join()


def _place(tournament: Tournament, player: int) -> int | None:
    return Entry.objects.get(tournament=tournament, player_id=player).place


def test_a_bust_seen_by_a_later_pass_is_placed_below_a_later_bust_seen_before():
    # 8 players at two tables of 4, 3 paid: 5th place and below win nothing
    tournament = make_tournament(players=8, table_size=4, payout_percentages=["50", "30", "20"])
    tournament_start(tournament_id=tournament.id)
    t1, t2 = table_of(tournament, 1), table_of(tournament, 2)
    a, b, *_ = sorted(seats_of(t1.id))
    d, e, *_ = sorted(seats_of(t2.id))
    pa, pd = seats_of(t1.id)[a][0], seats_of(t2.id)[d][0]
    # table 2's hand ended first (a second ago) but its transaction commits late
    with hand_ending(t2.id, {d: 0, e: 2000}, earlier=1, hold=30):
        fake_hand(t1.id, {a: 0, b: 2000})
        tournament_update(tournament_id=tournament.id)  # sees table 1's bust only
        assert _place(tournament, pa) == 8
        assert events(tournament, "places_final") == []  # table 2 is not known yet
    tournament_update(tournament_id=tournament.id)
    # d busted first: 8th; a 7th
    assert (_place(tournament, pd), _place(tournament, pa)) == (8, 7)
    assert [line["place"] for line in events(tournament, "places")[-1]["places"]] == [7, 8]
    audit(tournament)


def test_starting_hand_for_hand_waits_for_a_table_ending_its_hand():
    # 6 players at two tables of 3, 4 paid: the bubble is 5 left
    tournament = make_tournament(
        players=6, table_size=3, payout_percentages=["40", "30", "20", "10"]
    )
    tournament_start(tournament_id=tournament.id)
    t1, t2 = table_of(tournament, 1), table_of(tournament, 2)
    a, b, _ = sorted(seats_of(t1.id))
    # table 2's hand (no bust) is ending while the pass that reaches the bubble runs: that
    # hand read hand-for-hand as off. It is the table's hand of the first round (it was in
    # progress when the bubble was reached), so the round is over at once and the next one
    # starts with both tables.
    with hand_ending(t2.id, {}, earlier=0, hold=0.5):
        fake_hand(t1.id, {a: 0, b: 2000})
        started = time.monotonic()
        tournament_update(tournament_id=tournament.id)
        assert time.monotonic() - started > 0.3  # it waited for table 2
    tournament.refresh_from_db()
    assert tournament.hand_for_hand
    assert events(tournament, "hand_for_hand_round") == [{"players_left": 5}]
    assert [table_of(tournament, n).hold_reason for n in (1, 2)] == [HoldReason.NONE] * 2
    assert tournament.tables.get(number=2).hands_seen == 1
    audit(tournament)
