"""Two clubs and the five kinds of caller of the permission tests: staff, a director of
club A, a director of club B, a member of club A, and an anonymous caller."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

from rest_framework.test import APIClient

from clubs.models import Club, Membership, Role
from games.models import Player
from leagues.models import League, Season
from tests.games.factories import make_player

ROLES = ("staff", "director_a", "director_b", "member_a", "anonymous")


@dataclass
class World:
    club_a: Club
    club_b: Club
    players: dict[str, Player]
    league_a: League
    season_a: Season

    def client(self, role: str) -> APIClient:
        client = APIClient()
        if role != "anonymous":
            client.force_authenticate(self.players[role].user)
        return client


def make_member(club: Club, role: str = Role.MEMBER) -> Player:
    """A player who is a member of ``club`` (a league's results take its club's members)."""
    player = make_player()
    Membership.objects.create(club=club, user=player.user, role=role)
    return player


def make_season(league: League, **overrides: Any) -> Season:
    fields: dict[str, Any] = {
        "name": "2026",
        "starts_on": date(2026, 1, 1),
        "ends_on": date(2026, 12, 31),
        "formula": "reverse_rank",
        "formula_params": {"multiplier": "1"},
    }
    fields.update(overrides)
    return Season.objects.create(league=league, **fields)


def make_world() -> World:
    club_a, club_b = Club.objects.create(name="Club A"), Club.objects.create(name="Club B")
    players = {
        "staff": make_player(staff=True),
        "director_a": make_player(),
        "director_b": make_player(),
        "member_a": make_player(),
    }
    Membership.objects.create(club=club_a, user=players["director_a"].user, role=Role.DIRECTOR)
    Membership.objects.create(club=club_b, user=players["director_b"].user, role=Role.DIRECTOR)
    Membership.objects.create(club=club_a, user=players["member_a"].user, role=Role.MEMBER)
    league_a = League.objects.create(club=club_a, name="Thursday league")
    return World(club_a, club_b, players, league_a, make_season(league_a))
