"""Places (issue 35): provisional and final places are different events, a final place is
logged once and never changed, and the busts of a hand-for-hand round are final only once
the round is over; hand-for-hand only on a final field; nobody joins in the money."""

from __future__ import annotations

import pytest

from games.errors import Conflict
from games.models import HoldReason
from integrations.models import OutboxEvent, Subscription
from tests.games.factories import make_player
from tests.tourney.director import audit, snapshot
from tests.tourney.tournaments import (
    events,
    expire_level,
    fake_hand,
    make_tournament,
    open_table_ids,
    seats_of,
    table_of,
)
from tourney.models import Entry, Tournament
from tourney.services.commands.draw import tournament_start
from tourney.services.commands.registration import entry_re_enter, entry_register
from tourney.services.update import tournament_update

pytestmark = pytest.mark.django_db


def _final(tournament: Tournament) -> list[tuple[int, int, int]]:
    """Every place logged final: (player, place, prize), in the log's order."""
    return [
        (line["player"], line["place"], line["prize"])
        for event in events(tournament, "places_final")
        for line in event["places"]
    ]


def _player(table_id: int, seat: int) -> int:
    return seats_of(table_id)[seat][0]


def _bust_one(tournament: Tournament) -> None:
    """One player busts at a table with two or more, the next one taking the chips."""
    for table_id in open_table_ids(tournament):
        seats = seats_of(table_id)
        if len(seats) >= 2:
            low, high = sorted(seats)[:2]
            fake_hand(table_id, {low: 0, high: seats[low][1] + seats[high][1]})
            tournament_update(tournament_id=tournament.id)
            return
    raise AssertionError("no table with two players")


def test_a_hand_for_hand_round_is_logged_final_once_when_the_round_is_over():
    # 5 players, 4 paid, tables of 3 and 2: hand-for-hand from the start
    Subscription.objects.create(
        url="http://127.0.0.1:9/x", secret="s", event_types=["tournament.places"]
    )
    tournament = make_tournament(
        players=5, table_size=3, payout_percentages=["40", "30", "20", "10"]
    )
    tournament_start(tournament_id=tournament.id)
    t1, t2 = table_of(tournament, 1), table_of(tournament, 2)
    a, b, _ = sorted(seats_of(t1.id))
    d, e = sorted(seats_of(t2.id))
    pa, pd = _player(t1.id, a), _player(t2.id, d)
    fake_hand(t1.id, {a: 0, b: 2000})
    tournament_update(tournament_id=tournament.id)
    # table 2 has not played the round's hand: a's place is provisional
    assert [p["place"] for e in events(tournament, "places") for p in e["places"]] == [5]
    assert _final(tournament) == []
    fake_hand(t2.id, {d: 0, e: 2000})
    tournament_update(tournament_id=tournament.id)  # the round is over: a and d share 4th-5th
    assert _final(tournament) == []  # the latest bust: the director may still undo it
    _bust_one(tournament)
    assert sorted(_final(tournament)) == sorted([(pa, 4, 25), (pd, 4, 25)])
    # one webhook for the final places, none for the provisional ones
    hooks = OutboxEvent.objects.filter(type="tournament.places")
    assert [len(hook.payload["data"]["places"]) for hook in hooks] == [2]
    audit(tournament)


def test_a_final_place_is_never_logged_again():
    tournament = make_tournament(players=4, payout_percentages=["50", "30", "20"])
    tournament_start(tournament_id=tournament.id)
    table = table_of(tournament, 1)
    a, b, c, d = sorted(seats_of(table.id))
    pa, pb, pc, pd = (_player(table.id, seat) for seat in (a, b, c, d))
    fake_hand(table.id, {a: 0, b: 2000})
    tournament_update(tournament_id=tournament.id)
    assert _final(tournament) == []  # the latest bust: the director may still undo it
    fake_hand(table.id, {b: 0, c: 3000})
    tournament_update(tournament_id=tournament.id)
    assert _final(tournament) == [(pa, 4, 0)]
    fake_hand(table.id, {c: 0, d: 4000})
    tournament_update(tournament_id=tournament.id)
    assert _final(tournament) == [(pa, 4, 0), (pc, 2, 120), (pb, 3, 80), (pd, 1, 200)]
    audit(tournament)


OPEN_WINDOWS = {
    "re-entry": {"re_entry_max": 1, "re_entry_levels": 1},
    "late registration": {"late_reg_levels": 1},
    "rebuys": {
        "rebuy_max": 1,
        "rebuy_levels": 1,
        "rebuy_price": 110,
        "rebuy_fee": 10,
        "rebuy_chips": 1000,
    },
    "the add-on": {"add_on_level": 1, "add_on_price": 110, "add_on_fee": 10, "add_on_chips": 1000},
}


@pytest.mark.parametrize("window", list(OPEN_WINDOWS))
def test_hand_for_hand_waits_for_the_field_to_close(window):
    # 5 players, 4 paid, two tables: on the bubble from the start, but a window is open
    tournament = make_tournament(
        players=5,
        table_size=3,
        payout_percentages=["40", "30", "20", "10"],
        **OPEN_WINDOWS[window],
    )
    tournament_start(tournament_id=tournament.id)
    tournament.refresh_from_db()
    assert not tournament.hand_for_hand
    assert all(table_of(tournament, n).hold_reason != HoldReason.HAND_FOR_HAND for n in (1, 2))
    expire_level(tournament)  # the end of level 1 closes the window: the field is final
    tournament_update(tournament_id=tournament.id)
    tournament.refresh_from_db()
    assert tournament.hand_for_hand
    assert events(tournament, "hand_for_hand") == [{"players_left": 5}]
    audit(tournament)


def test_a_player_busted_in_the_money_cannot_re_enter_nor_anyone_register():
    # 4 players, 3 paid, re-entry and late registration open: the first bust reaches the money
    tournament = make_tournament(
        players=4,
        payout_percentages=["50", "30", "20"],
        re_entry_max=1,
        re_entry_levels=2,
        late_reg_levels=2,
    )
    tournament_start(tournament_id=tournament.id)
    table = table_of(tournament, 1)
    a, b, *_ = sorted(seats_of(table.id))
    pa = _player(table.id, a)
    fake_hand(table.id, {a: 0, b: 2000})
    tournament_update(tournament_id=tournament.id)
    before = snapshot(tournament)
    with pytest.raises(Conflict) as error:
        entry_re_enter(tournament_id=tournament.id, player_id=pa)
    assert error.value.code == "in_the_money"
    assert "3 left, 3 paid" in str(error.value)
    with pytest.raises(Conflict) as error:
        entry_register(tournament_id=tournament.id, player_id=make_player().id)
    assert error.value.code == "in_the_money"
    assert snapshot(tournament) == before
    assert Entry.objects.filter(tournament=tournament).count() == 4
