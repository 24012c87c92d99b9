"""The tournament director's API: clock control, floor control, rulings, settings in play
and reading everything back. Every action is for staff or a director of the tournament's club
(``IsTournamentDirector``), the boards (tables, leaderboard) for whoever sees the tournament;
each view is a thin call into ``tourney.services.commands.director_*`` or
``tourney.director_selectors``; refusals are rendered by config.api_errors.
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from api_conventions import path_id, refusals, validated
from tourney import director_selectors, selectors
from tourney.api import director_serializers as d
from tourney.api import serializers as s
from tourney.api.pagination import paginate
from tourney.api.permissions import IsTournamentDirector, club_players_check
from tourney.api.views import TournamentApi
from tourney.services.commands import (
    director_clock,
    director_floor,
    director_rulings,
    director_settings,
)


def detail_response(tournament_id: int) -> Response:
    """The tournament's detail after an action (what GET /tournaments/{id}/ answers)."""
    tournament = selectors.get_tournament(tournament_id)
    return Response(d.DetailOutputSerializer(director_selectors.tournament_detail(tournament)).data)


class DirectorApi(TournamentApi):
    permission_classes = [IsTournamentDirector]


class TournamentClockApi(DirectorApi):
    """Clock control: add or remove time, next or previous level, an unscheduled break (now
    or after the hands in progress) and its end, a colour-up at a break."""

    @extend_schema(
        request=d.ClockInputSerializer,
        responses={200: d.DetailOutputSerializer, **refusals(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        data = validated(d.ClockInputSerializer, request.data)
        action = data["action"]
        if action == "add_time":
            director_clock.clock_add_time(tournament_id=tournament_id, seconds=data["seconds"])
        elif action in ("next_level", "previous_level"):
            step = 1 if action == "next_level" else -1
            director_clock.clock_jump(tournament_id=tournament_id, step=step)
        elif action == "break":
            director_clock.clock_break(
                tournament_id=tournament_id,
                minutes=data["minutes"],
                after_hands=data.get("after_hands", False),
            )
        elif action == "end_break":
            director_clock.clock_end_break(tournament_id=tournament_id)
        else:
            director_clock.clock_color_up(tournament_id=tournament_id, chip_unit=data["chip_unit"])
        return detail_response(tournament_id)


class SeatMoveApi(DirectorApi):
    """Move a player to an empty seat of an open table (between hands); balancing then
    takes the new seating into account."""

    @extend_schema(
        request=d.SeatMoveInputSerializer,
        responses={200: s.MoveOutputSerializer, **refusals(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        data = validated(d.SeatMoveInputSerializer, request.data)
        move = director_floor.floor_move(
            tournament_id=tournament_id,
            entry_id=data["entry"],
            table=data["table"],
            seat=data["seat"],
        )
        return Response(s.MoveOutputSerializer(move).data)


class SeatSwapApi(DirectorApi):
    """Swap the seats of two players (between hands)."""

    @extend_schema(
        request=d.SeatSwapInputSerializer,
        responses={200: s.MoveOutputSerializer(many=True), **refusals(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        data = validated(d.SeatSwapInputSerializer, request.data)
        moves = director_floor.floor_swap(
            tournament_id=tournament_id, entry_ids=(data["entries"][0], data["entries"][1])
        )
        return Response(s.MoveOutputSerializer(moves, many=True).data)


class SeatLockApi(DirectorApi):
    """Lock a player's seat (``locked`` false unlocks): balancing never moves them."""

    @extend_schema(
        request=d.SeatLockInputSerializer,
        responses={200: d.EntryStateOutputSerializer, **refusals(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        data = validated(d.SeatLockInputSerializer, request.data)
        entry = director_floor.floor_lock(
            tournament_id=tournament_id, entry_id=data["entry"], locked=data["locked"]
        )
        return Response(d.EntryStateOutputSerializer(entry).data)


class LateEntryApi(DirectorApi):
    """Register a late entrant (late registration open) at the table and seat chosen."""

    @extend_schema(
        request=d.LateEntryInputSerializer,
        responses={201: d.EntryStateOutputSerializer, **refusals(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        data = validated(d.LateEntryInputSerializer, request.data)
        club_players_check(tournament_id, [data["player"]])
        entry = director_floor.floor_late_entry(
            tournament_id=tournament_id,
            player_id=data["player"],
            table=data["table"],
            seat=data["seat"],
        )
        return Response(d.EntryStateOutputSerializer(entry).data, status=status.HTTP_201_CREATED)


@path_id("entry_id")
class BustUndoApi(DirectorApi):
    """Undo the latest bust: the entry comes back with ``chips`` (from ``from_entry``, or
    added to play), at the seat it left or the one named."""

    @extend_schema(
        request=d.UndoBustInputSerializer,
        responses={200: d.EntryStateOutputSerializer, **refusals(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, tournament_id: int, entry_id: int) -> Response:
        data = validated(d.UndoBustInputSerializer, request.data)
        entry = director_rulings.ruling_undo_bust(
            tournament_id=tournament_id,
            entry_id=entry_id,
            chips=data["chips"],
            from_entry=data.get("from_entry"),
            table=data.get("table"),
            seat=data.get("seat"),
        )
        return Response(d.EntryStateOutputSerializer(entry).data)


@path_id("entry_id")
class DisqualifyApi(DirectorApi):
    """Disqualify a player: eliminated now, chips removed from play (logged)."""

    @extend_schema(
        request=d.ReasonInputSerializer,
        responses={200: d.EntryStateOutputSerializer, **refusals(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, tournament_id: int, entry_id: int) -> Response:
        data = validated(d.ReasonInputSerializer, request.data)
        entry = director_rulings.ruling_disqualify(
            tournament_id=tournament_id, entry_id=entry_id, reason=data["reason"]
        )
        return Response(d.EntryStateOutputSerializer(entry).data)


class ChipCorrectionApi(DirectorApi):
    """Correct a player's chip count (between hands); the difference is logged."""

    @extend_schema(
        request=d.ChipCorrectionInputSerializer,
        responses={200: d.EntryStateOutputSerializer, **refusals(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        data = validated(d.ChipCorrectionInputSerializer, request.data)
        entry = director_rulings.ruling_chips(
            tournament_id=tournament_id,
            entry_id=data["entry"],
            chips=data["chips"],
            reason=data["reason"],
        )
        return Response(d.EntryStateOutputSerializer(entry).data)


class LateRegistrationApi(DirectorApi):
    """Close late registration now, or reopen it until the end of a level."""

    @extend_schema(
        request=d.LateRegistrationInputSerializer,
        responses={200: d.DetailOutputSerializer, **refusals(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        data = validated(d.LateRegistrationInputSerializer, request.data)
        director_settings.late_registration_set(
            tournament_id=tournament_id, open_=data["open"], until_level=data.get("until_level")
        )
        return detail_response(tournament_id)


class SettingsApi(DirectorApi):
    """Change settings in play: level lengths, the levels to come, the payout table (before
    the money), the action clock."""

    @extend_schema(
        request=d.SettingsInputSerializer,
        responses={200: d.DetailOutputSerializer, **refusals(400, 401, 403, 404, 409)},
    )
    def patch(self, request: Request, tournament_id: int) -> Response:
        data = validated(d.SettingsInputSerializer, request.data)
        if "levels" in data:
            data["levels"] = [dict(level) for level in data["levels"]]
        director_settings.settings_change(tournament_id=tournament_id, **data)
        return detail_response(tournament_id)


class TablesApi(TournamentApi):
    """Every table the tournament opened (open, broken, final) with seats and stacks (for
    whoever sees the tournament, as its detail shows them)."""

    @extend_schema(
        parameters=[d.PageQuerySerializer],
        responses={
            200: d.paginated(d.TableRowOutputSerializer, "TablePageSerializer"),
            **refusals(400, 401, 403, 404),
        },
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        validated(d.PageQuerySerializer, request.query_params)
        rows = director_selectors.tables_list(selectors.get_tournament(tournament_id))
        return paginate(request, self, rows, d.TableRowOutputSerializer)


class LeaderboardApi(TournamentApi):
    """The players left by chips (online: live; live mode: the counts last reported), for
    whoever sees the tournament."""

    @extend_schema(
        parameters=[d.PageQuerySerializer],
        responses={
            200: d.paginated(d.LeaderboardRowOutputSerializer, "LeaderboardPageSerializer"),
            **refusals(400, 401, 403, 404),
        },
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        validated(d.PageQuerySerializer, request.query_params)
        rows = director_selectors.leaderboard(selectors.get_tournament(tournament_id))
        return paginate(request, self, rows, d.LeaderboardRowOutputSerializer)
