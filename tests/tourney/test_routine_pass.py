"""A routine update pass (busts in the middle of a level) locks only the tables waiting for
it, and what keeps it right when a table it did not lock is locked later in the pass, or a
bust is read against the wrong hand.

The pass holding only those tables, with the others dealing on, is tested on PostgreSQL in
``test_tournament_busy_tables``."""

from __future__ import annotations

import logging

import pytest

from games.models import Seat
from tests.tourney.tournaments import events, fake_hand, make_tournament, seats_of, table_of
from tourney.models import Entry
from tourney.services import update
from tourney.services.commands.draw import tournament_start
from tourney.services.steps.locks import busy_tables_for_update, open_tables_for_update
from tourney.services.update import tournament_update

pytestmark = pytest.mark.django_db


def _started(players: int):
    tournament = make_tournament(players=players)
    tournament_start(tournament_id=tournament.id)
    return tournament


def test_a_routine_pass_reads_the_tables_not_waiting_for_it_as_busy():
    tournament = _started(24)  # three tables of eight, none held
    first = table_of(tournament, 1)
    Seat.objects.filter(table=first, number=1).update(stack=0)  # a bust to eliminate there

    tables = open_tables_for_update(tournament, skip_busy=True, held_only=True)

    assert {locked.tt.number: locked.busy for locked in tables} == {1: False, 2: True, 3: True}
    assert all(locked.in_hand for locked in tables if locked.busy)


def test_a_table_with_a_player_without_chips_is_not_taken_in_later_in_the_pass():
    # Its hand ended after the pass looked for busts: moving that player would carry a bust
    # to another table (where the pass would then read it against a hand they were not in).
    tournament = _started(24)
    tables = open_tables_for_update(tournament, skip_busy=True, held_only=True)
    later = [locked for locked in tables if locked.tt.number in (2, 3)]
    Seat.objects.filter(table=later[0].table, number=1).update(stack=0)

    assert busy_tables_for_update(later, wait=False)

    assert [locked.busy for locked in later] == [True, False]


def test_a_bust_read_against_a_hand_the_player_was_not_in_credits_nobody_and_goes_on(caplog):
    tournament = _started(16)  # two tables of eight
    first = table_of(tournament, 1)
    seats = seats_of(first.id)
    (one, (_, lost)), (two, (_, won)) = sorted(seats.items())[:2]
    fake_hand(first.id, {one: 0, two: lost + won})
    first_hand = first.hands.get()  # made wrong: the busted player was not dealt in
    first_hand.lineup = [entry for entry in first_hand.lineup if entry["seat"] != one]
    first_hand.header = {"stacks": [won] * len(first_hand.lineup)}
    first_hand.save(update_fields=["lineup", "header"])

    with caplog.at_level(logging.ERROR):
        tournament_update(tournament_id=tournament.id)

    busted = Entry.objects.get(tournament=tournament, player_id=seats[one][0])
    assert busted.status == "eliminated"
    assert "was not dealt in" in caplog.text


def test_a_wave_of_busts_is_eliminated_a_few_tables_a_pass_in_the_order_the_hands_ended(
    monkeypatch,
):
    tournament = _started(40)  # five tables of eight
    busted = []
    for number in (3, 1, 5, 2, 4):  # the hands end in this order
        table = table_of(tournament, number)
        (one, (player, lost)), (two, (_, won)) = sorted(seats_of(table.id).items())[:2]
        fake_hand(table.id, {one: 0, two: lost + won})
        busted.append(player)
    monkeypatch.setattr(update, "BUST_HANDS_PER_PASS", 2)
    passes = []
    refresh = update.tournament_refresh
    monkeypatch.setattr(
        update, "tournament_refresh", lambda *a, **k: passes.append(k) or refresh(*a, **k)
    )

    tournament_update(tournament_id=tournament.id)

    assert [p["held_only"] for p in passes] == [True, True, True]  # 2 + 2 + 1 tables
    groups = [
        bust["player"] for event in events(tournament, "eliminated") for bust in event["busts"]
    ]
    assert groups == busted
    assert not Seat.objects.filter(
        table__tournament_table__tournament=tournament, player__isnull=False, stack=0
    ).exists()
