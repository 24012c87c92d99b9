"""The tournaments API: staff manage, players register themselves, errors are 4xx JSON."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.games.factories import make_player
from tests.tourney.tournaments import LEVELS, fake_hand, make_tournament, seats_of, table_of
from tourney.models import Entry
from tourney.services.commands.draw import draw_seats
from tourney.services.update import tournament_update

pytestmark = pytest.mark.django_db


def _client(player=None) -> APIClient:
    client = APIClient()
    if player is not None:
        client.force_authenticate(player.user)
    return client


@pytest.fixture
def staff() -> APIClient:
    return _client(make_player("director", staff=True))


def _create(staff: APIClient, **overrides: Any) -> dict[str, Any]:
    schedule = staff.post(
        "/api/v1/tournaments/schedules/",
        {"name": "s", "chip_unit": 5, "entries": LEVELS},
        format="json",
    )
    assert schedule.status_code == 201, schedule.json()
    body = {
        "name": "Sunday",
        "buy_in": 110,
        "fee": 10,
        "starting_stack": 1000,
        "chip_unit": 5,
        "table_size": 4,
        "schedule_id": schedule.json()["id"],
        "pause_ms": 0,
        **overrides,
    }
    response = staff.post("/api/v1/tournaments/", body, format="json")
    assert response.status_code == 201, response.json()
    return response.json()


def test_staff_create_players_register_and_staff_start(staff):
    tournament = _create(staff)
    url = f"/api/v1/tournaments/{tournament['id']}/"
    players = [make_player(bot="rules") for _ in range(5)]
    for player in players:
        assert _client(player).post(url + "register/").status_code == 201
    assert staff.post(url + "start/").status_code == 200
    state = staff.get(url).json()
    assert (state["status"], state["players_left"], state["average_stack"]) == ("running", 5, 1000)
    assert state["level"] == {
        "index": 0,
        "number": 1,
        "is_break": False,
        "game": "stud_hi",
        "ante": 5,
        "bring_in": 10,
        "small_bet": 30,
        "big_bet": 60,
    }
    assert [len(t["seats"]) for t in state["tables"]] == [3, 2]
    assert 0 < state["time_left_ms"] <= 600_000
    assert staff.get(url + "payouts/").json() == [{"place": 1, "prize": 500}]


def test_registering_twice_is_a_409_with_the_error_format(staff):
    tournament = _create(staff)
    client = _client(make_player())
    url = f"/api/v1/tournaments/{tournament['id']}/register/"
    assert client.post(url).status_code == 201
    response = client.post(url)
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "already_registered"


def test_starting_a_started_tournament_is_a_409(staff):
    tournament = _create(staff)
    url = f"/api/v1/tournaments/{tournament['id']}/"
    for _ in range(2):
        staff.post(url + "register/", {"player": make_player(bot="rules").id}, format="json")
    assert staff.post(url + "start/").status_code == 200
    response = staff.post(url + "start/")
    assert (response.status_code, response.json()["error"]["code"]) == (409, "already_started")


def test_a_negative_stack_is_a_400(staff):
    response = staff.post(
        "/api/v1/tournaments/",
        {"name": "x", "buy_in": 10, "starting_stack": -5, "schedule_id": 1},
        format="json",
    )
    assert response.status_code == 400
    assert "starting_stack" in response.json()["error"]["detail"]


def test_unknown_players_and_tournaments_are_404s(staff):
    tournament = _create(staff)
    response = staff.post(
        f"/api/v1/tournaments/{tournament['id']}/register/", {"player": 999999}, format="json"
    )
    assert (response.status_code, response.json()["error"]["code"]) == (404, "no_player")
    assert staff.get("/api/v1/tournaments/999999/").status_code == 404


def test_players_cannot_manage_or_register_others(staff):
    tournament = _create(staff)
    player = _client(make_player())
    url = f"/api/v1/tournaments/{tournament['id']}/"
    assert player.post(url + "start/").status_code == 403
    assert (
        player.post(url + "register/", {"player": make_player().id}, format="json").status_code
        == 403
    )
    assert player.post("/api/v1/tournaments/", {}, format="json").status_code == 403


def test_live_busts_moves_acknowledgement_and_results(staff):
    tournament = _create(staff, mode="live", payout_percentages=["100"])
    url = f"/api/v1/tournaments/{tournament['id']}/"
    for _ in range(7):
        staff.post(url + "register/", {"player": make_player().id}, format="json")
    staff.post(url + "start/")
    state = staff.get(url).json()
    short = state["tables"][1]["seats"]
    busts = {str(short[0]["entry"]): 1000, str(short[1]["entry"]): 1000}
    response = staff.post(url + "busts/", {"counts": busts}, format="json")
    assert response.status_code == 200, response.json()
    pending = staff.get(url + "moves/?status=pending").json()
    assert len(pending) == 1 and pending[0]["instruction"].startswith("table 1 seat")
    ack = staff.post(url + f"moves/{pending[0]['id']}/acknowledge/")
    assert ack.json()["status"] == "acknowledged"
    assert staff.get(url + "moves/?status=pending").json() == []
    bad = staff.post(url + "chips/", {"counts": {str(pending[0]["entry_id"]): -1}}, format="json")
    assert bad.status_code == 400
    for key in (str(10**30), "0", "-3", "x"):  # no entry id: a 400, never an overflow
        for report in ("chips/", "busts/"):
            bad = staff.post(url + report, {"counts": {key: 10}}, format="json")
            assert bad.status_code == 400, (report, key, bad.content)
            assert "entry ids" in str(bad.json())


def test_deal_quotes_and_recording_a_deal(staff):
    tournament = make_tournament(players=3, payout_percentages=["50", "30", "20"])
    url = f"/api/v1/tournaments/{tournament.id}/"
    staff.post(url + "start/")
    table = table_of(tournament, 1)
    a, b, c = sorted(seats_of(table.id))
    fake_hand(table.id, {a: 500, b: 1500})
    tournament_update(tournament_id=tournament.id)
    quote = staff.get(url + "deal-quote/?method=chip_chop").json()
    # 60 each (3rd's prize) locked in first, then 120 shared 500/1000/1500.
    assert sorted(q["amount"] for q in quote) == [80, 100, 120]
    assert {q["guaranteed"] for q in quote} == {60}
    icm = staff.get(url + "deal-quote/?method=icm").json()
    assert sum(q["amount"] for q in icm) == 300
    wrong = staff.post(
        url + "deal/", {"counts": {str(q["entry"]): 1 for q in quote}}, format="json"
    )
    assert (wrong.status_code, wrong.json()["error"]["code"]) == (400, "deal_sum")
    deal = {str(q["entry"]): q["amount"] for q in icm}
    assert (
        staff.post(url + "deal/", {"counts": deal, "method": "icm"}, format="json").status_code
        == 200
    )
    fake_hand(table.id, {a: 0, b: 0, c: 3000})
    tournament_update(tournament_id=tournament.id)
    results = staff.get(url + "results/").json()
    assert {r["entry"]: r["prize"] for r in results} == {int(k): v for k, v in deal.items()}
    assert Entry.objects.filter(tournament=tournament, place=1).count() == 1


@pytest.mark.parametrize(
    "field", ["starting_stack", "level_minutes", "target_hours", "break_minutes"]
)
def test_numbers_too_large_for_the_database_are_a_400_not_a_500(staff, field):
    body = {"name": "huge", "starting_stack": 10_000, "level_minutes": 20, "target_hours": 4}
    body[field] = 10**22  # schemathesis found these overflowing the integer columns
    response = staff.post("/api/v1/tournaments/schedules/", body, format="json")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "invalid"
    assert field in response.json()["error"]["detail"]


def test_results_list_places_first_then_the_unplaced_then_the_refunded(staff):
    tournament = make_tournament(players=4)
    gone = make_player()
    url = f"/api/v1/tournaments/{tournament.id}/"
    staff.post(url + "register/", {"player": gone.id}, format="json")
    staff.post(url + "unregister/", {"player": gone.id}, format="json")
    staff.post(url + "start/")
    table = table_of(tournament, 1)
    first = min(seats_of(table.id))
    fake_hand(table.id, {first: 0, max(seats_of(table.id)): 2000})
    tournament_update(tournament_id=tournament.id)
    rows = staff.get(url + "results/").json()
    assert [(r["status"], r["place"]) for r in rows] == [
        ("eliminated", 4),
        ("playing", None),
        ("playing", None),
        ("playing", None),
        ("unregistered", None),
    ]
    playing = [r["entry"] for r in rows if r["status"] == "playing"]
    assert playing == sorted(playing)


def test_a_schedule_off_the_chip_unit_is_a_400(staff):
    schedule = staff.post(
        "/api/v1/tournaments/schedules/",
        {"name": "s", "chip_unit": 5, "entries": LEVELS},
        format="json",
    ).json()
    body = {"name": "x", "buy_in": 110, "starting_stack": 1000, "schedule_id": schedule["id"]}
    response = staff.post("/api/v1/tournaments/", {**body, "chip_unit": 25}, format="json")
    assert (response.status_code, response.json()["error"]["code"]) == (400, "chip_unit")
    created = staff.post("/api/v1/tournaments/", {**body, "chip_unit": 5}, format="json").json()
    patched = staff.patch(f"/api/v1/tournaments/{created['id']}/", {"chip_unit": 25}, format="json")
    assert (patched.status_code, patched.json()["error"]["code"]) == (400, "chip_unit")


def test_a_deal_while_late_registration_is_open_is_a_409(staff):
    tournament = make_tournament(players=3, late_reg_levels=2)
    url = f"/api/v1/tournaments/{tournament.id}/"
    staff.post(url + "start/")
    quote = staff.get(url + "deal-quote/?method=chip_chop").json()
    counts = {str(q["entry"]): q["amount"] for q in quote}
    response = staff.post(url + "deal/", {"counts": counts}, format="json")
    assert (response.status_code, response.json()["error"]["code"]) == (409, "pool_open")
    assert "late registration until the end of level 2" in response.json()["error"]["message"]


def test_the_api_root_links_the_tournaments(staff):
    assert (
        _client().get("/api/v1/").json()["tournaments"] == "http://testserver/api/v1/tournaments/"
    )


def test_the_event_log_is_served_after_a_seq_to_anyone_signed_in(staff):
    tournament = make_tournament(players=3)
    url = f"/api/v1/tournaments/{tournament.id}/events/"
    staff.post(f"/api/v1/tournaments/{tournament.id}/start/")
    player = _client(make_player())
    every = player.get(url).json()
    assert [e["seq"] for e in every] == list(range(1, len(every) + 1))
    assert [e["kind"] for e in every[:4]] == ["created", "registered", "registered", "registered"]
    draw = next(e for e in every if e["kind"] == "draw")
    again = draw_seats(
        draw["data"]["entries"],
        table_size=draw["data"]["table_size"],
        seed=bytes.fromhex(draw["data"]["seed"]),
    )
    assert [list(row) for row in again] == draw["data"]["seats"]
    assert player.get(url + "?after=4").json() == every[4:]
    bad = player.get(url + "?after=-1")
    assert (bad.status_code, bad.json()["error"]["code"]) == (400, "invalid")
    assert _client().get(url).status_code in (401, 403)


def _schedule_id(staff: APIClient) -> int:
    response = staff.post(
        "/api/v1/tournaments/schedules/",
        {"name": "editable", "chip_unit": 5, "entries": LEVELS},
        format="json",
    )
    return response.json()["id"]


def test_staff_rename_a_schedule_and_rewrite_its_levels(staff):
    schedule = _schedule_id(staff)
    later = [*LEVELS[:-1], {**LEVELS[-1], "minutes": 15}]
    response = staff.patch(
        f"/api/v1/tournaments/schedules/{schedule}/",
        {"name": "edited", "entries": later},
        format="json",
    )
    assert response.status_code == 200, response.json()
    read = staff.get(f"/api/v1/tournaments/schedules/{schedule}/").json()
    assert read["name"] == "edited"
    assert read["entries"][-1]["minutes"] == 15


def test_levels_played_at_a_running_tournament_cannot_change_but_later_ones_can(staff):
    tournament = make_tournament(players=4)
    staff.post(f"/api/v1/tournaments/{tournament.id}/start/")
    url = f"/api/v1/tournaments/schedules/{tournament.schedule_id}/"
    first_changed = [{**LEVELS[0], "minutes": 11}, *LEVELS[1:]]
    refused = staff.patch(url, {"entries": first_changed}, format="json")
    assert refused.status_code == 409
    assert refused.json()["error"]["code"] == "schedule_in_play"
    assert staff.get(url).json()["entries"][0]["minutes"] == 10  # nothing changed
    last_changed = [*LEVELS[:-1], {**LEVELS[-1], "minutes": 30}]
    assert staff.patch(url, {"entries": last_changed}, format="json").status_code == 200


def test_a_schedule_edit_must_suit_the_chip_unit_of_its_tournaments(staff):
    level = {"game": "stud_hi", "ante": 25, "bring_in": 50, "small_bet": 100, "big_bet": 200}
    schedule = staff.post(
        "/api/v1/tournaments/schedules/",
        {"name": "in 25s", "chip_unit": 5, "entries": [{**level, "minutes": 10}]},
        format="json",
    ).json()["id"]
    _create(staff, schedule_id=schedule, chip_unit=25)  # every amount a multiple of 25
    url = f"/api/v1/tournaments/schedules/{schedule}/"
    in_fives = [{**level, "minutes": 10}, {**level, "ante": 30, "minutes": 10}]
    response = staff.patch(url, {"entries": in_fives}, format="json")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "chip_unit"
    assert len(staff.get(url).json()["entries"]) == 1


def test_players_cannot_edit_schedules(staff):
    schedule = _schedule_id(staff)
    response = _client(make_player()).patch(
        f"/api/v1/tournaments/schedules/{schedule}/", {"name": "mine"}, format="json"
    )
    assert response.status_code == 403
