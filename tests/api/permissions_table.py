"""Who may call what: every operation of the OpenAPI schema, for six callers, against club
A's objects (``tests/api/world.py``), checked by ``tests/api/test_permissions.py``. A new
endpoint fails that test until it has a row here.

The columns: staff, a director of club A, a director of club B, a member of club A, a
player in no club, an anonymous caller. Club A is members-only (the default).

The rule, in the order the answers are decided (``clubs.access``):

- ``401``: an anonymous caller, everywhere but the API root and the sign-in.
- ``404``: the object in the path is one the caller does not see, answered exactly as one
  that does not exist, so that nobody learns which of another club's ids exist. A club's
  tournaments, tables (and their hands) and schedules are seen by its members, and by every
  signed-in player when the club is public; its leagues, seasons, events and webhooks by its
  members (webhooks: directors) only; the house's things (no club) by every signed-in
  player.
- ``403``: the caller sees the object (or the operation has none) but their role may not do
  this: running a club's tournament, league, schedule or members is for staff and the
  club's directors; a hand's history and proofs for the players dealt in, the table's
  club's directors and staff; a player's account for themselves, staff, and the directors of
  the club of the account (``?club=``); a wait-list entry for its player and staff.
- ``ok``: every access check passed; the answer may still refuse the input (400) or the
  state (409), which the other tests check.

Where an empty body would be refused (400) before the role is checked, ``BODIES`` gives a
valid one, so the row shows the role's answer; ``QUERIES`` adds a query string.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tests.tourney.tournaments import LEVELS

TABLE: dict[str, tuple[str, str, str, str, str, str]] = {
    #                                      staff  dir. A  dir. B  memb. A outsider anonym.
    # root
    "GET /api/v1/": ("ok", "ok", "ok", "ok", "ok", "ok"),
    # auth
    "POST /api/v1/auth/set-password/": ("ok", "ok", "ok", "ok", "ok", "ok"),
    "POST /api/v1/auth/token/": ("ok", "ok", "ok", "ok", "ok", "ok"),
    "POST /api/v1/auth/token/revoke/": ("ok", "ok", "ok", "ok", "ok", "401"),
    "POST /api/v1/auth/token/rotate/": ("ok", "ok", "ok", "ok", "ok", "401"),
    # clubs
    "GET /api/v1/clubs/": ("ok", "ok", "ok", "ok", "ok", "401"),
    "POST /api/v1/clubs/": ("ok", "403", "403", "403", "403", "401"),
    "GET /api/v1/clubs/{club_id}/": ("ok", "ok", "404", "ok", "404", "401"),
    "PATCH /api/v1/clubs/{club_id}/": ("ok", "ok", "404", "403", "404", "401"),
    "GET /api/v1/clubs/{club_id}/members/": ("ok", "ok", "404", "ok", "404", "401"),
    "POST /api/v1/clubs/{club_id}/members/": ("ok", "ok", "404", "403", "404", "401"),
    "PATCH /api/v1/clubs/{club_id}/members/{member_id}/": (
        "ok",
        "ok",
        "404",
        "403",
        "404",
        "401",
    ),
    "DELETE /api/v1/clubs/{club_id}/members/{member_id}/": (
        "ok",
        "ok",
        "404",
        "403",
        "404",
        "401",
    ),
    # games
    "GET /api/v1/games/": ("ok", "ok", "ok", "ok", "ok", "401"),
    "POST /api/v1/games/": ("ok", "403", "403", "403", "403", "401"),
    "GET /api/v1/games/waitlist/": ("ok", "ok", "ok", "ok", "ok", "401"),
    "POST /api/v1/games/waitlist/": ("ok", "ok", "ok", "ok", "ok", "401"),
    "DELETE /api/v1/games/waitlist/{entry_id}/": (
        "ok",
        "403",
        "403",
        "ok",
        "403",
        "401",
    ),
    "POST /api/v1/games/waitlist/{entry_id}/accept/": (
        "ok",
        "403",
        "403",
        "ok",
        "403",
        "401",
    ),
    "POST /api/v1/games/waitlist/{entry_id}/decline/": (
        "ok",
        "403",
        "403",
        "ok",
        "403",
        "401",
    ),
    "POST /api/v1/games/waitlist/{entry_id}/move/": (
        "ok",
        "403",
        "403",
        "403",
        "403",
        "401",
    ),
    "GET /api/v1/games/{game_id}/": ("ok", "ok", "ok", "ok", "ok", "401"),
    "POST /api/v1/games/{game_id}/confirm-table/": (
        "ok",
        "403",
        "403",
        "403",
        "403",
        "401",
    ),
    "GET /api/v1/games/{game_id}/waitlist/": (
        "ok",
        "403",
        "403",
        "403",
        "403",
        "401",
    ),
    "POST /api/v1/games/{game_id}/waitlist/": (
        "ok",
        "403",
        "403",
        "403",
        "403",
        "401",
    ),
    # hands
    "GET /api/v1/hands/audits/": ("ok", "403", "403", "403", "403", "401"),
    "GET /api/v1/hands/{hand_id}/": ("ok", "ok", "404", "ok", "404", "401"),
    "GET /api/v1/hands/{hand_id}/audit/": (
        "ok",
        "403",
        "404",
        "403",
        "404",
        "401",
    ),
    "GET /api/v1/hands/{hand_id}/history/": ("ok", "ok", "404", "403", "404", "401"),
    "GET /api/v1/hands/{hand_id}/verify/": ("ok", "ok", "404", "403", "404", "401"),
    # leagues
    "GET /api/v1/leagues/": ("ok", "ok", "ok", "ok", "ok", "401"),
    "POST /api/v1/leagues/": ("ok", "ok", "403", "403", "403", "401"),
    "GET /api/v1/leagues/{league_id}/": ("ok", "ok", "404", "ok", "404", "401"),
    "GET /api/v1/leagues/{league_id}/seasons/": ("ok", "ok", "404", "ok", "404", "401"),
    "POST /api/v1/leagues/{league_id}/seasons/": (
        "ok",
        "ok",
        "404",
        "403",
        "404",
        "401",
    ),
    # players
    "GET /api/v1/players/": ("ok", "403", "403", "403", "403", "401"),
    "POST /api/v1/players/": ("ok", "403", "403", "403", "403", "401"),
    "GET /api/v1/players/me/": ("ok", "ok", "ok", "ok", "ok", "401"),
    "PUT /api/v1/players/me/client-seed/": ("ok", "ok", "ok", "ok", "ok", "401"),
    "POST /api/v1/players/me/password/": ("ok", "ok", "ok", "ok", "ok", "401"),
    "GET /api/v1/players/{player_id}/": ("ok", "403", "403", "403", "403", "401"),
    "PATCH /api/v1/players/{player_id}/": ("ok", "403", "403", "403", "403", "401"),
    "POST /api/v1/players/{player_id}/password-link/": ("ok", "403", "403", "403", "403", "401"),
    "GET /api/v1/players/{player_id}/account/": ("ok", "ok", "403", "ok", "403", "401"),
    "POST /api/v1/players/{player_id}/deposit/": (
        "ok",
        "ok",
        "403",
        "403",
        "403",
        "401",
    ),
    "GET /api/v1/players/{player_id}/seasons/": ("ok", "ok", "ok", "ok", "ok", "401"),
    "GET /api/v1/players/{player_id}/transactions/": ("ok", "ok", "403", "ok", "403", "401"),
    "POST /api/v1/players/{player_id}/withdraw/": (
        "ok",
        "ok",
        "403",
        "403",
        "403",
        "401",
    ),
    # points-preview
    "POST /api/v1/points-preview/": ("ok", "ok", "ok", "ok", "ok", "401"),
    # season-events
    "GET /api/v1/season-events/{event_id}/": ("ok", "ok", "404", "ok", "404", "401"),
    "POST /api/v1/season-events/{event_id}/refresh/": (
        "ok",
        "ok",
        "404",
        "403",
        "404",
        "401",
    ),
    "PUT /api/v1/season-events/{event_id}/results/": (
        "ok",
        "ok",
        "404",
        "403",
        "404",
        "401",
    ),
    # seasons
    "GET /api/v1/seasons/{season_id}/": ("ok", "ok", "404", "ok", "404", "401"),
    "POST /api/v1/seasons/{season_id}/close/": ("ok", "ok", "404", "403", "404", "401"),
    "GET /api/v1/seasons/{season_id}/events/": ("ok", "ok", "404", "ok", "404", "401"),
    "POST /api/v1/seasons/{season_id}/events/": (
        "ok",
        "ok",
        "404",
        "403",
        "404",
        "401",
    ),
    "GET /api/v1/seasons/{season_id}/finale/": ("ok", "ok", "404", "ok", "404", "401"),
    "POST /api/v1/seasons/{season_id}/finale/": (
        "ok",
        "ok",
        "404",
        "403",
        "404",
        "401",
    ),
    "GET /api/v1/seasons/{season_id}/pot/transactions/": (
        "ok",
        "ok",
        "404",
        "ok",
        "404",
        "401",
    ),
    "GET /api/v1/seasons/{season_id}/standings/": ("ok", "ok", "404", "ok", "404", "401"),
    # tables
    "GET /api/v1/tables/": ("ok", "ok", "ok", "ok", "ok", "401"),
    "POST /api/v1/tables/": ("ok", "403", "403", "403", "403", "401"),
    "GET /api/v1/tables/{table_id}/": ("ok", "ok", "404", "ok", "404", "401"),
    "POST /api/v1/tables/{table_id}/act/": ("ok", "ok", "404", "ok", "404", "401"),
    "POST /api/v1/tables/{table_id}/back/": ("ok", "ok", "404", "ok", "404", "401"),
    "GET /api/v1/tables/{table_id}/events/": ("ok", "ok", "404", "ok", "404", "401"),
    "PUT /api/v1/tables/{table_id}/client-seed/": ("ok", "ok", "404", "ok", "404", "401"),
    "POST /api/v1/tables/{table_id}/leave/": ("ok", "ok", "404", "ok", "404", "401"),
    "POST /api/v1/tables/{table_id}/pause/": (
        "ok",
        "403",
        "404",
        "403",
        "404",
        "401",
    ),
    "POST /api/v1/tables/{table_id}/report-left/": (
        "ok",
        "403",
        "404",
        "403",
        "404",
        "401",
    ),
    "POST /api/v1/tables/{table_id}/resume/": (
        "ok",
        "403",
        "404",
        "403",
        "404",
        "401",
    ),
    "DELETE /api/v1/tables/{table_id}/seat-change/": ("ok", "ok", "404", "ok", "404", "401"),
    "POST /api/v1/tables/{table_id}/seat-change/": ("ok", "ok", "404", "ok", "404", "401"),
    "POST /api/v1/tables/{table_id}/sit-in/": ("ok", "ok", "404", "ok", "404", "401"),
    "POST /api/v1/tables/{table_id}/sit-out/": ("ok", "ok", "404", "ok", "404", "401"),
    "POST /api/v1/tables/{table_id}/sit/": ("ok", "ok", "404", "ok", "404", "401"),
    "POST /api/v1/tables/{table_id}/top-up/": ("ok", "ok", "404", "ok", "404", "401"),
    # tournaments
    "GET /api/v1/tournaments/": ("ok", "ok", "ok", "ok", "ok", "401"),
    "POST /api/v1/tournaments/": ("ok", "ok", "403", "403", "403", "401"),
    "POST /api/v1/tournaments/schedules/": ("ok", "ok", "403", "403", "403", "401"),
    "GET /api/v1/tournaments/schedules/{schedule_id}/": (
        "ok",
        "ok",
        "404",
        "ok",
        "404",
        "401",
    ),
    "PATCH /api/v1/tournaments/schedules/{schedule_id}/": (
        "ok",
        "ok",
        "404",
        "403",
        "404",
        "401",
    ),
    "GET /api/v1/tournaments/{tournament_id}/": ("ok", "ok", "404", "ok", "404", "401"),
    "PATCH /api/v1/tournaments/{tournament_id}/": (
        "ok",
        "ok",
        "404",
        "403",
        "404",
        "401",
    ),
    "POST /api/v1/tournaments/{tournament_id}/add-on/": (
        "ok",
        "ok",
        "404",
        "ok",
        "404",
        "401",
    ),
    "POST /api/v1/tournaments/{tournament_id}/busts/": (
        "ok",
        "ok",
        "404",
        "403",
        "404",
        "401",
    ),
    "POST /api/v1/tournaments/{tournament_id}/busts/{entry_id}/disqualify/": (
        "ok",
        "ok",
        "404",
        "403",
        "404",
        "401",
    ),
    "POST /api/v1/tournaments/{tournament_id}/busts/{entry_id}/undo/": (
        "ok",
        "ok",
        "404",
        "403",
        "404",
        "401",
    ),
    "POST /api/v1/tournaments/{tournament_id}/cancel/": (
        "ok",
        "ok",
        "404",
        "403",
        "404",
        "401",
    ),
    "POST /api/v1/tournaments/{tournament_id}/chips/": (
        "ok",
        "ok",
        "404",
        "403",
        "404",
        "401",
    ),
    "POST /api/v1/tournaments/{tournament_id}/chips/correct/": (
        "ok",
        "ok",
        "404",
        "403",
        "404",
        "401",
    ),
    "POST /api/v1/tournaments/{tournament_id}/clock/": (
        "ok",
        "ok",
        "404",
        "403",
        "404",
        "401",
    ),
    "GET /api/v1/tournaments/{tournament_id}/deal-quote/": (
        "ok",
        "ok",
        "404",
        "ok",
        "404",
        "401",
    ),
    "POST /api/v1/tournaments/{tournament_id}/deal/": (
        "ok",
        "ok",
        "404",
        "403",
        "404",
        "401",
    ),
    "GET /api/v1/tournaments/{tournament_id}/events/": (
        "ok",
        "ok",
        "404",
        "ok",
        "404",
        "401",
    ),
    "POST /api/v1/tournaments/{tournament_id}/late-registration/": (
        "ok",
        "ok",
        "404",
        "403",
        "404",
        "401",
    ),
    "GET /api/v1/tournaments/{tournament_id}/leaderboard/": (
        "ok",
        "ok",
        "404",
        "ok",
        "404",
        "401",
    ),
    "GET /api/v1/tournaments/{tournament_id}/moves/": ("ok", "ok", "404", "ok", "404", "401"),
    "POST /api/v1/tournaments/{tournament_id}/moves/{move_id}/acknowledge/": (
        "ok",
        "ok",
        "404",
        "403",
        "404",
        "401",
    ),
    "POST /api/v1/tournaments/{tournament_id}/pause/": (
        "ok",
        "ok",
        "404",
        "403",
        "404",
        "401",
    ),
    "GET /api/v1/tournaments/{tournament_id}/payouts/": (
        "ok",
        "ok",
        "404",
        "ok",
        "404",
        "401",
    ),
    "POST /api/v1/tournaments/{tournament_id}/re-enter/": (
        "ok",
        "ok",
        "404",
        "ok",
        "404",
        "401",
    ),
    "POST /api/v1/tournaments/{tournament_id}/rebuy/": (
        "ok",
        "ok",
        "404",
        "ok",
        "404",
        "401",
    ),
    "POST /api/v1/tournaments/{tournament_id}/register/": (
        "ok",
        "ok",
        "404",
        "ok",
        "404",
        "401",
    ),
    "GET /api/v1/tournaments/{tournament_id}/results/": (
        "ok",
        "ok",
        "404",
        "ok",
        "404",
        "401",
    ),
    "POST /api/v1/tournaments/{tournament_id}/resume/": (
        "ok",
        "ok",
        "404",
        "403",
        "404",
        "401",
    ),
    "POST /api/v1/tournaments/{tournament_id}/seats/late-entry/": (
        "ok",
        "ok",
        "404",
        "403",
        "404",
        "401",
    ),
    "POST /api/v1/tournaments/{tournament_id}/seats/lock/": (
        "ok",
        "ok",
        "404",
        "403",
        "404",
        "401",
    ),
    "POST /api/v1/tournaments/{tournament_id}/seats/move/": (
        "ok",
        "ok",
        "404",
        "403",
        "404",
        "401",
    ),
    "POST /api/v1/tournaments/{tournament_id}/seats/swap/": (
        "ok",
        "ok",
        "404",
        "403",
        "404",
        "401",
    ),
    "PATCH /api/v1/tournaments/{tournament_id}/settings/": (
        "ok",
        "ok",
        "404",
        "403",
        "404",
        "401",
    ),
    "POST /api/v1/tournaments/{tournament_id}/start/": (
        "ok",
        "ok",
        "404",
        "403",
        "404",
        "401",
    ),
    "GET /api/v1/tournaments/{tournament_id}/tables/": (
        "ok",
        "ok",
        "404",
        "ok",
        "404",
        "401",
    ),
    "POST /api/v1/tournaments/{tournament_id}/unregister/": (
        "ok",
        "ok",
        "404",
        "ok",
        "404",
        "401",
    ),
    # webhooks
    "GET /api/v1/webhooks/deliveries/": ("ok", "ok", "ok", "ok", "ok", "401"),
    "POST /api/v1/webhooks/deliveries/{delivery_id}/replay/": (
        "ok",
        "ok",
        "404",
        "404",
        "404",
        "401",
    ),
    "GET /api/v1/webhooks/subscriptions/": ("ok", "ok", "ok", "ok", "ok", "401"),
    "POST /api/v1/webhooks/subscriptions/": ("ok", "ok", "403", "403", "403", "401"),
    "DELETE /api/v1/webhooks/subscriptions/{subscription_id}/": (
        "ok",
        "ok",
        "404",
        "404",
        "404",
        "401",
    ),
    "GET /api/v1/webhooks/subscriptions/{subscription_id}/": (
        "ok",
        "ok",
        "404",
        "404",
        "404",
        "401",
    ),
    "PATCH /api/v1/webhooks/subscriptions/{subscription_id}/": (
        "ok",
        "ok",
        "404",
        "404",
        "404",
        "401",
    ),
}

Body = Callable[[Any], dict[str, Any]]

BODIES: dict[str, Body] = {
    "POST /api/v1/tournaments/": lambda world: {
        "name": "Club night",
        "club_id": world.club_a.id,
        "buy_in": 55,
        "fee": 5,
        "starting_stack": 1000,
        "chip_unit": 5,
        "schedule_id": world.ids["schedule_id"],
    },
    "POST /api/v1/tournaments/schedules/": lambda world: {
        "name": "A's other levels",
        "club_id": world.club_a.id,
        "chip_unit": 5,
        "entries": LEVELS,
    },
    "POST /api/v1/leagues/": lambda world: {"club_id": world.club_a.id, "name": "Second league"},
    "POST /api/v1/players/{player_id}/deposit/": lambda world: {"amount": 10},
    "PATCH /api/v1/players/{player_id}/": lambda world: {"display_name": "Renamed"},
    "PATCH /api/v1/clubs/{club_id}/members/{member_id}/": lambda world: {"role": "director"},
    "POST /api/v1/players/{player_id}/withdraw/": lambda world: {"amount": 10},
    "POST /api/v1/webhooks/subscriptions/": lambda world: {
        "url": "https://hooks.example.com/b",
        "event_types": ["tournament.finished"],
        "club": world.club_a.id,
    },
    "POST /api/v1/games/waitlist/{entry_id}/accept/": lambda world: {"buy_in": 100},
}

QUERIES: dict[str, Callable[[Any], str]] = {
    f"{method} /api/v1/players/{{player_id}}/{name}/": lambda world: f"club={world.club_a.id}"
    for method, name in (
        ("GET", "account"),
        ("GET", "transactions"),
        ("POST", "deposit"),
        ("POST", "withdraw"),
    )
}
