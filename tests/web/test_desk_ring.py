"""The desk's ring games (staff): open a game as the API does, the wait list with walk-ins,
offers accepted with a buy-in, names moved or removed with a reason, tables closed; errors
beside their fields with nothing changed."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from games.models import Game, Seat, TableStatus, WaitEntry
from tests.games.factories import make_player
from tests.games.floor import fill, fill_table, make_game, pending_offers, tables_of, waiting

pytestmark = pytest.mark.django_db

GAME = {
    "name": "Stud 5/10",
    "mode": "live",
    "variant": "stud_hi",
    "ante": 1,
    "bring_in": 2,
    "small_bet": 5,
    "big_bet": 10,
    "seat_count": 4,
    "buy_in_min": 50,
    "buy_in_max": 1000,
}


def _client(player) -> Client:
    client = Client()
    client.force_login(player.user)
    return client


def test_ring_games_are_for_staff():
    assert Client().get("/desk/ring/").status_code == 302
    player = _client(make_player("alice"))
    assert player.get("/desk/ring/").status_code == 403
    refused = player.post("/desk/ring/", {k: str(v) for k, v in GAME.items()})
    assert refused.status_code == 403 and not Game.objects.exists()
    game = make_game()
    assert player.post(f"/desk/ring/{game.id}/walk-in/", {"name": "Bob"}).status_code == 403
    assert not WaitEntry.objects.exists()


def test_a_game_opened_at_the_desk_is_the_one_the_api_opens():
    boss = make_player("boss", staff=True)
    staff = _client(boss)
    bad = staff.post("/desk/ring/", {**{k: str(v) for k, v in GAME.items()}, "buy_in_max": "10"})
    assert bad.status_code == 400 and 'id="f-buy_in_max-error"' in bad.content.decode()
    bad = staff.post("/desk/ring/", {**{k: str(v) for k, v in GAME.items()}, "ante": "x"})
    assert bad.status_code == 400 and 'id="f-ante-error"' in bad.content.decode()
    assert not Game.objects.exists()
    made = staff.post("/desk/ring/", {**{k: str(v) for k, v in GAME.items()}, "must_move": "on"})
    desk = Game.objects.get()
    assert made.status_code == 302 and made["Location"] == f"/desk/ring/{desk.id}/"
    api = APIClient()
    api.force_authenticate(boss.user)
    by_api = api.post("/api/v1/games/", {**GAME, "must_move": True}, format="json")
    assert by_api.status_code == 201
    other = Game.objects.get(pk=by_api.json()["id"])
    fields = ["mode", "variant", "ante", "small_bet", "seat_count", "buy_in_max", "offer_seconds"]
    assert {f: getattr(desk, f) for f in fields} == {f: getattr(other, f) for f in fields}
    assert len(tables_of(desk)) == len(tables_of(other)) == 2  # with its must-move table


def test_the_wait_list_at_the_desk():
    game = make_game()
    staff = _client(make_player("boss", staff=True))
    empty = staff.post(f"/desk/ring/{game.id}/walk-in/", {"name": ""})
    assert empty.status_code == 400 and 'id="f-name-error"' in empty.content.decode()
    for name in ("Ann", "Ben"):
        assert staff.post(f"/desk/ring/{game.id}/walk-in/", {"name": name}).status_code == 302
    ann, ben = waiting(game)
    no_reason = staff.post(
        f"/desk/ring/{game.id}/entries/{ben.id}/move/", {f"move-{ben.id}-position": "1"}
    )
    assert no_reason.status_code == 400
    assert f'id="f-move-{ben.id}-reason-error"' in no_reason.content.decode()
    assert [e.name for e in waiting(game)] == ["Ann", "Ben"]
    moved = staff.post(
        f"/desk/ring/{game.id}/entries/{ben.id}/move/",
        {f"move-{ben.id}-position": "1", f"move-{ben.id}-reason": "came back"},
    )
    assert moved.status_code == 302 and [e.name for e in waiting(game)] == ["Ben", "Ann"]
    nul = staff.post(
        f"/desk/ring/{game.id}/entries/{ann.id}/remove/", {f"remove-{ann.id}-reason": "\x00"}
    )  # refused by the API's serializer, not a database error
    assert nul.status_code == 400 and f'id="f-remove-{ann.id}-reason-error"' in nul.content.decode()
    assert [e.name for e in waiting(game)] == ["Ben", "Ann"]
    removed = staff.post(
        f"/desk/ring/{game.id}/entries/{ann.id}/remove/", {f"remove-{ann.id}-reason": "left"}
    )
    assert removed.status_code == 302 and [e.name for e in waiting(game)] == ["Ben"]


def test_an_offer_taken_at_the_desk_seats_the_walk_in():
    game = make_game()
    table = tables_of(game)[0]
    fill_table(table, 3)
    staff = _client(make_player("boss", staff=True))
    staff.post(f"/desk/ring/{game.id}/walk-in/", {"name": "Cy"})
    fill(game)
    (offer,) = pending_offers(game)
    entry = offer.entry
    page = staff.get(f"/desk/ring/{game.id}/").content.decode()
    assert f"seat {offer.seat}" in page
    low = staff.post(
        f"/desk/ring/{game.id}/entries/{entry.id}/accept/", {f"accept-{entry.id}-buy_in": "5"}
    )
    assert (
        low.status_code == 400 and f'id="f-accept-{entry.id}-buy_in-error"' in low.content.decode()
    )
    assert not Seat.objects.filter(table=table, number=offer.seat, player__isnull=False).exists()
    taken = staff.post(
        f"/desk/ring/{game.id}/entries/{entry.id}/accept/", {f"accept-{entry.id}-buy_in": "100"}
    )
    assert taken.status_code == 302
    assert Seat.objects.get(table=table, number=offer.seat).stack == 100


def test_closing_a_table_at_the_desk():
    game = make_game()
    table = tables_of(game)[0]
    staff = _client(make_player("boss", staff=True))
    assert staff.post(f"/desk/ring/{game.id}/tables/{table.id}/close/").status_code == 302
    table.refresh_from_db()
    assert table.status == TableStatus.CLOSED
