"""An elimination's database work does not grow with the players it busts: the group's
seats are lifted in a few statements, its knockouts read from the hand's snapshot and its
entries written at once (a bust wave's cost in a big tournament: ``bench tournament``)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.models import Seat
from tests.tourney.knockout_hands import record_hand
from tests.tourney.test_knockouts import EIGHTS, LOSER, SHORT, WHEEL_1, WHEEL_2, WINNER
from tests.tourney.tournaments import events, make_tournament, open_table_ids
from tourney.services.commands.draw import tournament_start
from tourney.services.update import tournament_update

pytestmark = pytest.mark.django_db

KINGS = "KcKh 4h 5s 9c Td Qs"  # a pair of kings: loses to the wheels
HANDS = (SHORT, LOSER, EIGHTS, WINNER, KINGS, WHEEL_1, WHEEL_2)
SHORT_STACK = 15  # all in with the ante and the bring-in


def _bust(shorts: int) -> tuple[int, list[dict]]:
    """A hand at a table of seven where ``shorts`` short stacks lose all to the two wheels;
    the statements of the update pass that eliminates them, and its bust log lines."""
    tournament = make_tournament(players=len(HANDS), bounty=20)
    tournament_start(tournament_id=tournament.id)
    table_id = open_table_ids(tournament)[0]
    seats = list(Seat.objects.filter(table_id=table_id, player__isnull=False).order_by("number"))
    total = sum(seat.stack for seat in seats)
    stacks = {seat.number: SHORT_STACK for seat in seats[:shorts]}
    rest = seats[shorts:]
    each = (total - SHORT_STACK * shorts) // len(rest)
    stacks |= {seat.number: each for seat in rest[1:]}
    stacks[rest[0].number] = total - sum(stacks.values())
    record_hand(
        table_id, stacks, {seat.number: cards for seat, cards in zip(seats, HANDS, strict=True)}
    )
    with CaptureQueriesContext(connection) as queries:
        tournament_update(tournament_id=tournament.id)
    busts = [bust for event in events(tournament, "eliminated") for bust in event["busts"]]
    assert sorted(bust["player"] for bust in busts) == sorted(s.player_id for s in seats[:shorts])
    return len(queries.captured_queries), busts


def test_busting_three_players_costs_the_statements_of_busting_one():
    one, busts_one = _bust(1)
    three, busts_three = _bust(3)

    assert len(busts_one) == 1 and len(busts_three) == 3
    for bust in busts_one + busts_three:  # each credited to the two wheels, who split
        assert [k["share"] for k in bust["knocked_out_by"]] == ["1/2", "1/2"]
    assert three == one
