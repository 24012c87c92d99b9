"""Tournaments and the ledger: buy-ins split between the pool and the house, refunds on
unregistering and cancelling, prizes paid from the pool when the tournament ends."""

from __future__ import annotations

import pytest

from money.errors import InsufficientFunds
from money.ledger import balance_of, house, player_account, prize_pool
from money.reconciliation import ledger_check
from tests.games.factories import FUNDS, make_player
from tests.tourney.tournaments import make_tournament, play_to_the_end
from tourney.models import Entry, Status
from tourney.services.commands.draw import tournament_start
from tourney.services.commands.registration import entry_register, entry_unregister
from tourney.services.commands.setup import tournament_cancel, tournament_configure

pytestmark = pytest.mark.django_db


def test_a_buy_in_pays_the_pool_and_the_fee_to_the_house_and_unregistering_refunds_both():
    tournament = make_tournament()
    player = make_player()
    entry_register(tournament_id=tournament.id, player_id=player.id)
    assert balance_of(player_account(player.id)) == FUNDS - 110
    assert balance_of(prize_pool(tournament.id)) == 100
    assert balance_of(house()) == 10
    entry_unregister(tournament_id=tournament.id, player_id=player.id)
    assert balance_of(player_account(player.id)) == FUNDS
    assert balance_of(prize_pool(tournament.id)) == 0
    assert ledger_check().ok


def test_registering_without_the_funds_is_refused_and_leaves_no_entry():
    tournament = make_tournament()
    player = make_player(funds=109)
    with pytest.raises(InsufficientFunds):
        entry_register(tournament_id=tournament.id, player_id=player.id)
    assert not Entry.objects.filter(tournament=tournament).exists()


def test_prices_cannot_change_once_entries_have_paid():
    tournament = make_tournament(players=2)
    from games.errors import Conflict

    with pytest.raises(Conflict):
        tournament_configure(tournament_id=tournament.id, buy_in=220)


def test_cancelling_refunds_everyone_fees_included():
    tournament = make_tournament(players=3)
    tournament_cancel(tournament_id=tournament.id)
    for entry in Entry.objects.filter(tournament=tournament):
        assert balance_of(player_account(entry.player_id)) == FUNDS
    assert balance_of(prize_pool(tournament.id)) == 0
    assert balance_of(house()) == 0
    assert ledger_check().ok


def test_prizes_are_paid_from_the_pool_when_the_tournament_ends():
    tournament = make_tournament(players=4)
    tournament_start(tournament_id=tournament.id)
    play_to_the_end(tournament)
    tournament.refresh_from_db()
    assert tournament.status == Status.FINISHED
    assert balance_of(prize_pool(tournament.id)) == 0
    for entry in Entry.objects.filter(tournament=tournament):
        assert balance_of(player_account(entry.player_id)) == FUNDS - 110 + entry.prize
    assert ledger_check().ok


def test_bounties_are_held_apart_and_paid_with_the_prizes_at_the_end():
    tournament = make_tournament(players=4, bounty=20)
    assert balance_of(prize_pool(tournament.id)) == 4 * 80
    tournament_start(tournament_id=tournament.id)
    play_to_the_end(tournament)
    entries = list(Entry.objects.filter(tournament=tournament))
    assert sum(e.bounty_won for e in entries) == 4 * 20
    for entry in entries:
        expected = FUNDS - 110 + entry.prize + entry.bounty_won
        assert balance_of(player_account(entry.player_id)) == expected
    assert ledger_check().ok
