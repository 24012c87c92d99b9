"""The director's rulings: undo a bust, correct a chip count, disqualify; refusals change
nothing; the chip count still balances."""

from __future__ import annotations

import pytest

from games.errors import Conflict, Invalid
from tests.tourney.director import audit, entry_at, hand_in_progress, snapshot, started
from tests.tourney.tournaments import events, fake_hand, seated_chips, seats_of, table_of
from tourney.models import Entry, Tournament
from tourney.services.commands.director_clock import clock_jump
from tourney.services.commands.director_rulings import (
    ruling_chips,
    ruling_disqualify,
    ruling_undo_bust,
)
from tourney.services.steps.chips import chips_check
from tourney.services.update import tournament_update

pytestmark = pytest.mark.django_db


def _bust(tournament: Tournament, table: int, seats: list[int], winner: int) -> list[Entry]:
    """``seats`` at ``table`` lose everything to ``winner`` in one (fake) hand."""
    table_id = table_of(tournament, table).id
    stacks = seats_of(table_id)
    out = [entry_at(tournament, table, seat) for seat in seats]
    fake_hand(
        table_id,
        {**{s: 0 for s in seats}, winner: stacks[winner][1] + sum(stacks[s][1] for s in seats)},
    )
    tournament_update(tournament_id=tournament.id)
    return [Entry.objects.get(pk=e.pk) for e in out]


def test_undo_the_latest_bust_with_chips_from_the_player_who_took_them():
    tournament = started(players=6)
    seats = sorted(seats_of(table_of(tournament, 1).id))
    winner = entry_at(tournament, 1, seats[0])
    (out,) = _bust(tournament, 1, [seats[1]], seats[0])
    assert out.status == "eliminated"
    ruling_undo_bust(tournament_id=tournament.id, entry_id=out.id, chips=1000, from_entry=winner.id)
    back = Entry.objects.get(pk=out.id)
    assert (back.status, back.bust_group, back.place) == ("playing", None, None)
    assert seats_of(table_of(tournament, 1).id)[seats[1]] == (out.player_id, 1000)
    assert seats_of(table_of(tournament, 1).id)[seats[0]][1] == 1000
    assert seated_chips(tournament) == 6000
    assert events(tournament, "bust_undone")[0]["chips_delta"] == 0
    audit(tournament)


def test_undo_without_a_giver_adds_the_chips_to_play_and_logs_them():
    tournament = started(players=6)
    seats = sorted(seats_of(table_of(tournament, 1).id))
    (out,) = _bust(tournament, 1, [seats[1]], seats[0])
    free = max(set(range(1, 9)) - set(seats_of(table_of(tournament, 1).id)) - {seats[1]})
    ruling_undo_bust(tournament_id=tournament.id, entry_id=out.id, chips=500, table=1, seat=free)
    assert seats_of(table_of(tournament, 1).id)[free] == (out.player_id, 500)
    tournament.refresh_from_db()
    assert tournament.chips_adjusted == 500
    assert chips_check(tournament)
    audit(tournament)


def test_a_bust_a_later_one_depends_on_cannot_be_undone():
    tournament = started(players=6)
    seats = sorted(seats_of(table_of(tournament, 1).id))
    (first,) = _bust(tournament, 1, [seats[1]], seats[0])
    (second,) = _bust(tournament, 1, [seats[2]], seats[0])
    before = snapshot(tournament)
    with pytest.raises(Conflict) as error:
        ruling_undo_bust(tournament_id=tournament.id, entry_id=first.id, chips=1000)
    assert error.value.code == "later_bust" and error.value.detail == {"later": [second.id]}
    assert snapshot(tournament) == before
    ruling_undo_bust(tournament_id=tournament.id, entry_id=second.id, chips=1000)
    ruling_undo_bust(tournament_id=tournament.id, entry_id=first.id, chips=1000)
    assert Entry.objects.filter(tournament=tournament, status="playing").count() == 6


def test_undo_refusals_change_nothing():
    tournament = started(players=6)
    seats = sorted(seats_of(table_of(tournament, 1).id))
    playing = entry_at(tournament, 1, seats[0])
    (out,) = _bust(tournament, 1, [seats[1]], seats[0])
    before = snapshot(tournament)
    with pytest.raises(Conflict):  # not eliminated
        ruling_undo_bust(tournament_id=tournament.id, entry_id=playing.id, chips=1000)
    with pytest.raises(Invalid):  # not in the unit in play
        ruling_undo_bust(tournament_id=tournament.id, entry_id=out.id, chips=1003)
    with pytest.raises(Conflict) as error:  # the giver would be left with nothing
        ruling_undo_bust(
            tournament_id=tournament.id, entry_id=out.id, chips=2000, from_entry=playing.id
        )
    assert error.value.code == "donor_short"
    with pytest.raises(Conflict):  # a taken seat
        ruling_undo_bust(
            tournament_id=tournament.id, entry_id=out.id, chips=100, table=1, seat=seats[0]
        )
    hand_in_progress(tournament, 1)
    with pytest.raises(Conflict) as error:
        ruling_undo_bust(tournament_id=tournament.id, entry_id=out.id, chips=100)
    assert error.value.code == "in_hand"
    assert snapshot(tournament) == before


def test_an_undone_bust_gives_back_the_place_it_was_given():
    tournament = started(players=6, payout_percentages=["100"])
    seats = sorted(seats_of(table_of(tournament, 1).id))
    (out,) = _bust(tournament, 1, [seats[1]], seats[0])
    assert out.place == 6  # the field is final (no late registration): placed at once
    ruling_undo_bust(tournament_id=tournament.id, entry_id=out.id, chips=1000)
    assert Entry.objects.get(pk=out.id).place is None
    (again,) = _bust(tournament, 1, [seats[1]], seats[0])
    assert again.place == 6


def test_a_chip_correction_is_logged_with_its_difference():
    tournament = started(players=4)
    entry = entry_at(tournament, 1, min(seats_of(table_of(tournament, 1).id)))
    ruling_chips(tournament_id=tournament.id, entry_id=entry.id, chips=1250, reason="miscount")
    corrected = events(tournament, "chips_corrected")[0]
    assert (corrected["before"], corrected["after"], corrected["chips_delta"]) == (1000, 1250, 250)
    assert seated_chips(tournament) == 4250
    clock_jump(tournament_id=tournament.id, step=1)  # a level change checks the chips
    assert events(tournament, "chips")[-1]["ok"]
    audit(tournament)


def test_chip_correction_refusals():
    tournament = started(players=4)
    entry = entry_at(tournament, 1, min(seats_of(table_of(tournament, 1).id)))
    before = snapshot(tournament)
    for chips, error_type in ((1000, Conflict), (0, Invalid), (1001, Invalid)):
        with pytest.raises(error_type):
            ruling_chips(tournament_id=tournament.id, entry_id=entry.id, chips=chips, reason="x")
    assert snapshot(tournament) == before


def test_a_disqualified_player_is_eliminated_and_their_chips_leave_play():
    tournament = started(players=6)
    entry = entry_at(tournament, 1, min(seats_of(table_of(tournament, 1).id)))
    entry_returned = ruling_disqualify(
        tournament_id=tournament.id, entry_id=entry.id, reason="collusion"
    )
    out = Entry.objects.get(pk=entry.id)
    assert (out.status, out.disqualified, out.place) == ("eliminated", True, 6)
    assert (entry_returned.status, entry_returned.place) == ("eliminated", 6)
    assert seated_chips(tournament) == 5000
    logged = events(tournament, "disqualified")[0]
    assert (logged["chips_removed"], logged["chips_delta"], logged["reason"]) == (
        1000,
        -1000,
        "collusion",
    )
    with pytest.raises(Conflict) as error:
        ruling_undo_bust(tournament_id=tournament.id, entry_id=entry.id, chips=1000)
    assert error.value.code == "disqualified"
    clock_jump(tournament_id=tournament.id, step=1)
    assert events(tournament, "chips")[-1]["ok"]
    audit(tournament)


def test_disqualifying_the_last_opponent_ends_the_tournament():
    tournament = started(players=2, payout_percentages=["70", "30"])
    seats = sorted(seats_of(table_of(tournament, 1).id))
    loser, winner = entry_at(tournament, 1, seats[0]), entry_at(tournament, 1, seats[1])
    ruling_disqualify(tournament_id=tournament.id, entry_id=loser.id, reason="abuse")
    tournament.refresh_from_db()
    assert tournament.status == "finished"
    assert Entry.objects.get(pk=winner.id).place == 1
    audit(tournament)
