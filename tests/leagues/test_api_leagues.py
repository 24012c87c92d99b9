"""The leagues API end to end (without workers): a director creates a league and a season,
enters live events and attaches a tournament whose results enter when it finishes; the
standings (JSON and CSV), corrections, the pot and the finale; bad input is a 4xx that
changes nothing; the permission matrix on every league endpoint."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from leagues.models import EventResult, League, Season, SeasonEvent, Standing
from leagues.services.standings import season_recompute
from tests.games.factories import make_player
from tests.leagues.world import make_member, make_season, make_world
from tests.tourney.tournaments import make_tournament, play_to_the_end
from tourney.services.commands.draw import tournament_start
from tourney.services.steps.chips import chips_expected, chips_in_play

pytestmark = pytest.mark.django_db

SEASON = {
    "name": "Spring",
    "starts_on": "2027-03-01",
    "ends_on": "2027-05-31",
    "formula": "pokerstars",
    "events_planned": 10,
    "best_of": 2,
    "league_fee": 5,
    "pot_payout": ["60", "40"],
    "finale_qualifiers": 3,
    "finale_chip_bonus": [3000, 2000, 1000],
}


def _live(players, order, played_on="2026-02-05", extra=None):
    extra = extra or {}
    return {
        "name": f"Live {played_on}",
        "played_on": played_on,
        "buy_in": 20,
        "results": [
            {"player": players[i].id, "place": place, **extra.get(i, {})}
            for place, i in enumerate(order, start=1)
        ],
    }


def _snapshot(season):
    return list(
        Standing.objects.filter(season=season)
        .order_by("player_id")
        .values_list("player_id", "rank", "previous_rank", "points", "events_counted", "totals")
    )


def test_a_directors_season_from_creation_to_standings_pot_and_finale():
    world = make_world()
    client = world.client("director_a")
    league = client.post(
        "/api/v1/leagues/", {"club_id": world.club_a.id, "name": "Tuesday"}, format="json"
    )
    assert league.status_code == 201, league.json()
    season = client.post(f"/api/v1/leagues/{league.json()['id']}/seasons/", SEASON, format="json")
    assert season.status_code == 201, season.json()
    season_id = season.json()["id"]
    players = [make_member(world.club_a) for _ in range(4)]
    for played_on, order in (
        ("2027-03-02", [0, 1, 2, 3]),
        ("2027-03-09", [1, 0, 3, 2]),
        ("2027-03-16", [1, 2, 0, 3]),
    ):
        response = client.post(
            f"/api/v1/seasons/{season_id}/events/",
            _live(players, order, played_on, extra={0: {"knockouts": "1.5", "prize": 50}}),
            format="json",
        )
        assert response.status_code == 201, response.json()
    event = response.json()
    assert event["entries"] == 4 and event["pot_contribution"] == 20
    # pokerstars with n=4, b=20: place 1 gives 10 * sqrt(4) * (1 + log10(20.25)) = 46.13
    assert event["results"][0]["points"] == "46.1300"
    standings = client.get(f"/api/v1/seasons/{season_id}/standings/").json()
    top = standings[0]
    assert (top["player"], top["rank"], top["events_played"], top["events_counted"]) == (
        players[1].id,
        1,
        3,
        2,
    )
    assert top["points"] == "92.2600"  # two wins, best two of three
    assert top["wins"] == 2 and top["best_finish"] == 1
    # after event 2, players 0 and 1 were level on 78.75 points with a win each: player 0
    # led on knockouts (the 4th tie-break); now player 1 leads
    p0 = next(row for row in standings if row["player"] == players[0].id)
    assert (p0["rank"], p0["previous_rank"], p0["movement"], p0["points"]) == (
        2,
        1,
        -1,
        "78.7500",
    )
    assert p0["knockouts"] == "4.5000" and p0["cashes"] == 3 and p0["net_winnings"] == 90
    csv = client.get(f"/api/v1/seasons/{season_id}/standings/?format=csv")
    assert csv.status_code == 200 and csv["Content-Type"].startswith("text/csv")
    lines = csv.content.decode().splitlines()
    assert lines[0].startswith("rank,previous_rank,movement,player,name,points")
    assert len(lines) == 5 and lines[1].startswith(f"1,2,1,{players[1].id},")
    detail = client.get(f"/api/v1/seasons/{season_id}/").json()
    assert detail["pot"] == 60
    assert [(p["rank"], p["amount"]) for p in detail["pot_payouts"]] == [(1, 36), (2, 24)]
    finale = client.get(f"/api/v1/seasons/{season_id}/finale/").json()
    assert [(f["rank"], f["chip_bonus"]) for f in finale] == [(1, 3000), (2, 2000), (3, 1000)]
    closed = client.post(f"/api/v1/seasons/{season_id}/close/")
    assert closed.status_code == 200
    assert sum(p["amount"] for p in closed.json()["pot_payouts"]) == 60
    late = client.post(
        f"/api/v1/seasons/{season_id}/events/", _live(players, [0, 1], "2027-03-20"), format="json"
    )
    assert late.status_code == 409
    history = client.get(f"/api/v1/players/{players[1].id}/seasons/").json()
    assert history[0]["season"] == season_id and len(history[0]["events"]) == 3
    assert history[0]["standing"]["rank"] == 1


def test_a_tournament_of_the_club_enters_its_season_when_it_finishes(
    django_capture_on_commit_callbacks,
):
    world = make_world()
    season = world.season_a
    tournament = make_tournament(players=6, club_id=world.club_a.id, table_size=6, bounty=10)
    response = world.client("director_a").post(
        f"/api/v1/seasons/{season.id}/events/",
        {"tournament": tournament.id, "played_on": "2026-06-01"},
        format="json",
    )
    assert response.status_code == 201, response.json()
    assert response.json()["status"] == "waiting"
    closing = world.client("director_a").post(f"/api/v1/seasons/{season.id}/close/")
    assert closing.status_code == 409 and closing.json()["error"]["code"] == "events_waiting"
    tournament_start(tournament_id=tournament.id)
    with django_capture_on_commit_callbacks(execute=True):
        play_to_the_end(tournament)
    event = SeasonEvent.objects.get(tournament=tournament)
    assert event.status == "entered" and event.entries == 6
    results = list(event.results.order_by("place"))
    assert [r.place for r in results] == sorted(r.place for r in results)
    assert sum(r.prize for r in results) == tournament.prize_pool == 540
    # every knockout was credited, and every bounty paid, the winner's own included
    assert sum(r.knockouts for r in results) == pytest.approx(Decimal(5), abs=Decimal("0.001"))
    assert sum(r.bounties for r in results) == 60
    assert results[0].points == Decimal(6)  # reverse_rank: n - k + 1 for the winner
    assert {r.spent for r in results} == {110}
    assert Standing.objects.filter(season=season).count() == 6
    # attaching it again, to this season or another, is refused
    other = make_season(
        world.league_a, name="2027", starts_on=date(2027, 1, 1), ends_on=date(2027, 12, 31)
    )
    for target in (season, other):
        again = world.client("director_a").post(
            f"/api/v1/seasons/{target.id}/events/", {"tournament": tournament.id}, format="json"
        )
        assert again.status_code == 409
        assert again.json()["error"]["code"] == "already_attached"
    # a fixed result is read again and the season recomputed (places may be shared: the
    # bots' hands are dealt from fresh seeds, and equal stacks busted together tie)
    entry = tournament.entries.filter(place__gt=1).order_by("place", "id").first()
    entry.prize += 10
    entry.save()
    refreshed = world.client("director_a").post(f"/api/v1/season-events/{event.id}/refresh/")
    assert refreshed.status_code == 200
    assert EventResult.objects.get(event=event, player=entry.player).prize == entry.prize


def _season_with_a_finale(*, chip_bonus: list[int]):
    """Club A's season with one event of three players (the 3rd won, the 1st came second)
    whose two best qualify for a finale of 1,000 chips with ``chip_bonus``."""
    world = make_world()
    season = world.season_a
    Season.objects.filter(pk=season.pk).update(finale_qualifiers=2, finale_chip_bonus=chip_bonus)
    players = [make_member(world.club_a) for _ in range(3)]
    world.client("director_a").post(
        f"/api/v1/seasons/{season.id}/events/", _live(players, [2, 0, 1]), format="json"
    )
    return world, players, make_tournament(club_id=world.club_a.id, starting_stack=1000)


def test_the_finale_registers_the_qualifiers_with_their_chip_bonus():
    world, players, finale = _season_with_a_finale(chip_bonus=[500, 200])
    season, client = world.season_a, world.client("director_a")
    url = f"/api/v1/seasons/{season.id}/finale/"
    assert world.client("member_a").post(url, {"tournament": finale.id}).status_code == 403
    response = client.post(url, {"tournament": finale.id}, format="json")
    assert response.status_code == 201, response.json()
    assert [(row["player"], row["starting_stack"]) for row in response.json()] == [
        (players[2].id, 1500),
        (players[0].id, 1200),
    ]
    assert client.post(url, {"tournament": finale.id}, format="json").status_code == 409
    tournament_start(tournament_id=finale.id)
    assert chips_in_play(finale) == chips_expected(finale) == 2700


def test_a_chip_bonus_that_is_not_whole_chips_of_the_tournament_is_refused_for_all():
    # The finale plays in 5s: a bonus of 502 would make a stack of part of a chip, so the
    # whole request is refused and nobody is registered
    world, _players, finale = _season_with_a_finale(chip_bonus=[500, 202])
    season, client = world.season_a, world.client("director_a")

    response = client.post(f"/api/v1/seasons/{season.id}/finale/", {"tournament": finale.id})

    assert response.status_code == 400 and response.json()["error"]["code"] == "chips"
    assert "bonus_chips 202" in response.json()["error"]["message"]
    assert not finale.entries.exists()
    assert Season.objects.get(pk=season.pk).finale_tournament_id is None


def test_incremental_standings_equal_a_recompute_whatever_the_entry_order():
    world = make_world()
    season = world.season_a
    Season.objects.filter(pk=season.pk).update(best_of=2)
    season.refresh_from_db()
    client = world.client("director_a")
    players = [make_member(world.club_a) for _ in range(5)]
    # entered out of date order (the 3rd event before the 2nd) and a correction
    for played_on, order in (
        ("2026-02-01", [0, 1, 2, 3, 4]),
        ("2026-02-15", [4, 3, 2, 1, 0]),
        ("2026-02-08", [2, 0, 4]),
        ("2026-02-22", [1, 3]),
    ):
        assert (
            client.post(
                f"/api/v1/seasons/{season.id}/events/",
                _live(players, order, played_on),
                format="json",
            ).status_code
            == 201
        )
        incremental = _snapshot(season)
        season_recompute(season)
        assert _snapshot(season) == incremental
    event = SeasonEvent.objects.get(season=season, played_on=date(2026, 2, 8))
    corrected = client.put(
        f"/api/v1/season-events/{event.id}/results/",
        {"buy_in": 20, "results": _live(players, [0, 2, 4])["results"]},
        format="json",
    )
    assert corrected.status_code == 200
    after = _snapshot(season)
    season_recompute(season)
    assert _snapshot(season) == after


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"results": [(0, 1), (1, 1)]}, "place_twice"),
        ({"results": [(0, 1), (1, 3)]}, "place_gap"),
        ({"results": [(0, 1), (0, 2)]}, "player_twice"),
        ({"results": [(0, 1), (99, 2)]}, "unknown_player"),
        ({"played_on": "2025-12-31"}, "event_date"),
        ({"results": []}, "no_results"),
    ],
)
def test_live_results_that_do_not_match_the_field_are_refused(body, code):
    world = make_world()
    players = [make_member(world.club_a) for _ in range(2)]
    ids = {0: players[0].id, 1: players[1].id, 99: 10**9}
    request = {"name": "Live", "played_on": "2026-03-01", "results": [(0, 1), (1, 2)], **body}
    request["results"] = [{"player": ids[p], "place": k} for p, k in request["results"]]
    response = world.client("director_a").post(
        f"/api/v1/seasons/{world.season_a.id}/events/", request, format="json"
    )
    assert response.status_code == 400, response.json()
    assert response.json()["error"]["code"] == code
    assert not SeasonEvent.objects.exists() and not Standing.objects.exists()


@pytest.mark.parametrize(
    ("change", "code"),
    [
        ({"ends_on": "2027-02-01"}, "season_dates"),
        ({"starts_on": "2026-12-01", "ends_on": "2027-06-01"}, "season_overlap"),
        ({"best_of": 11}, "best_of"),
        ({"formula": "expression", "formula_params": {"expression": "9**9**9"}}, "formula"),
        ({"formula": "expression", "formula_params": {"expression": "n / (k - 1)"}}, "formula"),
        ({"formula": "expression", "formula_params": {"expression": "n +"}}, "formula"),
        ({"formula": "expression", "formula_params": {"expression": "bogus"}}, "formula"),
        ({"pot_payout": ["60", "30"]}, "pot_payout"),
        ({"finale_chip_bonus": [1, 2, 3, 4]}, "finale_chip_bonus"),
        ({"tie_breaks": ["wins", "wins"]}, "tie_breaks"),
    ],
)
def test_bad_seasons_are_refused_with_a_clear_400(change, code):
    world = make_world()
    body = {**SEASON, "starts_on": "2027-03-01", "ends_on": "2027-05-31", **change}
    response = world.client("director_a").post(
        f"/api/v1/leagues/{world.league_a.id}/seasons/", body, format="json"
    )
    assert response.status_code == 400, response.json()
    assert response.json()["error"]["code"] == code
    assert Season.objects.count() == 1


def test_points_preview_gives_every_place_and_refuses_bad_formulas():
    world = make_world()
    client = world.client("member_a")
    preview = client.post(
        "/api/v1/points-preview/", {"formula": "pokerstars", "n": 150, "b": 20}, format="json"
    )
    assert preview.status_code == 200
    assert len(preview.json()) == 150
    assert preview.json()[2] == {"place": 3, "points": "163.0900"}
    bad = client.post(
        "/api/v1/points-preview/",
        {"formula": "expression", "formula_params": {"expression": "9**9**9"}, "n": 5},
        format="json",
    )
    assert bad.status_code == 400 and "too large" in bad.json()["error"]["message"]


# ------------------------------------------------------------------------ permission matrix

READ = {"staff": 200, "director_a": 200, "director_b": 404, "member_a": 200, "anonymous": 401}
DIRECT = {"staff": 2, "director_a": 2, "director_b": 404, "member_a": 403, "anonymous": 401}


@pytest.mark.parametrize("role", list(READ))
@pytest.mark.parametrize(
    "path",
    [
        "leagues/{league}/",
        "leagues/{league}/seasons/",
        "seasons/{season}/",
        "seasons/{season}/events/",
        "seasons/{season}/standings/",
        "seasons/{season}/finale/",
        "season-events/{event}/",
    ],
)
def test_reading_club_a_leagues(role, path):
    world = make_world()
    event = SeasonEvent.objects.create(
        season=world.season_a, kind="live", status="entered", name="x", played_on="2026-01-05"
    )
    url = "/api/v1/" + path.format(
        league=world.league_a.id, season=world.season_a.id, event=event.id
    )
    assert world.client(role).get(url).status_code == READ[role]


@pytest.mark.parametrize("role", ["staff", "director_a", "director_b", "member_a"])
def test_lists_show_only_the_callers_clubs(role):
    world = make_world()
    League.objects.create(club=world.club_b, name="B league")
    names = [league["name"] for league in world.client(role).get("/api/v1/leagues/").json()]
    expected = {
        "staff": ["Thursday league", "B league"],
        "director_a": ["Thursday league"],
        "director_b": ["B league"],
        "member_a": ["Thursday league"],
    }
    assert names == expected[role]


@pytest.mark.parametrize("role", list(DIRECT))
def test_directing_club_a_leagues(role):
    world = make_world()
    client = world.client(role)
    players = [make_member(world.club_a) for _ in range(2)]
    expected = DIRECT[role]

    def check(response, success):
        wanted = success if expected == 2 else expected
        assert response.status_code == wanted, (response.request, response.json())

    check(
        client.post("/api/v1/leagues/", {"club_id": world.club_a.id, "name": "New"}, format="json"),
        201,
    ) if role not in ("director_b", "member_a") else None
    season_url = f"/api/v1/leagues/{world.league_a.id}/seasons/"
    check(client.post(season_url, {**SEASON}, format="json"), 201)
    events_url = f"/api/v1/seasons/{world.season_a.id}/events/"
    check(client.post(events_url, _live(players, [0, 1]), format="json"), 201)
    event = SeasonEvent.objects.filter(season=world.season_a).first() or SeasonEvent.objects.create(
        season=world.season_a, kind="live", status="entered", name="x", played_on="2026-01-05"
    )
    check(
        client.put(
            f"/api/v1/season-events/{event.id}/results/",
            {"results": _live(players, [1, 0])["results"]},
            format="json",
        ),
        200,
    )
    check(client.post(f"/api/v1/season-events/{event.id}/refresh/"), 400)
    check(client.post(f"/api/v1/seasons/{world.season_a.id}/close/"), 200)
    if expected != 2:
        assert Season.objects.count() == 1 and not EventResult.objects.exists()
        assert Season.objects.get().closed_at is None


@pytest.mark.parametrize(("role", "status"), [("director_b", 403), ("member_a", 403)])
def test_creating_a_league_in_a_club_one_does_not_direct(role, status):
    world = make_world()
    response = world.client(role).post(
        "/api/v1/leagues/", {"club_id": world.club_a.id, "name": "New"}, format="json"
    )
    assert response.status_code == status
    assert not League.objects.filter(name="New").exists()


def test_a_tournament_of_another_club_cannot_be_attached():
    world = make_world()
    tournament_b = make_tournament(players=2, club_id=world.club_b.id)
    response = world.client("director_a").post(
        f"/api/v1/seasons/{world.season_a.id}/events/",
        {"tournament": tournament_b.id},
        format="json",
    )
    assert response.status_code == 404
    assert not SeasonEvent.objects.exists()


def test_more_knockouts_than_players_knocked_out_is_refused():
    world = make_world()
    players = [make_member(world.club_a) for _ in range(2)]
    body = _live(players, [0, 1], extra={0: {"knockouts": "1.5"}})
    response = world.client("director_a").post(
        f"/api/v1/seasons/{world.season_a.id}/events/", body, format="json"
    )
    assert response.status_code == 400
    assert response.json()["error"]["message"].startswith("1.5 knockouts in a field of 2")
    assert not SeasonEvent.objects.exists()


def test_a_live_event_takes_only_members_of_the_leagues_club():
    """Issue 34 (10): a director of club B posted an event naming players outside club B."""
    world = make_world()
    league_b = League.objects.create(club=world.club_b, name="B's league")
    season_b = make_season(league_b)
    outsider, member_a = make_player(), world.players["member_a"]
    body = _live([outsider, member_a], [0, 1])
    response = world.client("director_b").post(
        f"/api/v1/seasons/{season_b.id}/events/", body, format="json"
    )
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "not_a_member"
    assert response.json()["error"]["detail"] == {"players": sorted([outsider.id, member_a.id])}
    assert not SeasonEvent.objects.filter(season=season_b).exists()
