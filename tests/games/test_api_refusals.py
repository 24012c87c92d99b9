"""Every refusal: exact status and code, the error format, and nothing changed."""

from __future__ import annotations

import pytest

from games import selectors
from games.models import Hand, HandStatus, Player, Table
from games.services import hands
from tests.games.factories import make_player, make_table
from tests.games.test_api_support import client_for, table_state, table_url

pytestmark = pytest.mark.django_db


@pytest.fixture
def hand_in_progress():
    """alice (seat 1) and bob (seat 2) in a running hand; returns (table, actor, other)."""
    table = make_table()
    alice, bob = make_player("alice"), make_player("bob")
    for player, seat in ((alice, 1), (bob, 2)):
        client_for(player).post(
            table_url(table, "sit"), {"seat": seat, "buy_in": 100}, format="json"
        )
    assert hands.table_advance(table.id) == "waiting for a player"
    hand = Hand.objects.get(table=table, status=HandStatus.RUNNING)
    actor = selectors.hand_state(hand).candidates[0]
    players = [alice, bob]
    return table, players[actor], players[1 - actor]


def _refused(response, status: int, code: str) -> dict:
    assert response.status_code == status, response.content
    body = response.json()
    assert set(body) == {"error"}
    assert set(body["error"]) == {"code", "message", "detail"}
    assert body["error"]["code"] == code
    return body["error"]


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"action": "dance"}, 400, "invalid"),
        ({}, 400, "invalid"),
        ({"action": "call", "amount": "ten"}, 400, "invalid"),
        ({"action": "call", "seq": "latest"}, 400, "invalid"),
        ({"action": "call", "amount": -5}, 400, "invalid"),
        ({"action": "check"}, 400, "illegal_action"),
        ({"action": "complete", "amount": 7}, 400, "wrong_amount"),
        ({"action": "show"}, 400, "not_showdown"),
        ({"action": "bring_in", "seq": 1}, 409, "stale_seq"),
    ],
)
def test_a_refused_action_changes_nothing(hand_in_progress, body, status, code):
    table, actor, _other = hand_in_progress
    before = table_state(table.id)

    response = client_for(actor).post(table_url(table, "act"), body, format="json")

    _refused(response, status, code)
    assert table_state(table.id) == before


def test_an_illegal_action_says_the_rule(hand_in_progress):
    table, actor, _other = hand_in_progress

    error = _refused(
        client_for(actor).post(table_url(table, "act"), {"action": "check"}, format="json"),
        400,
        "illegal_action",
    )

    assert error["message"].startswith(
        "check is not allowed: the bring-in must bring in or complete"
    )


def test_a_stale_seq_names_the_current_one(hand_in_progress):
    table, actor, _other = hand_in_progress
    table.refresh_from_db()

    error = _refused(
        client_for(actor).post(
            table_url(table, "act"), {"action": "bring_in", "seq": table.seq - 1}, format="json"
        ),
        409,
        "stale_seq",
    )

    assert error["detail"] == {"seq": table.seq}


def test_malformed_json_is_a_400_and_changes_nothing(hand_in_progress):
    table, actor, _other = hand_in_progress
    before = table_state(table.id)

    response = client_for(actor).post(
        table_url(table, "act"), "{action:", content_type="application/json"
    )

    _refused(response, 400, "parse_error")
    assert table_state(table.id) == before


def test_acting_out_of_turn_or_outside_the_hand_is_a_403(hand_in_progress):
    table, _actor, other = hand_in_progress
    before = table_state(table.id)

    _refused(
        client_for(other).post(table_url(table, "act"), {"action": "bring_in"}, format="json"),
        403,
        "not_your_turn",
    )
    stranger = make_player("carol")
    _refused(
        client_for(stranger).post(table_url(table, "act"), {"action": "bring_in"}, format="json"),
        403,
        "not_in_hand",
    )
    assert table_state(table.id) == before


def test_acting_at_a_paused_table_is_a_409(hand_in_progress):
    table, actor, _other = hand_in_progress
    staff = make_player("boss", staff=True)
    assert client_for(staff).post(table_url(table, "pause")).status_code == 200
    before = table_state(table.id)

    _refused(
        client_for(actor).post(table_url(table, "act"), {"action": "bring_in"}, format="json"),
        409,
        "paused",
    )
    assert table_state(table.id) == before
    assert client_for(staff).post(table_url(table, "resume")).json()["status"] == "open"


def test_unknown_ids_are_404():
    client = client_for(make_player())
    for url in (
        "/api/v1/tables/999/",
        "/api/v1/tables/999/events/",
        "/api/v1/hands/999/",
        "/api/v1/hands/999/history/",
        "/api/v1/hands/999/verify/",
        "/api/v1/tables/99999999999999999999999/",
    ):
        _refused(client.get(url), 404, "not_found")
    _refused(
        client.post("/api/v1/tables/999/act/", {"action": "fold"}, format="json"), 404, "not_found"
    )
    _refused(
        client.post("/api/v1/tables/999/sit/", {"seat": 1, "buy_in": 100}, format="json"),
        404,
        "not_found",
    )


def test_unauthenticated_requests_are_401():
    table = make_table()
    anonymous = client_for(None)
    for response in (
        anonymous.get("/api/v1/tables/"),
        anonymous.get(table_url(table)),
        anonymous.get("/api/v1/players/me/"),
        anonymous.post(table_url(table, "act"), {"action": "fold"}, format="json"),
        anonymous.post("/api/v1/tables/", {}, format="json"),
        anonymous.post(table_url(table, "pause")),
    ):
        _refused(response, 401, "not_authenticated")


def test_non_staff_get_403_on_staff_endpoints():
    table = make_table()
    client = client_for(make_player())
    before = table_state(table.id)

    _refused(client.post("/api/v1/tables/", {"name": "x"}, format="json"), 403, "permission_denied")
    _refused(
        client.post("/api/v1/players/", {"username": "x"}, format="json"), 403, "permission_denied"
    )
    _refused(client.post(table_url(table, "pause")), 403, "permission_denied")
    _refused(client.post(table_url(table, "resume")), 403, "permission_denied")
    assert table_state(table.id) == before
    assert Table.objects.count() == 1 and Player.objects.count() == 1


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"seat": 1, "buy_in": 49}, 400, "buy_in_range"),
        ({"seat": 1, "buy_in": 1001}, 400, "buy_in_range"),
        ({"seat": 9, "buy_in": 100}, 400, "invalid"),
        ({"seat": 7, "buy_in": 100}, 404, "no_seat"),
        ({"seat": 2, "buy_in": 100}, 409, "seat_taken"),
        ({"seat": "one", "buy_in": 100}, 400, "invalid"),
        ({"buy_in": 100}, 400, "invalid"),
    ],
)
def test_a_refused_sit_changes_nothing(body, status, code):
    table = make_table(seat_count=6)
    client_for(make_player("bob")).post(
        table_url(table, "sit"), {"seat": 2, "buy_in": 100}, format="json"
    )
    before = table_state(table.id)

    _refused(
        client_for(make_player("alice")).post(table_url(table, "sit"), body, format="json"),
        status,
        code,
    )
    assert table_state(table.id) == before


def test_sitting_twice_is_a_409():
    table = make_table()
    client = client_for(make_player("alice"))
    client.post(table_url(table, "sit"), {"seat": 1, "buy_in": 100}, format="json")

    _refused(
        client.post(table_url(table, "sit"), {"seat": 2, "buy_in": 100}, format="json"),
        409,
        "already_seated",
    )


def test_only_staff_seat_bots_and_only_where_bots_are_allowed():
    bot = make_player(bot="random")
    table = make_table()
    no_bots = make_table(allow_bots=False)
    staff = client_for(make_player("boss", staff=True))
    body = {"seat": 1, "buy_in": 100, "player": bot.id}

    _refused(
        client_for(make_player("alice")).post(table_url(table, "sit"), body, format="json"),
        403,
        "staff_only",
    )
    _refused(
        client_for(bot).post(table_url(table, "sit"), {"seat": 1, "buy_in": 100}, format="json"),
        403,
        "bots",
    )
    _refused(staff.post(table_url(no_bots, "sit"), body, format="json"), 403, "bots")
    _refused(
        staff.post(table_url(table, "sit"), {**body, "player": 999}, format="json"),
        404,
        "not_found",
    )
    seated = staff.post(table_url(table, "sit"), body, format="json")

    assert seated.status_code == 200
    assert seated.json()["seats"][0] == {
        "number": 1,
        "player": bot.id,
        "name": bot.display_name,
        "bot": True,
        "stack": 100,
        "sitting_out": False,
        "leaving": False,
    }


def test_leave_sit_out_and_sit_in_need_a_seat():
    table = make_table()
    client = client_for(make_player("alice"))
    for action in ("leave", "sit-out", "sit-in"):
        _refused(client.post(table_url(table, action)), 409, "not_seated")


def test_sit_out_sit_in_and_leave_between_hands():
    table = make_table()
    client = client_for(make_player("alice"))
    client.post(table_url(table, "sit"), {"seat": 3, "buy_in": 100}, format="json")

    assert client.post(table_url(table, "sit-out")).json()["seats"][2]["sitting_out"] is True
    assert client.post(table_url(table, "sit-in")).json()["seats"][2]["sitting_out"] is False
    left = client.post(table_url(table, "leave")).json()
    assert left["seats"][2]["player"] is None
    assert [e["kind"] for e in client.get(table_url(table, "events")).json()["events"]] == [
        "sit",
        "sit_out",
        "sit_in",
        "leave",
    ]


@pytest.mark.parametrize("after", ["-1", "x", "1.5", "99999999999999999999999"])
def test_events_after_must_be_a_non_negative_integer(after):
    table = make_table()

    _refused(
        client_for(make_player()).get(table_url(table, "events"), {"after": after}), 400, "invalid"
    )


def test_history_and_verify_wait_for_the_end_of_the_hand(hand_in_progress):
    table, actor, _other = hand_in_progress
    hand = Hand.objects.get(table=table, status=HandStatus.RUNNING)
    client = client_for(actor)

    _refused(client.get(f"/api/v1/hands/{hand.id}/history/"), 409, "conflict")
    _refused(client.get(f"/api/v1/hands/{hand.id}/history/", {"format": "phh"}), 409, "conflict")
    error = _refused(client.get(f"/api/v1/hands/{hand.id}/verify/"), 409, "conflict")
    assert (
        error["message"] == f"hand {hand.id} is still being played: verify its cards when it ends"
    )
    running = client.get(f"/api/v1/hands/{hand.id}/").json()
    assert running["status"] == "running" and running["seed"] is None
    _refused(client.get(f"/api/v1/hands/{hand.id}/history/", {"format": "xml"}), 400, "invalid")


def test_a_token_for_a_username_and_password():
    make_player("alice")
    anonymous = client_for(None)

    response = anonymous.post(
        "/api/v1/auth/token/", {"username": "alice", "password": "pw"}, format="json"
    )

    assert response.status_code == 200
    token = response.json()["token"]
    anonymous.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert anonymous.get("/api/v1/players/me/").json()["username"] == "alice"
    _refused(
        anonymous.post(
            "/api/v1/auth/token/", {"username": "alice", "password": "no"}, format="json"
        ),
        400,
        "invalid_credentials",
    )
    _refused(
        anonymous.post("/api/v1/auth/token/", {"username": "alice"}, format="json"), 400, "invalid"
    )


def test_staff_create_players_and_bots():
    staff = client_for(make_player("boss", staff=True))
    body = {"username": "dora", "password": "s3cret-pass", "display_name": "Dora"}

    created = staff.post("/api/v1/players/", body, format="json")
    bot = staff.post(
        "/api/v1/players/", {**body, "username": "robo", "bot": "rules"}, format="json"
    )

    assert created.status_code == 201
    assert {k: v for k, v in created.json().items() if k not in ("id", "created_at")} == {
        "username": "dora",
        "display_name": "Dora",
        "bot": "",
        "is_staff": False,
    }
    assert bot.json()["bot"] == "rules"
    _refused(staff.post("/api/v1/players/", body, format="json"), 409, "username_taken")
    _refused(
        staff.post("/api/v1/players/", {**body, "username": "x", "bot": "genius"}, format="json"),
        400,
        "invalid",
    )
    token = client_for(None).post(
        "/api/v1/auth/token/", {"username": "dora", "password": "s3cret-pass"}, format="json"
    )
    assert token.status_code == 200


def test_an_account_without_a_player_profile():
    from django.contrib.auth import get_user_model

    admin = get_user_model().objects.create_user("root", password="pw", is_staff=True)
    client = client_for(None)
    client.force_authenticate(admin)
    table = make_table()

    _refused(client.get("/api/v1/players/me/"), 404, "no_player")
    _refused(
        client.post(table_url(table, "sit"), {"seat": 1, "buy_in": 100}, format="json"),
        403,
        "no_player",
    )
    assert client.get(table_url(table)).json()["hand"] is None


def test_staff_create_tables_checked_by_the_engine():
    staff = client_for(make_player("boss", staff=True))
    body = {
        "name": "Main",
        "variant": "stud_8",
        "ante": 1,
        "bring_in": 2,
        "small_bet": 5,
        "big_bet": 10,
        "seat_count": 6,
        "buy_in_min": 50,
        "buy_in_max": 500,
    }

    created = staff.post("/api/v1/tables/", body, format="json")

    assert created.status_code == 201
    assert created.json()["seat_count"] == 6 and created.json()["low_qualifier"] == 8
    listed = staff.get("/api/v1/tables/").json()
    assert [(t["name"], t["seated"]) for t in listed] == [("Main", 0)]
    detail = staff.get(f"/api/v1/tables/{created.json()['id']}/").json()
    assert [s["number"] for s in detail["seats"]] == [1, 2, 3, 4, 5, 6]
    _refused(
        staff.post("/api/v1/tables/", {**body, "bring_in": 5}, format="json"), 400, "invalid_rules"
    )
    _refused(
        staff.post("/api/v1/tables/", {**body, "buy_in_min": 600}, format="json"),
        400,
        "invalid_buy_in",
    )
    _refused(
        staff.post("/api/v1/tables/", {**body, "seat_count": 9}, format="json"), 400, "invalid"
    )
    _refused(
        staff.post("/api/v1/tables/", {**body, "variant": "holdem"}, format="json"), 400, "invalid"
    )
    assert Table.objects.count() == 1


def test_a_table_in_fives_takes_stakes_buy_ins_and_top_ups_only_in_fives():
    # docs/rules.md 8: the smallest chip in play; a tied pot is shared in it, so no stack may
    # hold part of one
    staff = client_for(make_player("boss", staff=True))
    body = {
        "name": "Fives",
        "variant": "stud_hi",
        "ante": 5,
        "bring_in": 5,
        "small_bet": 10,
        "big_bet": 20,
        "chip_unit": 5,
        "buy_in_min": 100,
        "buy_in_max": 500,
    }
    for change, code in [
        ({"ante": 1}, "invalid_rules"),
        ({"chip_unit": 0}, "invalid"),
        ({"buy_in_max": 502}, "invalid_buy_in"),
    ]:
        _refused(staff.post("/api/v1/tables/", {**body, **change}, format="json"), 400, code)
    assert Table.objects.count() == 0
    created = staff.post("/api/v1/tables/", body, format="json")
    assert created.status_code == 201 and created.json()["chip_unit"] == 5
    table = Table.objects.get(pk=created.json()["id"])
    alice = client_for(make_player("alice"))
    before = table_state(table.id)
    _refused(
        alice.post(table_url(table, "sit"), {"seat": 1, "buy_in": 103}, format="json"),
        400,
        "buy_in_range",
    )
    assert table_state(table.id) == before
    assert (
        alice.post(table_url(table, "sit"), {"seat": 1, "buy_in": 100}, format="json").status_code
        == 200
    )
    before = table_state(table.id)
    _refused(
        alice.post(table_url(table, "top-up"), {"amount": 7}, format="json"), 400, "top_up_range"
    )
    assert table_state(table.id) == before
    assert alice.post(table_url(table, "top-up"), {"amount": 10}, format="json").status_code == 200
