"""The standings page of a league season: members of the club see the table, each event
with its results and how points are made; anyone else gets a 404 as if it did not exist."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from clubs.models import Club, Membership
from leagues.models import EventKind, EventStatus, League, SeasonEvent
from leagues.services.events import event_enter_live
from leagues.services.seasons import season_create
from tests.games.factories import make_player
from tests.tourney.tournaments import make_tournament
from tourney.models import Tournament

pytestmark = pytest.mark.django_db


def _season_with_an_event():
    club = Club.objects.create(name="Thursday club")
    league = League.objects.create(club=club, name="Stud league")
    today = timezone.localdate()
    season = season_create(
        league=league,
        name="Winter",
        starts_on=today - timedelta(days=1),
        ends_on=today + timedelta(days=90),
        formula="reverse_rank",
        formula_params={"multiplier": "10"},
    )
    players = [make_player(name) for name in ("ann", "ben", "cat")]
    for player in players:  # a league's results are its club's members'
        Membership.objects.create(club=club, user=player.user)
    event_enter_live(
        season=season,
        name="Week 1",
        played_on=today,
        buy_in=50,
        results=[
            {"player": players[1].id, "place": 1, "prize": 150},
            {"player": players[0].id, "place": 2},
            {"player": players[2].id, "place": 3},
        ],
    )
    return club, season, players


def test_a_member_sees_the_standings_each_event_and_the_formula():
    _, season, players = _season_with_an_event()
    client = Client()
    client.force_login(players[0].user)
    response = client.get(f"/leagues/seasons/{season.id}/")
    assert response.status_code == 200
    html = response.content.decode()
    table = html[html.index('<table id="standings">') :]
    table = table[: table.index("</table>")]
    rows = re.findall(r'<td class="num">(\d+)</td>\s*<td>.*?</td>\s*<td>(\w+)</td>', table, re.S)
    assert rows == [("1", "Ben"), ("2", "Ann"), ("3", "Cat")]
    assert "(n - k + 1) * 10" in html
    assert "Week 1" in html and "Winter" in html and "Stud league" in html
    assert "Content-Security-Policy" in response.headers


def test_a_season_of_another_club_is_a_404_and_anonymous_callers_sign_in_first():
    _, season, _ = _season_with_an_event()
    outsider = Client()
    outsider.force_login(make_player("zed").user)
    response = outsider.get(f"/leagues/seasons/{season.id}/")
    assert response.status_code == 404 and "Ben" not in response.content.decode()
    assert Client().get(f"/leagues/seasons/{season.id}/").status_code == 302


def test_an_event_whose_prizes_came_from_a_deal_says_so():
    _, season, players = _season_with_an_event()
    tournament = make_tournament(players=3)
    entries = list(tournament.entries.values_list("id", flat=True))
    Tournament.objects.filter(pk=tournament.pk).update(
        deal={"method": "icm", "entries": {str(entries[0]): 170, str(entries[1]): 130}}
    )
    SeasonEvent.objects.create(
        season=season,
        kind=EventKind.ONLINE,
        status=EventStatus.ENTERED,
        tournament=tournament,
        name="Week 2",
        played_on=timezone.localdate(),
    )
    client = Client()
    client.force_login(players[0].user)
    html = client.get(f"/leagues/seasons/{season.id}/").content.decode()
    assert "prizes by a deal (ICM) among the last 2" in html
