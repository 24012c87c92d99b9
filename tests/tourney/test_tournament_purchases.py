"""Rebuys and add-ons: windows, limits, chips between hands, the pool, chip accounting."""

from __future__ import annotations

import pytest

from games.errors import Conflict
from games.services import hands
from tests.games.factories import make_player
from tests.tourney.tournaments import expire_level, make_tournament, seats_of, table_of
from tourney.services.commands.draw import tournament_start
from tourney.services.commands.purchases import entry_add_on, entry_rebuy
from tourney.services.commands.registration import entry_register
from tourney.services.steps.chips import chips_expected, chips_in_play
from tourney.services.update import tournament_update

pytestmark = pytest.mark.django_db

REBUYS = {
    "rebuy_max": 1,
    "rebuy_levels": 1,
    "rebuy_price": 55,
    "rebuy_fee": 5,
    "rebuy_chips": 1000,
    "add_on_level": 2,
    "add_on_price": 110,
    "add_on_fee": 10,
    "add_on_chips": 2000,
}


def _started(players: int = 3):
    tournament = make_tournament(players=players, **REBUYS)
    tournament_start(tournament_id=tournament.id)
    player_id = next(iter(seats_of(table_of(tournament, 1).id).values()))[0]
    return tournament, player_id


def test_a_rebuy_adds_its_chips_and_its_price_less_fee_to_the_pool():
    tournament, player_id = _started()
    entry = entry_rebuy(tournament_id=tournament.id, player_id=player_id)
    tournament.refresh_from_db()
    stacks = {pid: stack for pid, stack in seats_of(table_of(tournament, 1).id).values()}
    assert (entry.rebuys, stacks[player_id], tournament.prize_pool) == (1, 2000, 350)
    assert chips_in_play(tournament) == chips_expected(tournament) == 4000


def test_rebuys_stop_at_the_limit_and_after_the_window():
    tournament, player_id = _started()
    entry_rebuy(tournament_id=tournament.id, player_id=player_id)
    with pytest.raises(Conflict) as error:
        entry_rebuy(tournament_id=tournament.id, player_id=player_id)
    assert error.value.code == "rebuy_limit"
    other = next(
        pid for pid, _ in seats_of(table_of(tournament, 1).id).values() if pid != player_id
    )
    expire_level(tournament)
    tournament_update(tournament_id=tournament.id)
    with pytest.raises(Conflict) as error:
        entry_rebuy(tournament_id=tournament.id, player_id=other)
    assert error.value.code == "rebuy_closed"


def test_an_add_on_is_one_per_entry_and_waits_for_the_hand_to_end():
    tournament = make_tournament(players=0, **REBUYS)
    for _ in range(2):
        entry_register(tournament_id=tournament.id, player_id=make_player().id)
    tournament_start(tournament_id=tournament.id)
    table = table_of(tournament, 1)
    player_id = next(iter(seats_of(table.id).values()))[0]
    assert hands.table_advance(table.id) == "waiting for a player"  # humans: a hand runs
    with pytest.raises(Conflict) as error:
        entry_add_on(tournament_id=tournament.id, player_id=player_id)
    assert error.value.code == "in_hand"


def test_the_add_on_gives_its_chips_once():
    tournament, player_id = _started()
    entry_add_on(tournament_id=tournament.id, player_id=player_id)
    with pytest.raises(Conflict) as error:
        entry_add_on(tournament_id=tournament.id, player_id=player_id)
    assert error.value.code == "add_on_limit"
    tournament.refresh_from_db()
    assert tournament.prize_pool == 400
    assert chips_in_play(tournament) == chips_expected(tournament) == 5000
