"""Deals: only on a final prize pool, nothing sold after one, never while hands are running."""

from __future__ import annotations

import pytest

from games.errors import Conflict, Invalid
from games.services import hands
from tests.games.factories import make_player
from tests.tourney.tournaments import (
    expire_level,
    fake_hand,
    make_tournament,
    seats_of,
    table_of,
)
from tourney.models import Tournament
from tourney.services.commands.deals import deal_quote, deal_record
from tourney.services.commands.draw import tournament_start
from tourney.services.commands.purchases import entry_add_on, entry_rebuy
from tourney.services.commands.registration import entry_re_enter, entry_register
from tourney.services.update import tournament_update

pytestmark = pytest.mark.django_db

WINDOWS = {
    "late_reg_levels": 1,
    "re_entry_max": 1,
    "re_entry_levels": 1,
    "rebuy_max": 1,
    "rebuy_levels": 1,
    "rebuy_price": 110,
    "rebuy_fee": 10,
    "rebuy_chips": 1000,
    "add_on_level": 1,
    "add_on_price": 110,
    "add_on_fee": 10,
    "add_on_chips": 1000,
}


def _chip_chop(tournament: Tournament) -> dict[int, int]:
    return {q["entry"]: q["amount"] for q in deal_quote(tournament=tournament, method="chip_chop")}


def test_a_deal_while_late_registration_is_open_is_a_409():
    tournament = make_tournament(players=3, **WINDOWS)
    tournament_start(tournament_id=tournament.id)
    tournament.refresh_from_db()
    with pytest.raises(Conflict) as error:
        deal_record(tournament_id=tournament.id, amounts=_chip_chop(tournament))
    assert (error.value.status, error.value.code) == (409, "pool_open")
    assert error.value.message == (
        "the prize pool can still grow (late registration until the end of level 1, re-entry "
        "until the end of level 1, rebuys until the end of level 1, the add-on until the end "
        "of level 1): a deal shares out a final pool, so record it once they are closed"
    )
    assert Tournament.objects.get(pk=tournament.pk).deal is None


def test_once_a_deal_is_recorded_nothing_is_sold_any_more():
    tournament = make_tournament(players=3, **WINDOWS)
    tournament_start(tournament_id=tournament.id)
    expire_level(tournament)  # every window closes with level 1
    tournament_update(tournament_id=tournament.id)
    tournament.refresh_from_db()
    deal_record(tournament_id=tournament.id, amounts=_chip_chop(tournament))
    player_id = next(iter(seats_of(table_of(tournament, 1).id).values()))[0]
    for buy, player in (
        (entry_register, make_player().id),
        (entry_re_enter, player_id),
        (entry_rebuy, player_id),
        (entry_add_on, player_id),
    ):
        with pytest.raises(Conflict) as error:
            buy(tournament_id=tournament.id, player_id=player)
        assert (error.value.code, error.value.message.startswith("a deal was made")) == (
            "deal_made",
            True,
        )
    assert Tournament.objects.get(pk=tournament.pk).prize_pool == 300


def _with_a_hand_running() -> Tournament:
    """Humans (no bots) at one table: the first hand waits for them."""
    tournament = make_tournament()
    for _ in range(3):
        entry_register(tournament_id=tournament.id, player_id=make_player().id)
    tournament_start(tournament_id=tournament.id)
    hands.table_advance(table_of(tournament, 1).id)
    assert table_of(tournament, 1).hands.get().status == "running"
    return Tournament.objects.get(pk=tournament.pk)


def test_deal_quotes_while_a_hand_is_running_are_a_409():
    tournament = _with_a_hand_running()
    with pytest.raises(Conflict) as error:
        deal_quote(tournament=tournament, method="icm")
    assert (error.value.status, error.value.code, error.value.message) == (
        409,
        "hands_running",
        "tables in a hand: 1; the chips in their pots are in nobody's stack: pause the "
        "tournament and wait for the hands to end",
    )


def test_recording_a_deal_while_a_hand_is_running_is_a_409():
    tournament = _with_a_hand_running()
    entries = tournament.entries.values_list("id", flat=True)
    amounts = dict.fromkeys(entries, 100)
    with pytest.raises(Conflict) as error:
        deal_record(tournament_id=tournament.id, amounts=amounts)
    assert error.value.code == "hands_running"


def _right_after_a_bust() -> tuple[Tournament, int]:
    """Four players at one table; a hand just busted one of them and the tournament has
    not updated yet (the busted player is still ``playing``, with no chips)."""
    tournament = make_tournament(players=4, payout_percentages=["50", "30", "20"])
    tournament_start(tournament_id=tournament.id)
    table = table_of(tournament, 1)
    low, high, *_ = sorted(seats_of(table.id))
    busted = seats_of(table.id)[low][0]
    fake_hand(table.id, {low: 0, high: 2000})
    return Tournament.objects.get(pk=tournament.pk), busted


@pytest.mark.parametrize("method", ["icm", "chip_chop"])
def test_a_quote_right_after_a_bust_counts_the_bust_as_recorded(method):
    tournament, busted = _right_after_a_bust()
    quote = deal_quote(tournament=tournament, method=method)
    # pool 400: the prizes still to be won by the three left are 200 + 120 + 80
    assert busted not in [q["player"] for q in quote]
    assert sorted(q["chips"] for q in quote) == [1000, 1000, 2000]
    assert sum(q["amount"] for q in quote) == 400
    tournament_update(tournament_id=tournament.id)
    assert deal_quote(tournament=tournament, method=method) == quote


def test_recording_a_deal_before_a_bust_is_recorded_is_a_409_saying_what_to_wait_for():
    tournament, busted = _right_after_a_bust()
    entries = dict(tournament.entries.values_list("player_id", "id"))
    amounts = {entry: 100 for entry in entries.values()}
    with pytest.raises(Conflict) as error:
        deal_record(tournament_id=tournament.id, amounts=amounts)
    assert (error.value.status, error.value.code, error.value.detail) == (
        409,
        "update_pending",
        {"entries": [entries[busted]]},
    )
    assert Tournament.objects.get(pk=tournament.pk).deal is None


def test_an_unknown_deal_method_is_a_400_even_while_a_hand_is_running():
    tournament = _with_a_hand_running()
    with pytest.raises(Invalid) as error:
        deal_quote(tournament=tournament, method="bogus")
    assert (error.value.status, error.value.code) == (400, "method")
