"""League fees and the season pot in the ledger: each entry of a season's tournament pays
the league fee into the pot (at registration, or when the tournament is attached), a
refunded entry gets it back, a live event's fees come in from the cash desk, and closing the
season pays the pot by the standings exactly once, odd units by the documented rule;
``ledger_check`` holds after every step."""

from __future__ import annotations

from datetime import date

import pytest

from games.errors import Conflict
from integrations.models import OutboxEvent, Subscription
from leagues.models import Season, SeasonEvent
from leagues.services import pot
from leagues.services.events import (
    event_attach_tournament,
    event_enter_live,
    event_results_replace,
)
from leagues.services.fees import pot_account
from money import cashier
from money.errors import InsufficientFunds
from money.ledger import balance_of, cash_desk, player_account
from money.models import Transaction
from money.reconciliation import ledger_check
from tests.games.factories import FUNDS, make_player
from tests.games.test_api_support import client_for
from tests.games.test_concurrency import run_at_once
from tests.leagues.world import make_member, make_season, make_world
from tests.tourney.tournaments import make_tournament
from tourney.services.commands.registration import entry_register, entry_unregister
from tourney.services.commands.setup import tournament_cancel

pytestmark = pytest.mark.django_db

FEE = 5


def _season(world, **overrides):
    fields = {"name": "Money", "league_fee": FEE, "pot_payout": ["60", "40"], **overrides}
    return make_season(world.league_a, **fields)


def _attach(season, tournament):
    return event_attach_tournament(season=season, tournament_id=tournament.id)


def _live(season, players, name="Live", played_on=date(2026, 3, 1)):
    results = [{"player": p.id, "place": place} for place, p in enumerate(players, start=1)]
    return event_enter_live(season=season, name=name, played_on=played_on, results=results)


def _club_balance(world, player):
    return balance_of(player_account(player.id, world.club_a.id))


def test_registering_in_a_seasons_tournament_pays_the_fee_and_unregistering_refunds_it():
    world = make_world()
    season = _season(world)
    tournament = make_tournament(club_id=world.club_a.id)
    event = _attach(season, tournament)
    ann, bob = make_member(world.club_a), make_member(world.club_a)
    for player in (ann, bob):
        entry_register(tournament_id=tournament.id, player_id=player.id)
    assert _club_balance(world, ann) == FUNDS - 110 - FEE
    assert balance_of(pot_account(season)) == 2 * FEE
    event.refresh_from_db()
    assert event.pot_contribution == 2 * FEE and pot.season_pot(season) == 2 * FEE
    entry_unregister(tournament_id=tournament.id, player_id=bob.id)
    assert _club_balance(world, bob) == FUNDS
    assert balance_of(pot_account(season)) == FEE
    assert ledger_check().ok, ledger_check().problems


def test_a_player_who_cannot_pay_the_fee_is_not_registered_and_pays_nothing():
    world = make_world()
    season = _season(world)
    tournament = make_tournament(club_id=world.club_a.id)
    _attach(season, tournament)
    poor = make_player(funds=0)
    staff = make_player(staff=True)
    cashier.deposit(player_id=poor.id, amount=110, by=staff.user, club_id=world.club_a.id)
    with pytest.raises(InsufficientFunds, match="league fee of 5"):
        entry_register(tournament_id=tournament.id, player_id=poor.id)
    assert _club_balance(world, poor) == 110
    assert not tournament.entries.exists()
    assert balance_of(pot_account(season)) == 0
    assert ledger_check().ok


def test_entries_made_before_the_tournament_was_attached_pay_when_it_is_all_or_nothing():
    world = make_world()
    season = _season(world)
    tournament = make_tournament(players=3, club_id=world.club_a.id)
    poor = make_player(funds=0)
    cashier.deposit(
        player_id=poor.id, amount=110, by=make_player(staff=True).user, club_id=world.club_a.id
    )
    entry_register(tournament_id=tournament.id, player_id=poor.id)
    with pytest.raises(InsufficientFunds):
        _attach(season, tournament)
    assert not SeasonEvent.objects.filter(tournament=tournament).exists()
    assert balance_of(pot_account(season)) == 0
    entry_unregister(tournament_id=tournament.id, player_id=poor.id)
    event = _attach(season, tournament)
    assert event.pot_contribution == 3 * FEE == balance_of(pot_account(season))
    assert ledger_check().ok


def test_cancelling_the_tournament_refunds_every_fee_and_the_season_closes_without_it():
    world = make_world()
    season = _season(world)
    tournament = make_tournament(club_id=world.club_a.id)
    _attach(season, tournament)
    players = [make_member(world.club_a) for _ in range(3)]
    for player in players:
        entry_register(tournament_id=tournament.id, player_id=player.id)
    tournament_cancel(tournament_id=tournament.id)
    assert balance_of(pot_account(season)) == 0
    assert all(_club_balance(world, p) == FUNDS for p in players)
    assert ledger_check().ok
    closed = pot.season_close(season_id=season.id)
    assert closed.pot_payouts == [] and not season.events.exists()
    assert ledger_check().ok


def test_live_fees_come_from_the_cash_desk_and_a_correction_moves_the_difference():
    world = make_world()
    season = _season(world)
    players = [make_member(world.club_a) for _ in range(4)]
    desk = balance_of(cash_desk(world.club_a.id))
    event = _live(season, players)
    assert balance_of(pot_account(season)) == 4 * FEE
    assert balance_of(cash_desk(world.club_a.id)) == desk - 4 * FEE
    results = [{"player": p.id, "place": place} for place, p in enumerate(players[:3], start=1)]
    event_results_replace(event=event, results=results)
    event.refresh_from_db()
    assert event.pot_contribution == 3 * FEE == balance_of(pot_account(season))
    assert balance_of(cash_desk(world.club_a.id)) == desk - 3 * FEE
    assert ledger_check().ok


def test_closing_pays_the_pot_by_the_standings_once_with_a_payout_event():
    world = make_world()
    Subscription.objects.create(
        club=world.club_a, url="http://127.0.0.1:8799/x", secret="s", event_types=["payout"]
    )
    season = _season(world, league_fee=7)
    players = [make_member(world.club_a) for _ in range(4)]
    _live(season, players)
    closed = pot.season_close(season_id=season.id)
    # pot 28: 60% and 40% are 16.8 and 11.2, rounded down to 16 and 11; the odd unit to 1st
    assert closed.pot_payouts == [
        {"rank": 1, "player": players[0].id, "amount": 17},
        {"rank": 2, "player": players[1].id, "amount": 11},
    ]
    assert _club_balance(world, players[0]) == FUNDS + 17
    assert _club_balance(world, players[1]) == FUNDS + 11
    assert balance_of(pot_account(season)) == 0
    event = OutboxEvent.objects.get(type="payout")
    assert event.club_id == world.club_a.id and event.payload["season"] == season.id
    assert event.payload["paid"] == closed.pot_payouts
    assert ledger_check().ok
    transactions = Transaction.objects.count()
    with pytest.raises(Conflict, match="already closed"):
        pot.season_close(season_id=season.id)
    assert Transaction.objects.count() == transactions
    assert _club_balance(world, players[0]) == FUNDS + 17


def test_players_sharing_a_rank_share_its_prizes_and_the_odd_unit_goes_by_standings_order():
    world = make_world()
    season = _season(world, league_fee=3)
    ann, bob, cy = make_member(world.club_a), make_member(world.club_a), make_member(world.club_a)
    # reverse_rank: ann 3 + 1, bob 2 + 2 = 4 points each, one win each: they share rank 1
    _live(season, [ann, bob, cy], "One", date(2026, 3, 1))
    _live(season, [bob, ann], "Two", date(2026, 3, 8))
    assert balance_of(pot_account(season)) == 15  # 5 entries x 3
    # the table pays 9 and 6 (60% and 40% of 15): the two players of rank 1 share both
    # ranks' 15, the odd unit to the first of them in standings order (the lower player id)
    paid = pot.season_close(season_id=season.id).pot_payouts
    assert paid == [
        {"rank": 1, "player": ann.id, "amount": 8},
        {"rank": 1, "player": bob.id, "amount": 7},
    ]
    assert _club_balance(world, cy) == FUNDS
    assert ledger_check().ok


def test_a_season_without_a_payout_table_pays_the_whole_pot_to_the_top():
    world = make_world()
    season = _season(world, pot_payout=[])
    players = [make_member(world.club_a) for _ in range(3)]
    _live(season, players)
    pot.season_close(season_id=season.id)
    assert _club_balance(world, players[0]) == FUNDS + 3 * FEE
    assert ledger_check().ok


def test_the_pot_is_in_the_api_with_its_transactions_and_an_idempotent_close():
    world = make_world()
    season = _season(world)
    players = [make_member(world.club_a) for _ in range(4)]
    _live(season, players)
    director = client_for(world.players["director_a"])  # with a token: requests are idempotent
    detail = director.get(f"/api/v1/seasons/{season.id}/").json()
    assert (detail["pot"], detail["pot_balance"]) == (20, 20)
    first = director.post(f"/api/v1/seasons/{season.id}/close/", HTTP_IDEMPOTENCY_KEY="close-1")
    again = director.post(f"/api/v1/seasons/{season.id}/close/", HTTP_IDEMPOTENCY_KEY="close-1")
    assert first.status_code == again.status_code == 200
    assert again["Idempotent-Replayed"] == "true" and again.content == first.content
    assert first.json()["pot_balance"] == 0
    other = director.post(f"/api/v1/seasons/{season.id}/close/", HTTP_IDEMPOTENCY_KEY="close-2")
    assert other.status_code == 409
    listed = world.client("member_a").get(f"/api/v1/seasons/{season.id}/pot/transactions/")
    assert listed.status_code == 200
    page = listed.json()
    assert [(p["reason"], p["amount"]) for p in page["results"]] == [
        ("season_payout", -8),
        ("season_payout", -12),
        ("league_fee", 20),
    ]
    assert page["next"] is None and page["count"] == 3
    fees = world.client("member_a").get(
        f"/api/v1/seasons/{season.id}/pot/transactions/?reason=league_fee&page_size=1"
    )
    assert fees.json()["count"] == 1
    other_club = world.client("director_b")
    assert other_club.get(f"/api/v1/seasons/{season.id}/pot/transactions/").status_code == 404
    assert Season.objects.get(pk=season.id).closed_at is not None


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_closes_at_once_pay_the_pot_once():
    world = make_world()
    season = _season(world)
    players = [make_member(world.club_a) for _ in range(4)]
    _live(season, players)
    results = run_at_once([lambda: pot.season_close(season_id=season.id)] * 2)
    assert sum(isinstance(r, Conflict) for r in results) == 1, results
    assert _club_balance(world, players[0]) == FUNDS + 12
    assert balance_of(pot_account(season)) == 0
    assert ledger_check().ok
