"""The audit's order checks (issue 35), each catching a forged log: busts placed in the
order their hands ended, no final place changed, no hand-for-hand while the field is open,
no hand-for-hand round started before the round before it ended at every table."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from games.models import Hand
from tests.tourney.director import audit
from tests.tourney.tournaments import events, fake_hand, make_tournament, seats_of, table_of
from tourney.audit import AuditFailed, tournament_audit
from tourney.models import Tournament, TournamentEvent
from tourney.services.commands.draw import tournament_start
from tourney.services.update import tournament_update

pytestmark = pytest.mark.django_db


def _played_out() -> Tournament:
    """4 players at one table, 3 paid, busting one by one to the end."""
    tournament = make_tournament(players=4, payout_percentages=["50", "30", "20"])
    tournament_start(tournament_id=tournament.id)
    table = table_of(tournament, 1)
    a, b, c, d = sorted(seats_of(table.id))
    for out, winner, chips in ((a, b, 2000), (b, c, 3000), (c, d, 4000)):
        fake_hand(table.id, {out: 0, winner: chips})
        tournament_update(tournament_id=tournament.id)
    tournament.refresh_from_db()
    assert tournament.status == "finished"
    audit(tournament)
    return tournament


def _hand_for_hand_round_played() -> Tournament:
    """5 players, 4 paid, tables of 3 and 2: hand-for-hand from the start, one round played."""
    tournament = make_tournament(
        players=5, table_size=3, payout_percentages=["40", "30", "20", "10"]
    )
    tournament_start(tournament_id=tournament.id)
    t1, t2 = table_of(tournament, 1), table_of(tournament, 2)
    a, b, _ = sorted(seats_of(t1.id))
    fake_hand(t1.id, {a: 1500, b: 500})
    tournament_update(tournament_id=tournament.id)
    fake_hand(t2.id, {})
    tournament_update(tournament_id=tournament.id)
    assert len(events(tournament, "hand_for_hand_round")) == 1
    audit(tournament)
    return tournament


def _event(tournament: Tournament, kind: str, n: int = 0) -> TournamentEvent:
    return TournamentEvent.objects.filter(tournament=tournament, kind=kind).order_by("seq")[n]


def _fails(tournament: Tournament, problem: str) -> None:
    with pytest.raises(AuditFailed) as error:
        tournament_audit(tournament)
    assert problem in str(error.value)


def test_the_audit_catches_a_bust_placed_out_of_the_order_of_the_hands():
    tournament = _played_out()
    first, second = _event(tournament, "eliminated", 0), _event(tournament, "eliminated", 1)
    later = datetime.fromisoformat(second.data["busts"][0]["ended_at"]) + timedelta(seconds=1)
    first.data["busts"][0]["ended_at"] = later.isoformat()  # the first bust, forged later
    first.save()
    _fails(tournament, "after players placed")


def test_the_audit_catches_a_final_place_changed():
    tournament = _played_out()
    final = _event(tournament, "places_final").data["places"][0]
    TournamentEvent.objects.create(
        tournament=tournament,
        seq=TournamentEvent.objects.filter(tournament=tournament).count() + 1,
        kind="places",
        data={"places": [{**final, "place": final["place"] - 1}]},
    )
    _fails(tournament, "changed to")


def test_the_audit_catches_a_final_place_logged_twice():
    tournament = _played_out()
    final = _event(tournament, "places_final")
    TournamentEvent.objects.create(
        tournament=tournament,
        seq=TournamentEvent.objects.filter(tournament=tournament).count() + 1,
        kind="places_final",
        data=final.data,
    )
    _fails(tournament, "logged final twice")


def test_the_audit_catches_hand_for_hand_while_re_entry_was_open():
    tournament = _hand_for_hand_round_played()
    Tournament.objects.filter(pk=tournament.pk).update(re_entry_max=1, re_entry_levels=2)
    _fails(tournament, "['re-entry'] open")


def test_the_audit_catches_a_round_started_before_a_table_ended_the_last():
    tournament = _hand_for_hand_round_played()
    last = Hand.objects.filter(table=table_of(tournament, 2)).latest("number")
    assert last.finished_at is not None
    # the round's hand at table 2 took a second, and the next round is forged as started
    # 5 ms before it ended
    Hand.objects.filter(pk=last.pk).update(started_at=last.finished_at - timedelta(seconds=1))
    TournamentEvent.objects.filter(pk=_event(tournament, "hand_for_hand_round").pk).update(
        created_at=last.finished_at - timedelta(milliseconds=5)
    )
    _fails(tournament, "ended after the next round started")


def test_the_audit_catches_a_table_dealing_twice_in_a_round():
    tournament = _hand_for_hand_round_played()
    table = table_of(tournament, 1)
    fake_hand(table.id, {})  # a second hand at table 1, before the next round (forged later)
    round_two = _event(tournament, "hand_for_hand_round")
    TournamentEvent.objects.filter(pk=round_two.pk).update(
        created_at=round_two.created_at + timedelta(seconds=5)
    )
    _fails(tournament, "as its second in the hand-for-hand round")
