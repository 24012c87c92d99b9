"""An update pass reads the schedule, the paid entries' count and the locked seats once each
(``tourney.selectors.read_once``): it asked for them up to five, four and four times, a
fixed cost of every pass whatever it had to do (a big field's passes follow one another
while its players bust). Outside a pass every call reads afresh."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.models import Seat
from tests.tourney.tournaments import LEVELS, fake_hand, make_tournament, seats_of, table_of
from tourney.models import Entry, EntryStatus
from tourney.selectors import locked_players, payout_structure, read_once, schedule_entries
from tourney.services.commands.draw import tournament_start
from tourney.services.commands.schedules import schedule_update
from tourney.services.update import tournament_update

pytestmark = pytest.mark.django_db

READS = {
    "schedule": re.compile(r'FROM "tourney_scheduleentry"'),
    "paid entries": re.compile(r'SELECT COUNT\(\*\).*FROM "tourney_entry".*"status" IN'),
    "locked seats": re.compile(r'FROM "tourney_entry".*"seat_locked"'),
}


def _reads(queries: CaptureQueriesContext) -> dict[str, int]:
    sqls = [query["sql"] for query in queries.captured_queries]
    return {name: sum(bool(pattern.search(sql)) for sql in sqls) for name, pattern in READS.items()}


def test_an_update_pass_with_a_bust_reads_each_once():
    tournament = make_tournament(players=24)  # three tables of eight
    tournament_start(tournament_id=tournament.id)
    first = table_of(tournament, 1)
    (one, (_, lost)), (two, (_, won)) = sorted(seats_of(first.id).items())[:2]
    fake_hand(first.id, {one: 0, two: lost + won})

    with CaptureQueriesContext(connection) as queries:
        tournament_update(tournament_id=tournament.id)

    assert Entry.objects.filter(tournament=tournament, status=EntryStatus.ELIMINATED).count() == 1
    assert _reads(queries) == {"schedule": 1, "paid entries": 1, "locked seats": 1}


def test_outside_a_pass_each_call_reads_afresh_and_sees_a_change():
    tournament = make_tournament(players=9)
    tournament_start(tournament_id=tournament.id)
    seat = Seat.objects.filter(table=table_of(tournament, 1), player__isnull=False).first()
    assert seat is not None

    assert locked_players(tournament) == set()
    Entry.objects.filter(tournament=tournament, player_id=seat.player_id).update(seat_locked=True)
    assert locked_players(tournament) == {seat.player_id}

    before = len(schedule_entries(tournament.schedule_id))
    schedule_update(schedule_id=tournament.schedule_id, entries=LEVELS[:2])
    assert (before, len(schedule_entries(tournament.schedule_id))) == (len(LEVELS), 2)


def test_inside_read_once_a_change_is_not_seen_and_each_value_is_its_own_copy():
    tournament = make_tournament(players=40)
    tournament_start(tournament_id=tournament.id)
    with read_once():
        entries = schedule_entries(tournament.schedule_id)
        places = payout_structure(tournament).places
        Entry.objects.filter(tournament=tournament).update(status=EntryStatus.REFUNDED)
        entries.clear()  # the caller's list: the next caller still gets every entry

        assert len(schedule_entries(tournament.schedule_id)) == len(LEVELS)
        assert payout_structure(tournament).places == places
    assert payout_structure(tournament).places < places  # read afresh once outside
