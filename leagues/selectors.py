"""Read paths of the leagues: standings, events, player history, the finale's field.

``season_standings(season)`` is the one way to read a season's standings (the API and the
web pages both use it)."""

from __future__ import annotations

from typing import Any

from leagues.access import leagues_visible
from leagues.models import EventResult, EventStatus, Season, SeasonEvent


def season_standings(season: Season) -> list[dict[str, Any]]:
    """The standings, best first: rank, movement since the previous event (positive: up),
    player, points and the counts beside them."""
    rows = season.standings.select_related("player").order_by("rank", "player_id")
    return [
        {
            "rank": row.rank,
            "previous_rank": row.previous_rank,
            "movement": None if row.previous_rank is None else row.previous_rank - row.rank,
            "player": row.player_id,
            "name": row.player.display_name,
            "points": row.points,
            "events_played": row.events_played,
            "events_counted": row.events_counted,
            "wins": row.wins,
            "cashes": row.cashes,
            "final_tables": row.final_tables,
            "knockouts": row.knockouts,
            "best_finish": row.best_finish,
            "net_winnings": row.net_winnings,
        }
        for row in rows
    ]


def season_events(season: Season) -> list[SeasonEvent]:
    return list(season.events.select_related("tournament").order_by("played_on", "id"))


def event_results(event: SeasonEvent) -> list[dict[str, Any]]:
    return [
        {
            "player": r.player_id,
            "name": r.player.display_name,
            "place": r.place,
            "entries": r.entries,
            "rebuys": r.rebuys,
            "add_ons": r.add_ons,
            "spent": r.spent,
            "prize": r.prize,
            "bounties": r.bounties,
            "knockouts": r.knockouts,
            "points": r.points,
        }
        for r in event.results.select_related("player").order_by("place", "player_id")
    ]


def finale_field(season: Season) -> list[dict[str, Any]]:
    """The finale's qualifiers (the top ``finale_qualifiers`` of the standings; a tie at the
    cut takes everyone tied) with their chip bonus by rank."""
    if not season.finale_qualifiers:
        return []
    bonus = season.finale_chip_bonus
    qualified = season.standings.filter(rank__lte=season.finale_qualifiers)
    return [
        {
            "rank": row.rank,
            "player": row.player_id,
            "name": row.player.display_name,
            "points": row.points,
            "chip_bonus": bonus[row.rank - 1] if row.rank <= len(bonus) else 0,
        }
        for row in qualified.select_related("player").order_by("rank", "player_id")
    ]


def player_history(user: Any, player_id: int) -> list[dict[str, Any]]:
    """A player's seasons across leagues (those of the caller's clubs): their standing and
    their results event by event."""
    seasons = Season.objects.filter(league__in=leagues_visible(user)).select_related("league")
    results = (
        EventResult.objects.filter(
            player_id=player_id, event__season__in=seasons, event__status=EventStatus.ENTERED
        )
        .select_related("event__season__league")
        .order_by("event__season__starts_on", "event__played_on", "event_id")
    )
    history: dict[int, dict[str, Any]] = {}
    for result in results:
        season = result.event.season
        entry = history.setdefault(
            season.id,
            {
                "season": season.id,
                "season_name": season.name,
                "league": season.league_id,
                "league_name": season.league.name,
                "starts_on": season.starts_on,
                "standing": season.standings.filter(player_id=player_id)
                .values("rank", "points", "events_counted")
                .first(),
                "events": [],
            },
        )
        entry["events"].append(
            {
                "event": result.event_id,
                "name": result.event.name,
                "played_on": result.event.played_on,
                "place": result.place,
                "points": result.points,
                "prize": result.prize,
                "knockouts": result.knockouts,
            }
        )
    return list(history.values())
