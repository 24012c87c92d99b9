"""The desk's leagues: a club's director creates leagues and seasons of their club only,
previews a formula's points (as the API's preview) and attaches a club tournament; bad
input shows beside its field and saves nothing."""

from __future__ import annotations

import re
from decimal import Decimal

import pytest
from django.test import Client
from rest_framework.test import APIClient

from clubs.models import Club, Membership, Role
from leagues.models import League, Season, SeasonEvent
from tests.games.factories import make_player
from tests.tourney.tournaments import make_tournament

pytestmark = pytest.mark.django_db

SEASON = {
    "name": "Spring",
    "starts_on": "2027-03-01",
    "ends_on": "2027-05-31",
    "formula": "reverse_rank",
    "multiplier": "2",
    "decimals": "2",
    "n": "5",
    "b": "100",
}


def _director(club: Club, name: str = "dana"):
    player = make_player(name)
    Membership.objects.create(club=club, user=player.user, role=Role.DIRECTOR)
    client = Client()
    client.force_login(player.user)
    return player, client


def test_leagues_are_for_their_club_s_directors():
    ours, theirs = Club.objects.create(name="Ours"), Club.objects.create(name="Theirs")
    theirs_league = League.objects.create(club=theirs, name="Theirs league")
    assert Client().get("/desk/leagues/").status_code == 302
    member = make_player("alice")
    Membership.objects.create(club=theirs, user=member.user, role=Role.MEMBER)
    client = Client()
    client.force_login(member.user)
    assert client.get("/desk/leagues/").status_code == 403
    _player, director = _director(ours)
    assert "Theirs league" not in director.get("/desk/leagues/").content.decode()
    assert director.get(f"/desk/leagues/{theirs_league.id}/").status_code == 404
    refused = director.post("/desk/leagues/", {"club_id": theirs.id, "name": "Mine"})
    assert refused.status_code in (400, 403) and not League.objects.filter(name="Mine").exists()
    made = director.post("/desk/leagues/", {"club_id": ours.id, "name": "Ours league"})
    assert made.status_code == 302
    assert League.objects.get(name="Ours league").club_id == ours.id


def test_a_season_s_points_previewed_as_the_api_previews_them_then_saved():
    club = Club.objects.create(name="Ours")
    player, client = _director(club)
    league = League.objects.create(club=club, name="League")
    preview = client.post(f"/desk/leagues/{league.id}/seasons/", {**SEASON, "preview": ""})
    assert preview.status_code == 200 and not Season.objects.exists()
    api = APIClient()
    api.force_authenticate(player.user)
    by_api = api.post(
        "/api/v1/points-preview/",
        {"formula": "reverse_rank", "formula_params": {"multiplier": "2"}, "n": 5, "b": 100},
        format="json",
    ).json()
    cells = re.findall(
        r'<td class="num">(\d+)</td><td class="num">([\d.]+)</td>', preview.content.decode()
    )
    assert [(int(k), Decimal(p)) for k, p in cells] == [
        (row["place"], Decimal(row["points"])) for row in by_api
    ]
    bad = client.post(f"/desk/leagues/{league.id}/seasons/", {**SEASON, "ends_on": "2027-02-30"})
    assert bad.status_code == 400 and 'id="f-ends_on-error"' in bad.content.decode()
    assert not Season.objects.exists()
    saved = client.post(f"/desk/leagues/{league.id}/seasons/", {**SEASON, "save": ""})
    assert saved.status_code == 302
    season = Season.objects.get()
    assert (season.formula, season.formula_params) == ("reverse_rank", {"multiplier": "2"})


def test_a_club_tournament_attached_to_a_season():
    club = Club.objects.create(name="Ours")
    _player, client = _director(club)
    league = League.objects.create(club=club, name="League")
    client.post(f"/desk/leagues/{league.id}/seasons/", {**SEASON, "save": ""})
    season = Season.objects.get()
    tournament = make_tournament(name="Club night", club_id=club.id)
    empty = client.post(f"/desk/leagues/{league.id}/events/", {"season": season.id})
    assert empty.status_code == 400 and 'id="f-tournament-error"' in empty.content.decode()
    attached = client.post(
        f"/desk/leagues/{league.id}/events/",
        {"season": season.id, "tournament": tournament.id, "played_on": "2027-03-05"},
    )
    assert attached.status_code == 302
    assert SeasonEvent.objects.get().tournament_id == tournament.id
