"""The floor API: games, joining and leaving lists, answering offers, staff walk-ins and
reorders, seat changes; every refusal a clear 4xx that changes nothing."""

from __future__ import annotations

from typing import Any

import pytest

from games.models import FloorLog, Game, Offer, Seat, SeatChange, WaitEntry
from games.services.seating import seat_leave
from tests.games.factories import make_player
from tests.games.floor import fill, fill_table, make_game, tables_of
from tests.games.test_api_support import client_for

pytestmark = pytest.mark.django_db


def floor_state() -> tuple[Any, ...]:
    """Everything a refused floor request must leave unchanged."""
    return (
        tuple(WaitEntry.objects.order_by("id").values_list("status", "rank", "misses", "player")),
        tuple(Offer.objects.order_by("id").values_list("status", "table", "seat", "entry")),
        tuple(Seat.objects.order_by("id").values_list("player", "stack")),
        tuple(SeatChange.objects.values_list("status", "to_table", "to_seat")),
        FloorLog.objects.count(),
    )


def test_join_see_the_offer_accept_and_play():
    game = make_game()
    table = tables_of(game)[0]
    seated = fill_table(table)
    alice = make_player("alice")
    client = client_for(alice)

    listing = client.get("/api/v1/games/").json()["results"]
    assert [(g["id"], g["list_length"], g["tables"][0]["free_seats"]) for g in listing] == [
        (game.id, 0, [])
    ]
    joined = client.post("/api/v1/games/waitlist/", {"variant": "stud_hi", "small_bet": 5})
    assert joined.status_code == 201, joined.content
    entry = joined.json()
    assert (entry["position"], entry["offer"], entry["status"]) == (1, None, "waiting")

    seat_leave(table_id=table.id, player=seated[0])
    fill(game)
    [mine] = client.get("/api/v1/games/waitlist/").json()
    assert mine["offer"]["table"] == table.id and mine["offer"]["seat"] == 1
    assert client.get("/api/v1/games/").json()["results"][0]["tables"][0]["offered_seats"] == [1]

    accepted = client.post(f"/api/v1/games/waitlist/{entry['id']}/accept/", {"buy_in": 150})
    assert accepted.status_code == 200, accepted.content
    assert accepted.json() == {"table": table.id, "seat": 1, "buy_in": 150}
    assert client.get("/api/v1/games/waitlist/").json() == []
    detail = client.get(f"/api/v1/tables/{table.id}/").json()
    assert detail["seats"][0]["player"] == alice.id


@pytest.mark.parametrize(
    ("who", "path", "body", "status", "code"),
    [
        (
            "alice",
            "/api/v1/games/waitlist/",
            {"variant": "stud_hi", "small_bet": 5},
            409,
            "already_listed",
        ),
        ("alice", "/api/v1/games/waitlist/", {"variant": "razz", "small_bet": 5}, 404, "no_game"),
        ("alice", "/api/v1/games/waitlist/", {"variant": "stud_hi"}, 400, "invalid"),
        ("alice", "/api/v1/games/waitlist/", {"game": 1, "table": 999999}, 400, "not_this_game"),
        (
            "seated",
            "/api/v1/games/waitlist/",
            {"variant": "stud_hi", "small_bet": 5},
            409,
            "already_seated",
        ),
        ("bob", "accept", {"buy_in": 100}, 403, "not_your_entry"),
        ("alice", "accept", {"buy_in": 10}, 400, "buy_in_range"),
        ("alice", "accept", {"buy_in": -1}, 400, "invalid"),
        ("bob", "decline", {}, 403, "not_your_entry"),
        ("alice", "move", {"position": 1, "reason": "vip"}, 403, "permission_denied"),
        ("staff", "move", {"position": 1, "reason": " "}, 400, "invalid"),
        ("staff", "move", {"position": 9, "reason": "vip"}, 400, "bad_position"),
        ("bob", "/api/v1/games/waitlist/123456/accept/", {"buy_in": 100}, 404, "not_found"),
        ("seated", "seat-change", {"table": "other"}, 400, "other_game"),
        ("alice", "seat-change", {"seat": 2}, 409, "not_seated"),
        ("staff", "report-left", {"seat": 1}, 409, "not_live"),
    ],
)
def test_bad_requests_are_refused_and_change_nothing(who, path, body, status, code):
    game = make_game()
    other = make_game(name="Stud 10/20", small_bet=10, big_bet=20, bring_in=3)
    table = tables_of(game)[0]
    seated = fill_table(table)
    players = {
        "alice": make_player("alice"),
        "bob": make_player("bob"),
        "staff": make_player("boss", staff=True),
        "seated": seated[1],
    }
    entry = client_for(players["alice"]).post("/api/v1/games/waitlist/", {"game": game.id}).json()
    seat_leave(table_id=table.id, player=seated[0])
    fill(game)
    urls = {
        "accept": f"/api/v1/games/waitlist/{entry['id']}/accept/",
        "decline": f"/api/v1/games/waitlist/{entry['id']}/decline/",
        "move": f"/api/v1/games/waitlist/{entry['id']}/move/",
        "seat-change": f"/api/v1/tables/{table.id}/seat-change/",
        "report-left": f"/api/v1/tables/{table.id}/report-left/",
    }
    if body.get("table") == "other":
        body = {"table": tables_of(other)[0].id}
    if body.get("game") == 1:
        body = {**body, "game": game.id}
    before = floor_state()

    response = client_for(players[who]).post(urls.get(path, path), body, format="json")

    assert response.status_code == status, response.content
    error = response.json()["error"]
    assert error["code"] == code and error["message"]
    assert floor_state() == before


def test_accepting_an_expired_offer_is_refused():
    game = make_game()
    table = tables_of(game)[0]
    seated = fill_table(table)
    alice = make_player("alice")
    entry = client_for(alice).post("/api/v1/games/waitlist/", {"game": game.id}).json()
    seat_leave(table_id=table.id, player=seated[0])
    fill(game)
    from django.utils import timezone

    Offer.objects.update(expires_at=timezone.now())
    before = floor_state()
    response = client_for(alice).post(
        f"/api/v1/games/waitlist/{entry['id']}/accept/", {"buy_in": 100}
    )
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "offer_expired"
    assert floor_state() == before


def test_staff_add_walk_ins_reorder_with_a_logged_reason_and_remove():
    game = make_game()
    fill_table(tables_of(game)[0])
    staff = client_for(make_player("boss", staff=True))
    alice = make_player("alice")
    mine = client_for(alice).post("/api/v1/games/waitlist/", {"game": game.id}).json()
    walk_in = staff.post(f"/api/v1/games/{game.id}/waitlist/", {"name": "Wally"})
    assert walk_in.status_code == 201
    wally = walk_in.json()
    assert (wally["name"], wally["player"], wally["position"]) == ("Wally", None, 2)

    moved = staff.post(
        f"/api/v1/games/waitlist/{wally['id']}/move/", {"position": 1, "reason": "called ahead"}
    )
    assert moved.status_code == 200 and moved.json()["position"] == 1
    order = staff.get(f"/api/v1/games/{game.id}/waitlist/").json()
    assert [e["name"] for e in order] == ["Wally", "Alice"]
    log = FloorLog.objects.get(kind="reorder")
    assert log.data == {"from": 2, "to": 1, "reason": "called ahead"}

    refused = staff.delete(f"/api/v1/games/waitlist/{mine['id']}/")
    assert refused.status_code == 400 and refused.json()["error"]["code"] == "reason_required"
    removed = staff.delete(f"/api/v1/games/waitlist/{mine['id']}/?reason=left+the+room")
    assert removed.status_code == 200 and removed.json()["status"] == "removed"
    assert [e["name"] for e in staff.get(f"/api/v1/games/{game.id}/waitlist/").json()] == ["Wally"]


def test_a_player_leaves_the_list_and_cannot_leave_twice():
    game = make_game()
    alice = client_for(make_player("alice"))
    entry = alice.post("/api/v1/games/waitlist/", {"game": game.id}).json()
    assert alice.delete(f"/api/v1/games/waitlist/{entry['id']}/").json()["status"] == "left"
    again = alice.delete(f"/api/v1/games/waitlist/{entry['id']}/")
    assert again.status_code == 409 and again.json()["error"]["code"] == "not_waiting"


def test_staff_create_a_game_with_rotation_and_a_must_move_table():
    staff = client_for(make_player("boss", staff=True))
    body = {
        "name": "Mixed",
        "variant": "stud_hi",
        "ante": 1,
        "bring_in": 2,
        "small_bet": 5,
        "big_bet": 10,
        "buy_in_min": 50,
        "buy_in_max": 500,
        "must_move": True,
        "rotation": ["stud_hi", "razz", "stud_8"],
        "table_options": {"action_seconds": 20, "low_qualifier": 8},
    }
    created = staff.post("/api/v1/games/", body, format="json")
    assert created.status_code == 201, created.content
    game = created.json()
    assert [t["role"] for t in game["tables"]] == ["main", "must_move"]
    assert game["tables"][1]["feeds"] == game["tables"][0]["id"]
    assert game["tables"][0]["rotation"]["next"] == "razz"
    bad = staff.post("/api/v1/games/", {**body, "rotation": ["razz", "holdem"]}, format="json")
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "invalid_rotation"
    player = client_for(make_player("alice"))
    assert player.post("/api/v1/games/", body, format="json").status_code == 403


def test_a_game_in_fives_opens_its_tables_in_fives_and_refuses_stakes_that_are_not():
    staff = client_for(make_player("boss", staff=True))
    body = {
        "name": "Fives",
        "variant": "razz",
        "ante": 5,
        "bring_in": 5,
        "small_bet": 10,
        "big_bet": 20,
        "buy_in_min": 100,
        "buy_in_max": 500,
        "table_options": {"chip_unit": 5},
    }
    bad = staff.post("/api/v1/games/", {**body, "ante": 2}, format="json")
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "invalid_rules"
    assert "multiple of the smallest chip in play, 5" in bad.json()["error"]["message"]
    assert not Game.objects.exists()
    created = staff.post("/api/v1/games/", body, format="json")
    assert created.status_code == 201, created.content
    assert [t.chip_unit for t in tables_of(Game.objects.get())] == [5]


def test_a_player_withdraws_a_change_request_and_a_second_withdrawal_is_refused():
    game = make_game()
    table = tables_of(game)[0]
    [alice] = fill_table(table, 1)
    client = client_for(alice)
    asked = client.post(f"/api/v1/tables/{table.id}/seat-change/", {"seat": 3})
    assert asked.status_code == 201 and asked.json()["status"] == "waiting"

    withdrawn = client.delete(f"/api/v1/tables/{table.id}/seat-change/")
    assert withdrawn.status_code == 200 and withdrawn.json()["status"] == "cancelled"
    before = floor_state()
    again = client.delete(f"/api/v1/tables/{table.id}/seat-change/")
    assert again.status_code == 409 and again.json()["error"]["code"] == "no_change"
    assert floor_state() == before
    fill(game)
    assert Seat.objects.get(player=alice).number == 1  # seat 3 is free, but not asked for
