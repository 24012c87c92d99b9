"""The caller's leagues, seasons and events, scoped by club in the query itself: what
belongs to a club the caller is not in is a 404, as if it did not exist; a member acting
as a director gets a 403. Staff see and direct everything."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.utils.translation import gettext as _

from clubs.access import can_direct, is_staff, member_club_ids
from games.errors import Forbidden, NotFound
from leagues.codes import Code
from leagues.models import League, Season, SeasonEvent

DIRECTORS_ONLY = "only staff or a director of this league's club can do this"


def leagues_visible(user: Any) -> QuerySet[League]:
    leagues = League.objects.select_related("club").order_by("id")
    return leagues if is_staff(user) else leagues.filter(club_id__in=member_club_ids(user))


def _checked(obj: Any, user: Any, club_id: int, direct: bool) -> Any:
    if direct and not can_direct(user, club_id):
        raise Forbidden(DIRECTORS_ONLY, code=Code.NOT_DIRECTOR)
    return obj


def league_get(user: Any, league_id: int, *, direct: bool = False) -> League:
    league = leagues_visible(user).filter(pk=league_id).first()
    if league is None:
        raise NotFound(
            _("no league %(league_id)s in your clubs") % {"league_id": league_id},
            code=Code.NO_LEAGUE,
        )
    return _checked(league, user, league.club_id, direct)


def season_get(user: Any, season_id: int, *, direct: bool = False, lock: bool = False) -> Season:
    seasons = Season.objects.select_related("league").filter(
        league__in=leagues_visible(user), pk=season_id
    )
    season = (seasons.select_for_update(of=("self",)) if lock else seasons).first()
    if season is None:
        raise NotFound(
            _("no season %(season_id)s in your clubs") % {"season_id": season_id},
            code=Code.NO_SEASON,
        )
    return _checked(season, user, season.league.club_id, direct)


def event_get(user: Any, event_id: int, *, direct: bool = False) -> SeasonEvent:
    event = (
        SeasonEvent.objects.select_related("season__league")
        .filter(season__league__in=leagues_visible(user), pk=event_id)
        .first()
    )
    if event is None:
        raise NotFound(
            _("no season event %(event_id)s in your clubs") % {"event_id": event_id},
            code=Code.NO_EVENT,
        )
    return _checked(event, user, event.season.league.club_id, direct)
