"""The player's pages: the lobby, sitting down, the table as the player may see it, acting
with the buttons, sitting out and leaving; sessions with CSRF."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from games import selectors
from games.models import Seat
from games.services import hands
from games.services.seating import seat_sit
from tests.games.factories import make_player, make_table
from tests.games.interleave import between_the_table_and_its_hand
from tests.tourney.tournaments import make_tournament
from tourney.models import Entry

pytestmark = pytest.mark.django_db


def _client(player) -> Client:
    client = Client()
    client.force_login(player.user)
    return client


def _heads_up(bot_kind: str = "station", **table_overrides):
    """A table with Alice in seat 1 and a bot in seat 2, first hand dealt."""
    table = make_table(**table_overrides)
    alice = make_player("alice")
    bot = make_player(bot="station" if bot_kind == "station" else bot_kind)
    seat_sit(table_id=table.id, player=alice, seat_number=1, buy_in=200)
    seat_sit(table_id=table.id, player=bot, seat_number=2, buy_in=200, by_staff=True)
    hands.table_advance(table.id)
    return table, alice, bot


def _cards_shown(html: str) -> list[str]:
    return re.findall(r'data-card="([^"]+)"', html)


def test_pages_need_a_login_and_the_login_page_signs_in():
    anonymous = Client()
    response = anonymous.get("/play/")
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    make_player("carol")
    page = anonymous.get("/accounts/login/?next=/play/")
    assert page.status_code == 200 and 'name="csrfmiddlewaretoken"' in page.content.decode()
    signed_in = anonymous.post(
        "/accounts/login/", {"username": "carol", "password": "pw", "next": "/play/"}
    )
    assert signed_in.status_code == 302 and signed_in["Location"] == "/play/"
    assert anonymous.get("/play/").status_code == 200


def test_a_post_without_the_csrf_token_is_refused_and_changes_nothing():
    table = make_table()
    alice = make_player("alice")
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice.user)
    response = client.post(f"/play/tables/{table.id}/sit/", {"seat": 1, "buy_in": 100})
    assert response.status_code == 403
    assert not Seat.objects.filter(table=table, player=alice).exists()


def test_the_lobby_lists_tables_with_free_seats_and_tournaments_to_register_for():
    table = make_table(name="Main")
    tournament = make_tournament(name="Sunday Stud")
    alice = make_player("alice")
    html = _client(alice).get("/play/").content.decode()
    assert "Main" in html and "8 of 8" in html and "Sunday Stud" in html
    assert f'action="/play/tables/{table.id}/sit/"' in html
    response = _client(alice).post(f"/play/tournaments/{tournament.id}/register/")
    assert response.status_code == 302
    assert Entry.objects.filter(tournament=tournament, player=alice).exists()
    again = _client(alice).post(f"/play/tournaments/{tournament.id}/register/", follow=True)
    assert "already" in again.content.decode() or "registered" in again.content.decode()
    assert Entry.objects.filter(tournament=tournament, player=alice).count() == 1


def test_sitting_down_from_the_lobby_and_a_buy_in_outside_the_limits_is_refused():
    table = make_table(buy_in_min=50, buy_in_max=500)
    alice = make_player("alice")
    client = _client(alice)
    refused = client.post(f"/play/tables/{table.id}/sit/", {"seat": 3, "buy_in": 5000}, follow=True)
    assert "outside this table&#x27;s limits 50..500" in refused.content.decode()
    assert not Seat.objects.filter(table=table, player=alice).exists()
    client.post(f"/play/tables/{table.id}/sit/", {"seat": 3, "buy_in": 300})
    assert Seat.objects.get(table=table, number=3).player == alice


def test_a_buy_in_beyond_the_players_money_is_refused_with_a_page_not_a_500():
    table = make_table(buy_in_min=50, buy_in_max=500)
    alice = make_player("alice", funds=100)
    client = _client(alice)
    refused = client.post(f"/play/tables/{table.id}/sit/", {"seat": 3, "buy_in": 300}, follow=True)
    assert refused.status_code == 200 and "deposit at the cashier first" in refused.content.decode()
    assert not Seat.objects.filter(table=table, player=alice).exists()
    region = client.post(
        f"/play/tables/{table.id}/sit/", {"seat": 3, "buy_in": 300}, HTTP_HX_REQUEST="true"
    )
    assert region.status_code == 409


def test_the_table_shows_own_down_cards_up_cards_and_never_the_bots_down_cards():
    table, alice, _ = _heads_up()
    hand = selectors.running_hand(table)
    state = selectors.hand_state(hand)
    mine = [repr(c) for c in state.players[0].down]
    theirs = [repr(c) for c in state.players[1].down]
    up = [repr(c) for p in state.players for c in p.up]
    html = _client(alice).get(f"/play/tables/{table.id}/").content.decode()
    shown = _cards_shown(html)
    assert all(card in shown for card in mine + up)
    assert not any(card in shown for card in theirs)
    assert shown.count("??") == len(theirs)
    assert "Third street" in html and "bot</span>" in html
    assert html.count('class="card') >= 6 and "down card" in html


def test_an_observer_sees_no_down_cards_at_all():
    table, _, _ = _heads_up()
    watcher = make_player("watcher")
    html = _client(watcher).get(f"/play/tables/{table.id}/").content.decode()
    state = selectors.hand_state(selectors.running_hand(table))
    downs = [repr(c) for p in state.players for c in p.down]
    assert not any(card in _cards_shown(html) for card in downs)
    assert 'data-action="' not in html


def test_legal_actions_are_buttons_with_amounts_and_a_click_acts():
    table, alice, _ = _heads_up()
    client = _client(alice)
    for _ in range(10):  # act with the first passive option until the hand ends
        html = client.get(f"/play/tables/{table.id}/").content.decode()
        buttons = re.findall(r'data-action="(\w+)">([^<]+)</button>', html)
        if not buttons:
            break
        labels = dict(buttons)
        choice = next(a for a in ("check", "call", "bring_in", "show") if a in labels)
        seq = re.search(r'name="seq" value="(\d+)"', html).group(1)
        amount = r'(?:<input type="hidden" name="amount" value="(\d+)">)?'
        form = re.search(rf'name="action" value="{choice}">\s*{amount}', html)
        body = {"action": choice, "seq": seq}
        if form.group(1):
            body["amount"] = form.group(1)
        response = client.post(f"/play/tables/{table.id}/act/", body, HTTP_HX_REQUEST="true")
        assert response.status_code == 200, response.content
        hands.table_advance(table.id)
    html = client.get(f"/play/tables/{table.id}/").content.decode()
    assert "Hand 1:" in html and " wins " in html


def test_a_stale_click_is_a_409_shown_in_the_region_and_changes_nothing():
    table, alice, _ = _heads_up()
    hand = selectors.running_hand(table)
    before = selectors.hand_state(hand).log
    response = _client(alice).post(
        f"/play/tables/{table.id}/act/",
        {"action": "call", "seq": 1, "amount": 2},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 409
    assert "stale seq 1" in response.content.decode()
    hand.refresh_from_db()
    assert selectors.hand_state(hand).log == before


def test_sit_out_sit_in_and_leave():
    table = make_table()
    alice = make_player("alice")
    seat_sit(table_id=table.id, player=alice, seat_number=4, buy_in=100)
    client = _client(alice)
    client.post(f"/play/tables/{table.id}/sit-out/")
    assert Seat.objects.get(table=table, number=4).sitting_out
    assert "Sit in" in client.get(f"/play/tables/{table.id}/").content.decode()
    client.post(f"/play/tables/{table.id}/sit-in/")
    assert not Seat.objects.get(table=table, number=4).sitting_out
    client.post(f"/play/tables/{table.id}/leave/")
    assert Seat.objects.get(table=table, number=4).player is None


def test_the_four_colour_deck_is_a_choice_kept_in_the_session():
    table, alice, _ = _heads_up()
    client = _client(alice)
    assert "deck-4" not in client.get(f"/play/tables/{table.id}/").content.decode()
    client.post("/play/deck/", {"four_colour": "on", "next": f"/play/tables/{table.id}/"})
    assert "deck-4" in client.get(f"/play/tables/{table.id}/").content.decode()
    response = client.post("/play/deck/", {"next": "https://elsewhere.example/"})
    assert response["Location"] == "/play/"  # never redirected off the site
    for not_a_path in ("-60", "lobby", "web:lobby", "tables/1/"):  # was a 500 (NoReverseMatch)
        response = client.post("/play/deck/", {"next": not_a_path})
        assert response.status_code == 302 and response["Location"] == "/play/"


def test_an_account_without_a_player_profile_is_told_so():
    from django.contrib.auth import get_user_model

    table = make_table()
    user = get_user_model().objects.create_user(username="boss", password="pw", is_staff=True)
    client = Client()
    client.force_login(user)
    response = client.post(f"/play/tables/{table.id}/sit/", {"seat": 1, "buy_in": 100})
    assert response.status_code == 403
    assert "no player profile" in response.content.decode()
    # From a live region (htmx) the refusal's page replaces the page, not the region in it.
    region = client.post(
        f"/play/tables/{table.id}/sit/", {"seat": 1, "buy_in": 100}, HTTP_HX_REQUEST="true"
    )
    assert region.status_code == 403 and "no player profile" in region.content.decode()
    assert (region["HX-Retarget"], region["HX-Reswap"]) == ("body", "innerHTML")


def test_a_live_region_polled_after_sign_out_sends_the_page_to_the_sign_in_page():
    table = make_table()
    response = Client().get(
        f"/play/tables/{table.id}/live/",
        HTTP_HX_REQUEST="true",
        HTTP_HX_CURRENT_URL=f"http://testserver/play/tables/{table.id}/",
    )
    assert response.status_code == 200
    assert response["HX-Redirect"] == f"/accounts/login/?next=/play/tables/{table.id}/"
    assert response.content == b""
    # Found by tests/web/test_pages_fuzz.py: a header that is no URL was a 500 (ValueError
    # from urlsplit); the region's own page is the one to come back to then.
    odd = Client().get(
        f"/play/tables/{table.id}/live/", HTTP_HX_REQUEST="true", HTTP_HX_CURRENT_URL="http://["
    )
    assert odd.status_code == 200
    assert odd["HX-Redirect"] == f"/accounts/login/?next=/play/tables/{table.id}/live/"


def test_the_sign_in_page_is_rate_limited_like_the_api(settings):
    make_player("carol")
    settings.SIGN_IN_LIMITS = {**settings.SIGN_IN_LIMITS, "free_failures": 2}
    client = Client()
    for _ in range(2):
        wrong = client.post("/accounts/login/", {"username": "carol", "password": "nope"})
        assert wrong.status_code == 200 and "Wrong username or password" in wrong.content.decode()
    refused = client.post("/accounts/login/", {"username": "carol", "password": "pw"})
    assert refused.status_code == 429 and int(refused["Retry-After"]) >= 1
    assert "_auth_user_id" not in client.session


def test_a_hand_dealt_while_the_page_is_read_is_drawn_with_its_own_seq(monkeypatch):
    """The page reads the table, then its hand; a hand dealt in between must not be drawn with
    the seq from before it (its buttons would then be refused as stale)."""
    table = make_table()
    alice = make_player("alice")
    seat_sit(table_id=table.id, player=alice, seat_number=1, buy_in=200)
    bot = make_player(bot="station")
    seat_sit(table_id=table.id, player=bot, seat_number=2, buy_in=200, by_staff=True)
    reads = []

    def deal_first(table_id):
        # the request reads the table for the region's version, then for the page: deal
        # between the page's reads of the table and of its hand (once: the advance reads too)
        reads.append(table_id)
        if len(reads) == 2:
            hands.table_advance(table.id)

    between_the_table_and_its_hand(monkeypatch, deal_first)
    html = _client(alice).get(f"/play/tables/{table.id}/live/").content.decode()
    table.refresh_from_db()
    assert 'name="action"' in html or "data-hand" in html  # the dealt hand is drawn
    assert set(re.findall(r'name="seq" value="(\d+)"', html)) <= {str(table.seq)}


def test_the_table_page_sends_a_client_seed_and_shows_the_one_published_for_its_hand():
    table = make_table()
    alice, bot = make_player("alice"), make_player(bot="station")
    seat_sit(table_id=table.id, player=alice, seat_number=1, buy_in=200)
    seat_sit(table_id=table.id, player=bot, seat_number=2, buy_in=200, by_staff=True)
    client = _client(alice)
    page = client.get(f"/play/tables/{table.id}/").content.decode()
    announced = selectors.table_snapshot(table.id, alice)[1]["next_commitment"]
    form = re.search(r'<form class="client-seed"[^>]*data-commitment="([0-9a-f]{64})"', page)
    assert form is not None and form.group(1) == announced  # fairness.js fills it in
    assert "web/fairness.js" in page
    observer_page = _client(make_player("dave")).get(f"/play/tables/{table.id}/")
    assert 'class="client-seed"' not in observer_page.content.decode()

    sent = client.post(
        f"/play/tables/{table.id}/client-seed/",
        {"commitment": announced, "client_seed": "9f86d081884c7d659a2feaa0c55ad015"},
    )
    stale = client.post(
        f"/play/tables/{table.id}/client-seed/",
        {"commitment": "00" * 32, "client_seed": "late"},
    )
    hands.table_advance(table.id)

    assert sent.status_code == 204
    # Not held, and not an error for the page: it sends a fresh seed for the next hand.
    assert (stale.status_code, stale.json()["code"]) == (200, "stale_commitment")
    # The page compares the seed it had accepted with the one published for its player.
    page = client.get(f"/play/tables/{table.id}/").content.decode()
    check = re.search(r'class="[^"]*client-seed-check"[^>]*>', page)
    assert check is not None
    assert f'data-hand-commitment="{announced}"' in check.group(0)
    assert 'data-client-seed="9f86d081884c7d659a2feaa0c55ad015"' in check.group(0)
    assert " hidden>" in check.group(0)
