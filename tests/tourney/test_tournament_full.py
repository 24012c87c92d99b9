"""A whole bot tournament without workers (tasks called directly), to the last hand."""

from __future__ import annotations

import pytest

from tests.tourney.tournaments import events, make_tournament, play_to_the_end, seated_chips
from tourney.models import Entry, Move
from tourney.services.commands.draw import tournament_start

pytestmark = pytest.mark.django_db


def test_thirty_bots_play_to_the_end_with_chips_conserved_and_every_place_given():
    tournament = make_tournament(players=30)
    tournament_start(tournament_id=tournament.id)
    play_to_the_end(tournament)
    tournament.refresh_from_db()
    entries = list(Entry.objects.filter(tournament=tournament))
    assert tournament.status == "finished"
    assert sum(e.prize for e in entries) == tournament.prize_pool == 3000
    assert all(e.place is not None for e in entries)
    assert sorted(e.place for e in entries)[0] == 1
    winners = [e for e in entries if e.status == "winner"]
    assert [e.place for e in winners] == [1]
    assert {e.status for e in entries} == {"winner", "eliminated"}
    checks = events(tournament, "chips")
    assert checks and all(c["ok"] and c["in_play"] == 30000 for c in checks)
    assert seated_chips(tournament) == 30000
    assert Move.objects.filter(tournament=tournament).exists()
    assert events(tournament, "final_table")
