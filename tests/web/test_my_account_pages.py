"""The player's account pages: balances and transactions from the ledger, tournaments and
results, hands with a replayer and the .phh download, none of which ever holds an opponent's
unshown down card."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from games import selectors
from games.engine.views import view_for
from games.models import Hand, Table
from games.services import hands
from games.services.seating import seat_sit
from tests.games.factories import make_player, make_table
from tests.tourney.tournaments import make_tournament
from tourney.services.commands import registration

pytestmark = pytest.mark.django_db


def _client(player) -> Client:
    client = Client()
    client.force_login(player.user)
    return client


def _play_hand(table: Table, choose) -> Hand:
    """Deal a hand and let ``choose(player id, actions)`` decide for every player."""
    hands.table_advance(table.id)
    hand = selectors.running_hand(table)
    players = {entry["player"]: i for i, entry in enumerate(hand.lineup)}
    by_id = {seat.player_id: seat.player for seat in table.seats.exclude(player=None)}
    for _ in range(60):
        hand.refresh_from_db()
        if hand.status == "finished":
            return hand
        state = selectors.hand_state(hand)
        for player_id, index in players.items():
            options = view_for(state, index)["legal_actions"]
            if options:
                option = choose(player_id, {o["action"]: o for o in options})
                table.refresh_from_db()
                hands.hand_act(
                    table_id=table.id,
                    player=by_id[player_id],
                    action=option["action"],
                    amount=option.get("to") if option["action"] not in ("show", "muck") else None,
                    seq=table.seq,
                )
                break
        hands.table_advance(table.id)
    raise AssertionError("the hand did not finish")


def _first(options, *names):
    return next(options[name] for name in names if name in options)


def _alice_calls_down(player_id, options):
    return _first(options, "check", "call", "bring_in", "show")


def _heads_up():
    table = make_table()
    alice, bob = make_player("alice"), make_player("bob")
    seat_sit(table_id=table.id, player=alice, seat_number=1, buy_in=200)
    seat_sit(table_id=table.id, player=bob, seat_number=2, buy_in=200)
    return table, alice, bob


def _bob_folds(table, alice):
    def choose(player_id, options):
        if player_id == alice.id:
            return _first(options, "complete", "bet", "check", "call", "bring_in", "show")
        return _first(options, "fold", "muck", "check", "call", "bring_in")

    return choose


def _bob_mucks(table, alice):
    def choose(player_id, options):
        if player_id == alice.id:
            return _alice_calls_down(player_id, options)
        return _first(options, "muck", "check", "call", "bring_in", "show")

    return choose


def _index_of(hand, player):
    return next(i for i, e in enumerate(hand.lineup) if e["player"] == player.id)


def hand_bob_never_shows(table: Table, alice, bob, strategy) -> Hand:
    """A hand in which bob folds or mucks: bob mucks only a losing hand, so the seeds 0, 1,
    2... are dealt in turn until one loses for him (the same seed every run)."""
    for n in range(20):
        Table.objects.filter(pk=table.id).update(next_seed=n.to_bytes(32, "big"))
        hand = _play_hand(table, strategy(table, alice))
        if not selectors.hand_state(hand).players[_index_of(hand, bob)].shown:
            return hand
    raise AssertionError("bob showed every hand")


@pytest.mark.parametrize("strategy", [_bob_folds, _bob_mucks])
def test_the_replayer_and_the_phh_never_hold_an_opponents_unshown_down_cards(strategy):
    table, alice, bob = _heads_up()
    hand = hand_bob_never_shows(table, alice, bob, strategy)
    state = selectors.hand_state(hand)
    bob_index = _index_of(hand, bob)
    assert not state.players[bob_index].shown  # bob folded or mucked: never shown
    assert strategy is _bob_folds or state.players[bob_index].mucked
    bob_down = {repr(card) for card in state.players[bob_index].down}
    alice_down = {repr(card) for card in state.players[_index_of(hand, alice)].down}
    client = _client(alice)
    first = client.get(f"/me/hands/{hand.id}/?step=1").content.decode()
    steps = int(re.search(r"step 1 of (\d+)", first).group(1))
    for step in range(1, steps + 1):
        page = client.get(f"/me/hands/{hand.id}/?step={step}").content.decode()
        shown = set(re.findall(r'data-card="([^"]+)"', page))
        assert not shown & bob_down, (step, shown & bob_down)
    last = client.get(f"/me/hands/{hand.id}/").content.decode()
    assert alice_down <= set(re.findall(r'data-card="([^"]+)"', last))  # her own are there
    phh = client.get(f"/me/hands/{hand.id}/phh/")
    assert phh.status_code == 200 and phh["Content-Disposition"].endswith('.phh"')
    text = phh.content.decode()
    assert not any(card in text for card in bob_down)
    assert all(card in text for card in alice_down)


def test_a_hand_is_for_the_players_dealt_in_only():
    table, alice, bob = _heads_up()
    hand = hand_bob_never_shows(table, alice, bob, _bob_folds)
    carol = make_player("carol")
    assert _client(carol).get(f"/me/hands/{hand.id}/").status_code == 403
    assert _client(carol).get(f"/me/hands/{hand.id}/phh/").status_code == 403
    assert _client(alice).get(f"/me/hands/{hand.id}/?step=99").status_code == 400
    assert _client(alice).get(f"/me/hands/{hand.id}/?step=x").status_code == 400


def test_my_account_shows_balances_transactions_tournaments_and_hands():
    table, alice, bob = _heads_up()
    hand = hand_bob_never_shows(table, alice, bob, _bob_folds)
    tournament = make_tournament(name="Sunday Stud")
    registration.entry_register(tournament_id=tournament.id, player_id=alice.id)
    page = _client(alice).get("/me/")
    html = page.content.decode()
    assert page.status_code == 200
    assert "Deposit at the cashier" in html and "Ring game buy-in" in html
    assert "Tournament buy-in" in html and "Sunday Stud" in html
    assert f'href="/me/hands/{hand.id}/"' in html and f'href="/me/hands/{hand.id}/phh/"' in html
    assert 'href="/me/"' in html  # the nav link


def test_my_account_needs_a_sign_in_and_a_player_profile():
    assert Client().get("/me/").status_code == 302
    from django.contrib.auth import get_user_model

    staff = get_user_model().objects.create_user("desk", password="pw", is_staff=True)
    client = Client()
    client.force_login(staff)
    assert client.get("/me/").status_code == 403


def test_a_shown_hand_stays_face_down_in_the_replay_until_its_show():
    table, alice, bob = _heads_up()
    for n in range(20):  # the seeds 0, 1, 2... until bob wins and shows
        Table.objects.filter(pk=table.id).update(next_seed=n.to_bytes(32, "big"))
        hand = _play_hand(table, _bob_mucks(table, alice))
        state = selectors.hand_state(hand)
        if state.players[_index_of(hand, bob)].shown:
            break
    bob_down = {repr(card) for card in state.players[_index_of(hand, bob)].down}
    client = _client(alice)
    first = client.get(f"/me/hands/{hand.id}/?step=1").content.decode()
    assert not set(re.findall(r'data-card="([^"]+)"', first)) & bob_down
    last = client.get(f"/me/hands/{hand.id}/").content.decode()
    assert bob_down <= set(re.findall(r'data-card="([^"]+)"', last))
