"""Live chip conservation: the director's counts are checked against the chips in play once
every player left was counted since the last bust; a mismatch is logged (not forced ok), the
audit reports it, and the winner's closing count is taken after the last bust."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from games.errors import Conflict
from tests.games.factories import make_player
from tests.tourney.tournaments import events, make_tournament, seats_of, table_of
from tourney.audit import AuditFailed, tournament_audit
from tourney.models import Entry, Tournament, TournamentEvent
from tourney.services.commands.draw import tournament_start
from tourney.services.commands.live import live_report_busts, live_report_chips
from tourney.services.commands.purchases import entry_rebuy

pytestmark = pytest.mark.django_db


def _live(players: int, **overrides) -> tuple[Tournament, list[Entry]]:
    tournament = make_tournament(players=players, mode="live", **overrides)
    tournament_start(tournament_id=tournament.id)
    seats = seats_of(table_of(tournament, 1).id)
    entries = [
        Entry.objects.get(tournament=tournament, player_id=seats[n][0], status="playing")
        for n in sorted(seats)
    ]
    return tournament, entries


def test_a_full_count_that_does_not_add_up_is_logged_as_a_mismatch():
    tournament, (a, b, c) = _live(3)
    live_report_busts(tournament_id=tournament.id, busts={a.id: 1000})
    live_report_chips(tournament_id=tournament.id, counts={b.id: 1500, c.id: 1000})
    assert events(tournament, "chips")[-1] == {
        "level_index": 0,
        "in_play": 2500,
        "expected": 3000,
        "ok": False,
    }
    figures = tournament_audit(tournament)
    assert figures["live_unresolved"] is True
    assert [(m["in_play"], m["expected"]) for m in figures["live_mismatches"]] == [(2500, 3000)]


def test_a_partial_count_after_a_bust_is_not_checked_until_everyone_is_counted():
    tournament, (a, b, c) = _live(3)
    live_report_busts(tournament_id=tournament.id, busts={a.id: 1000})
    live_report_chips(tournament_id=tournament.id, counts={b.id: 2000})
    assert events(tournament, "chips") == []
    live_report_chips(tournament_id=tournament.id, counts={c.id: 1000})
    assert events(tournament, "chips")[-1]["ok"] is True
    assert tournament_audit(tournament)["live_unresolved"] is False


def test_rebuys_count_in_the_chips_in_play():
    tournament, (a, b) = _live(2, rebuy_max=1, rebuy_levels=1, rebuy_price=100, rebuy_chips=1000)
    entry_rebuy(tournament_id=tournament.id, player_id=a.player_id)
    live_report_chips(tournament_id=tournament.id, counts={a.id: 1500, b.id: 1500})
    assert events(tournament, "chips")[-1]["expected"] == 3000
    assert events(tournament, "chips")[-1]["ok"] is True


def test_the_winners_closing_count_is_taken_after_the_last_bust_and_checked():
    tournament, (a, b, c) = _live(3, payout_percentages=["100"])
    live_report_busts(tournament_id=tournament.id, busts={a.id: 1000})
    live_report_busts(tournament_id=tournament.id, busts={b.id: 2000})
    tournament.refresh_from_db()
    assert tournament.status == "finished"
    assert events(tournament, "chips") == []  # the seats hold no count of the end yet
    live_report_chips(tournament_id=tournament.id, counts={c.id: 3000})
    assert events(tournament, "chips")[-1] == {
        "level_index": 0,
        "in_play": 3000,
        "expected": 3000,
        "ok": True,
    }
    assert events(tournament, "chip_count")[-1] == {"counts": [{"entry": c.id, "chips": 3000}]}
    assert tournament_audit(tournament)["live_mismatches"] == []


def test_after_the_end_only_the_winners_count_is_taken():
    tournament, (a, b) = _live(2, payout_percentages=["100"])
    live_report_busts(tournament_id=tournament.id, busts={a.id: 1000})
    logged = TournamentEvent.objects.filter(tournament=tournament).count()
    with pytest.raises(Conflict) as error:
        live_report_chips(tournament_id=tournament.id, counts={a.id: 2000, b.id: 2000})
    assert error.value.code == "not_running"
    assert str(b.id) in error.value.message
    assert TournamentEvent.objects.filter(tournament=tournament).count() == logged


def test_the_audit_fails_a_chip_check_forced_ok():
    tournament, (a, b, c) = _live(3)
    live_report_busts(tournament_id=tournament.id, busts={a.id: 1000})
    live_report_chips(tournament_id=tournament.id, counts={b.id: 1500, c.id: 1000})
    check = TournamentEvent.objects.filter(tournament=tournament, kind="chips").get()
    check.data["ok"] = True  # what live checks logged before
    check.save()
    with pytest.raises(AuditFailed, match="say ok against their figures"):
        tournament_audit(tournament)


def test_the_api_takes_the_winners_closing_count_after_the_last_bust():
    tournament, (a, b) = _live(2, payout_percentages=["100"])
    staff = APIClient()
    staff.force_authenticate(make_player("director", staff=True).user)
    url = f"/api/v1/tournaments/{tournament.id}/"
    assert (
        staff.post(url + "busts/", {"counts": {str(a.id): 1000}}, format="json").status_code == 200
    )
    closing = staff.post(url + "chips/", {"counts": {str(b.id): 1900}}, format="json")
    assert closing.status_code == 200
    assert events(tournament, "chips")[-1] == {
        "level_index": 0,
        "in_play": 1900,
        "expected": 2000,
        "ok": False,
    }
