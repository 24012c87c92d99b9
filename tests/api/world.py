"""The permission table's world: club A with a director and a member, club B with a
director, a player in no club, staff, and one of club A's objects for every path parameter
of the API (``World.ids``), made through the real services where they exist.

Club A keeps the default visibility (members only). Its ring table has a finished hand
dealt to two bots; its tournament is online and registering, with entries and a move; its
league has a season with a live event; it has a webhook subscription with a delivery.
The ring game of the floor (which has no club) is the house's.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from typing import Any

from rest_framework.test import APIClient

from clubs.models import Club, Membership, Role
from games.models import Hand, HandStatus, Player
from games.services import hands, waitlist
from integrations.models import Delivery, OutboxEvent
from integrations.webhooks.subscriptions import subscription_create
from leagues.models import League
from leagues.services.events import event_enter_live
from tests.games.factories import make_player, make_table, seat_players
from tests.games.floor import make_game
from tests.leagues.world import make_season
from tests.tourney.tournaments import LEVELS
from tourney.models import Move, MoveStatus
from tourney.services.commands.registration import entry_register
from tourney.services.commands.schedules import schedule_create
from tourney.services.commands.setup import tournament_create

ROLES = ("staff", "director_a", "director_b", "member_a", "outsider", "anonymous")
"""The six callers, in the order of the permission table's columns."""


@dataclass
class World:
    club_a: Club
    club_b: Club
    players: dict[str, Player]
    ids: dict[str, int] = field(default_factory=dict)
    """Club A's object for each path parameter (``{table_id}`` -> its table's id...)."""

    def client(self, role: str) -> APIClient:
        client = APIClient()
        if role != "anonymous":
            client.force_authenticate(self.players[role].user)
        return client


def _finished_bot_hand(club: Club) -> Hand:
    table = make_table(club_id=club.id)
    seat_players(table, [make_player(bot="station"), make_player(bot="station")], buy_in=100)
    while hands.table_advance(table.id) != "hand finished":
        pass
    hand = Hand.objects.get(table=table, number=1)
    assert hand.status == HandStatus.FINISHED
    return hand


def make_world() -> World:
    club_a, club_b = Club.objects.create(name="Club A"), Club.objects.create(name="Club B")
    players = {
        "staff": make_player("staff", staff=True),
        "director_a": make_player("director-a"),
        "director_b": make_player("director-b"),
        "member_a": make_player("member-a"),
        "outsider": make_player("outsider"),
    }
    for club, name, role in (
        (club_a, "director_a", Role.DIRECTOR),
        (club_a, "member_a", Role.MEMBER),
        (club_b, "director_b", Role.DIRECTOR),
    ):
        Membership.objects.create(club=club, user=players[name].user, role=role)
    world = World(club_a, club_b, players)
    member = players["member_a"]

    hand = _finished_bot_hand(club_a)
    schedule = schedule_create(name="A's levels", chip_unit=5, entries=LEVELS, club_id=club_a.id)
    tournament = tournament_create(
        name="A's Thursday",
        club_id=club_a.id,
        buy_in=110,
        fee=10,
        starting_stack=1000,
        chip_unit=5,
        table_size=4,
        schedule_id=schedule.id,
        pause_ms=0,
    )
    entry = entry_register(tournament_id=tournament.id, player_id=member.id)
    move = Move.objects.create(
        tournament=tournament,
        entry=entry,
        from_table=1,
        from_seat=1,
        to_table=2,
        to_seat=1,
        reason="balance",
        status=MoveStatus.PENDING,
    )
    league = League.objects.create(club=club_a, name="A's league")
    season = make_season(league)
    event = event_enter_live(
        season=season,
        name="A's live night",
        played_on=date(2026, 3, 5),
        results=[{"player": member.id, "place": 1}],
    )
    subscription = subscription_create(
        by=players["director_a"].user,
        url="https://hooks.example.com/a",
        event_types=["tournament.finished"],
        club_id=club_a.id,
    )
    outbox = OutboxEvent.objects.create(type="tournament.finished", club=club_a, payload={})
    delivery = Delivery.objects.create(subscription=subscription, event=outbox)
    game = make_game()
    wait_entry = waitlist.entry_join(game_id=game.id, player=member)

    world.ids = {
        "club_id": club_a.id,
        "member_id": Membership.objects.get(club=club_a, user=member.user).id,
        "table_id": hand.table_id,
        "hand_id": hand.id,
        "schedule_id": schedule.id,
        "tournament_id": tournament.id,
        "tournament_entry_id": entry.id,
        "move_id": move.id,
        "league_id": league.id,
        "season_id": season.id,
        "event_id": event.id,
        "player_id": member.id,
        "subscription_id": subscription.id,
        "delivery_id": delivery.id,
        "game_id": game.id,
        "entry_id": wait_entry.id,
    }
    return world


def path_for(world: World, template: str) -> str:
    """The schema's path with club A's objects in it (a tournament's ``{entry_id}`` is one of
    its entries; elsewhere ``{entry_id}`` is a wait-list entry)."""
    ids: dict[str, Any] = dict(world.ids)
    if template.startswith("/api/v1/tournaments/"):
        ids["entry_id"] = ids["tournament_entry_id"]
    return template.format(**ids)
