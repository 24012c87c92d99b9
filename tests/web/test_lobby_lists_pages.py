"""The lobby's wait lists (join, leave, position, take or turn down an offered seat) and the
rebuy, add-on and re-entry buttons while their windows are open: the same services as the API."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from games.models import EntryStatus as WaitStatus
from games.models import OfferStatus, Seat, WaitEntry
from tests.games.factories import make_player
from tests.games.floor import fill, fill_table, make_game, pending_offers, tables_of
from tests.tourney.director import started
from tourney.models import Entry, EntryStatus

pytestmark = pytest.mark.django_db


def _client(player) -> Client:
    client = Client()
    client.force_login(player.user)
    return client


def test_joining_a_list_shows_the_place_and_leaving_takes_the_name_off():
    game = make_game()
    fill_table(tables_of(game)[0])
    alice, bob = make_player("alice"), make_player("bob")
    assert _client(alice).post(f"/play/games/{game.id}/join/").status_code == 302
    response = _client(bob).post(f"/play/games/{game.id}/join/", HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and "2nd on the list" in response.content.decode()
    lobby = _client(alice).get("/play/").content.decode()
    assert "1st on the list" in lobby and "Leave the list" in lobby
    entry = WaitEntry.objects.get(player=alice)
    again = _client(alice).post(f"/play/games/{game.id}/join/", HTTP_HX_REQUEST="true")
    assert again.status_code == 409 and WaitEntry.objects.filter(player=alice).count() == 1
    _client(alice).post(f"/play/waitlist/{entry.id}/leave/")
    entry.refresh_from_db()
    assert entry.status == WaitStatus.LEFT
    assert "1st on the list" in _client(bob).get("/play/").content.decode()


def test_someone_elses_entry_cannot_be_left_accepted_or_declined():
    game = make_game()
    fill_table(tables_of(game)[0])
    alice, mallory = make_player("alice"), make_player("mallory")
    _client(alice).post(f"/play/games/{game.id}/join/")
    entry = WaitEntry.objects.get(player=alice)
    for action in ("leave", "accept", "decline"):
        response = _client(mallory).post(
            f"/play/waitlist/{entry.id}/{action}/", {"buy_in": 100}, HTTP_HX_REQUEST="true"
        )
        assert response.status_code in (403, 409), (action, response.status_code)
    entry.refresh_from_db()
    assert entry.status == WaitStatus.WAITING


def test_an_offered_seat_shows_its_countdown_and_taking_it_seats_the_player():
    game = make_game()
    table = tables_of(game)[0]
    fill_table(table, 3)
    alice = make_player("alice")
    _client(alice).post(f"/play/games/{game.id}/join/")
    fill(game)
    [offer] = pending_offers(game)
    lobby = _client(alice).get("/play/").content.decode()
    deadline = int(offer.expires_at.timestamp() * 1000)
    assert f'data-deadline="{deadline}"' in lobby and "Take the seat" in lobby
    assert f"A seat is yours: {table.name}, seat {offer.seat}." in lobby
    entry = WaitEntry.objects.get(player=alice)
    refused = _client(alice).post(
        f"/play/waitlist/{entry.id}/accept/", {"buy_in": 5}, HTTP_HX_REQUEST="true"
    )
    assert refused.status_code == 400 and not Seat.objects.filter(player=alice).exists()
    taken = _client(alice).post(f"/play/waitlist/{entry.id}/accept/", {"buy_in": 100})
    assert taken.status_code == 302 and taken["Location"] == f"/play/tables/{table.id}/"
    assert Seat.objects.get(player=alice).stack == 100


def test_turning_an_offer_down_keeps_nothing_pending():
    game = make_game()
    fill_table(tables_of(game)[0], 3)
    alice = make_player("alice")
    _client(alice).post(f"/play/games/{game.id}/join/")
    fill(game)
    entry = WaitEntry.objects.get(player=alice)
    response = _client(alice).post(f"/play/waitlist/{entry.id}/decline/", HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert not entry.offers.filter(status=OfferStatus.PENDING).exists()


def _buttons(html: str) -> list[str]:
    return re.findall(r'action="/play/tournaments/\d+/(rebuy|add-on|re-enter)/"', html)


def test_rebuy_and_add_on_buttons_while_open_and_they_buy_chips():
    tournament = started(
        2,
        rebuy_max=1,
        rebuy_levels=2,
        rebuy_price=110,
        rebuy_chips=1000,
        add_on_level=2,
        add_on_price=110,
        add_on_chips=1500,
    )
    entry = Entry.objects.filter(tournament=tournament).first()
    player = entry.player
    client = _client(player)
    assert _buttons(client.get("/play/").content.decode()) == ["rebuy", "add-on"]
    seat = Seat.objects.get(player=player)
    before = seat.stack
    response = client.post(f"/play/tournaments/{tournament.id}/add-on/", follow=True)
    assert "You took the add-on." in response.content.decode()
    seat.refresh_from_db()
    assert seat.stack == before + 1500
    assert _buttons(client.get("/play/").content.decode()) == []  # rebuy: stack too big now
    again = client.post(f"/play/tournaments/{tournament.id}/add-on/", follow=True)
    assert "one add-on per entry" in again.content.decode()
    seat.refresh_from_db()
    assert seat.stack == before + 1500


def test_re_entry_button_for_an_eliminated_player_while_the_window_is_open():
    tournament = started(3, re_entry_max=1, re_entry_levels=2)
    entry = Entry.objects.filter(tournament=tournament).first()
    Entry.objects.filter(pk=entry.pk).update(status=EntryStatus.ELIMINATED)
    Seat.objects.filter(player=entry.player).update(player=None, stack=0)
    client = _client(entry.player)
    lobby = client.get("/play/").content.decode()
    assert _buttons(lobby) == ["re-enter"]
    assert f"/play/tournaments/{tournament.id}/register/" not in lobby  # re-enter, not register
    response = client.post(f"/play/tournaments/{tournament.id}/re-enter/", follow=True)
    assert "You re-entered" in response.content.decode()
    assert Entry.objects.filter(tournament=tournament, player=entry.player).count() == 2
    assert _buttons(client.get("/play/").content.decode()) == []
