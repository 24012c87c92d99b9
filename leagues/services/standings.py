"""Keeping a season's standings: incrementally when an event is entered after the others,
from scratch (``season_recompute``) when one is entered out of date order or corrected.
Both must give the same rows (tests compare them); the standings are derived data."""

from __future__ import annotations

from decimal import Decimal

from integrations.webhooks.outbox import event_emit
from leagues import standings as pure
from leagues.models import EventResult, EventStatus, Season, SeasonEvent, Standing


def event_order(season: Season) -> list[int]:
    """The season's entered events, oldest first (by date, then by when entered)."""
    return list(
        season.events.filter(status=EventStatus.ENTERED)
        .order_by("played_on", "id")
        .values_list("id", flat=True)
    )


def season_results(season: Season) -> list[pure.Result]:
    """Every result of the season's entered events, as the pure standings take them."""
    rows = EventResult.objects.filter(
        event__season=season, event__status=EventStatus.ENTERED
    ).values_list(
        "event_id", "player_id", "place", "points", "knockouts", "prize", "bounties", "spent"
    )
    size = season.final_table_size
    return [
        pure.Result(
            event=event,
            player=player,
            place=place,
            total=points,
            knockouts=knockouts,
            prize=prize,
            bounties=bounties,
            spent=spent,
            final_table=place <= size,
        )
        for event, player, place, points, knockouts, prize, bounties, spent in rows
    ]


def _row(season: Season, standing: pure.Standing) -> Standing:
    line = standing.line
    return Standing(
        season=season,
        player_id=line.player,
        rank=standing.rank,
        previous_rank=standing.previous_rank,
        points=line.points,
        events_played=line.events_played,
        events_counted=line.events_counted,
        wins=line.wins,
        cashes=line.cashes,
        final_tables=line.final_tables,
        knockouts=line.knockouts,
        best_finish=line.best_finish or 0,
        net_winnings=line.net_winnings,
        totals=[str(total) for total in line.totals],
    )


def _line(row: Standing) -> pure.Line:
    return pure.Line(
        player=row.player_id,
        points=row.points,
        events_played=row.events_played,
        events_counted=row.events_counted,
        wins=row.wins,
        cashes=row.cashes,
        final_tables=row.final_tables,
        knockouts=row.knockouts,
        best_finish=row.best_finish,
        net_winnings=row.net_winnings,
        totals=tuple(Decimal(total) for total in row.totals),
    )


def season_recompute(season: Season) -> None:
    """Rebuild the season's standings from its results (the season row is locked)."""
    rows = pure.standings(
        season_results(season), event_order(season), season.best_of, season.tie_breaks
    )
    _rows_write(season, rows)


def _rows_write(season: Season, rows: list[pure.Standing]) -> None:
    """Replace the season's rows (every rank may move: a rewrite in two statements is
    cheaper than updating each row)."""
    Standing.objects.filter(season=season).delete()
    written = Standing.objects.bulk_create([_row(season, standing) for standing in rows])
    top = sorted(written, key=lambda row: (row.rank, row.player_id))[:20]
    event_emit(
        "standings.updated",
        {
            "season": season.id,
            "league": season.league_id,
            "top": [{"rank": row.rank, "player": row.player_id} for row in top],
        },
        club_id=season.league.club_id,
    )


def standings_event_entered(season: Season, event: SeasonEvent) -> None:
    """Fold a newly entered event into the standings: incrementally if it is the latest
    of the season (only its players' lines change, then everyone is ranked anew, the old
    ranks becoming the previous ones); from scratch otherwise."""
    if event_order(season)[-1] != event.id:
        season_recompute(season)
        return
    rows = {row.player_id: row for row in Standing.objects.filter(season=season)}
    previous = {player: row.rank for player, row in rows.items()}
    lines = {player: _line(row) for player, row in rows.items()}
    size = season.final_table_size
    for result in event.results.all():
        line = lines.get(result.player_id) or pure.Line(player=result.player_id)
        lines[result.player_id] = pure.line_add(
            line,
            pure.Result(
                event=event.id,
                player=result.player_id,
                place=result.place,
                total=result.points,
                knockouts=result.knockouts,
                prize=result.prize,
                bounties=result.bounties,
                spent=result.spent,
                final_table=result.place <= size,
            ),
            season.best_of,
        )
    ranked = [
        pure.Standing(rank, previous.get(line.player), line)
        for rank, line in pure.ranks(lines.values(), season.tie_breaks)
    ]
    _rows_write(season, ranked)
