"""A season's events and their results.

An online event is a tournament of the season's club: attached before or after it
finishes, its results enter by themselves when it does (``tournament_results_enter``, run
after tourney's ``tournament_finished`` signal). A live event's finishing order is entered
by a director, and may be entered again to correct it. Every change of results updates the
standings (``leagues.services.standings``) in the same transaction.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.errors import Conflict, Invalid, NotFound
from games.models import Player
from games.selectors import club_non_members
from leagues.codes import Code
from leagues.formulas import Finish, FormulaError, formula_points, points_round
from leagues.models import EventKind, EventResult, EventStatus, Season, SeasonEvent
from leagues.services.fees import event_fees_charge, live_fees_collect
from leagues.services.standings import season_recompute, standings_event_entered
from tourney.models import PAID, EntryStatus, Tournament
from tourney.models import Status as TournamentStatus
from tourney.plan_messages import plan_message
from tourney.selectors import prizes_by_place
from tourney.services.commands.setup import entry_paid

logger = logging.getLogger(__name__)


@dataclass
class Row:
    """One player's result before it is saved."""

    player: int
    place: int
    entries: int = 1
    rebuys: int = 0
    add_ons: int = 0
    spent: int = 0
    prize: int = 0
    bounties: int = 0
    knockouts: Decimal = field(default_factory=Decimal)


@dataclass
class Field:
    """What the formulas need of the whole event."""

    entries: int
    buy_in: int
    prize_pool: int
    paid_places: int


def _open(season: Season) -> None:
    if season.closed_at is not None:
        raise Conflict(
            _("season %(id)s is closed (its pot was paid): it takes no more events")
            % {"id": season.id},
            code=Code.SEASON_CLOSED,
        )


def _in_season(season: Season, played_on: date) -> None:
    if not season.starts_on <= played_on <= season.ends_on:
        raise Invalid(
            _("%(played_on)s is outside the season (%(starts_on)s to %(ends_on)s)")
            % {"played_on": played_on, "starts_on": season.starts_on, "ends_on": season.ends_on},
            code=Code.EVENT_DATE,
        )


def _points(season: Season, event_field: Field, row: Row) -> Decimal:
    finish = Finish(
        n=event_field.entries,
        k=row.place,
        b=event_field.buy_in,
        e=row.spent,
        prize=row.prize,
        prize_pool=event_field.prize_pool,
        paid_places=event_field.paid_places,
        knockouts=row.knockouts,
        rebuys=row.rebuys,
        add_ons=row.add_ons,
    )
    try:
        raw = formula_points(season.formula, season.formula_params, finish)
    except FormulaError as error:
        raise Invalid(
            _("the season's formula fails: %(error)s") % {"error": plan_message(error)},
            code=Code.FORMULA,
        ) from error
    raw += season.participation_points + season.knockout_points * row.knockouts
    return points_round(raw, season.decimals)


def _results_write(season: Season, event: SeasonEvent, event_field: Field, rows: list[Row]) -> None:
    """Replace the event's results and update the standings (season locked by the caller)."""
    corrected = event.status == EventStatus.ENTERED
    event.entries = event_field.entries
    event.buy_in = event_field.buy_in
    event.prize_pool = event_field.prize_pool
    event.paid_places = event_field.paid_places
    if event.kind == EventKind.LIVE:  # an online event's entries paid their fees themselves
        live_fees_collect(season, event, event_field.entries)
    event.status = EventStatus.ENTERED
    event.error = ""
    event.entered_at = timezone.now()
    results = [
        EventResult(
            event=event,
            player_id=row.player,
            place=row.place,
            entries=row.entries,
            rebuys=row.rebuys,
            add_ons=row.add_ons,
            spent=row.spent,
            prize=row.prize,
            bounties=row.bounties,
            knockouts=row.knockouts,
            points=_points(season, event_field, row),
        )
        for row in rows
    ]
    event.save()
    event.results.all().delete()
    EventResult.objects.bulk_create(results)
    if corrected:
        season_recompute(season)
    else:
        standings_event_entered(season, event)


# ---------------------------------------------------------------- tournaments of the service


def _tournament_results(tournament: Tournament) -> tuple[Field, list[Row]]:
    """A finished tournament's field and one row per player (a player who re-entered has
    their best place, and the sums of what all their entries spent and won)."""
    entries = list(
        tournament.entries.filter(status__in=[EntryStatus.ELIMINATED, EntryStatus.WINNER])
    )
    rows: dict[int, Row] = {}
    for entry in entries:
        place = entry.place or len(entries)  # every entry of a finished tournament has one
        row = rows.setdefault(entry.player_id, Row(player=entry.player_id, place=place, entries=0))
        row.place = min(row.place, place)
        row.entries += 1
        row.rebuys += entry.rebuys
        row.add_ons += entry.add_ons
        row.spent += entry_paid(tournament, entry)
        row.prize += entry.prize
        row.bounties += entry.bounty_won
        row.knockouts += entry.knockouts
    event_field = Field(
        entries=len(entries),
        buy_in=tournament.buy_in,
        prize_pool=tournament.prize_pool,
        paid_places=len(prizes_by_place(tournament)),
    )
    return event_field, sorted(rows.values(), key=lambda row: (row.place, row.player))


def event_attach_tournament(
    *, season: Season, tournament_id: int, played_on: date | None = None
) -> SeasonEvent:
    """Attach a tournament of the season's club (the season is locked by the caller): its
    entries so far pay the league fee (all or nothing), later ones pay as they enter; if it
    has finished already, its results enter at once."""
    _open(season)
    with transaction.atomic():
        tournament = (
            Tournament.objects.select_for_update()
            .filter(pk=tournament_id, club_id=season.league.club_id)
            .first()
        )
        if tournament is None:
            raise NotFound(
                _(
                    "no tournament %(tournament_id)s of this league's club: give the "
                    "tournament to the club first (club_id)"
                )
                % {"tournament_id": tournament_id},
                code=Code.NO_TOURNAMENT,
            )
        if tournament.status == TournamentStatus.CANCELLED:
            raise Invalid(
                _("tournament %(tournament_id)s was cancelled") % {"tournament_id": tournament_id},
                code=Code.CANCELLED,
            )
        attached = SeasonEvent.objects.filter(tournament=tournament).first()
        if attached is not None:
            raise Conflict(
                _(
                    "tournament %(tournament_id)s is already event %(id)s of season "
                    "%(season_id)s: a tournament counts in one season, once"
                )
                % {
                    "tournament_id": tournament_id,
                    "id": attached.id,
                    "season_id": attached.season_id,
                },
                code=Code.ALREADY_ATTACHED,
            )
        started = tournament.started_at or tournament.scheduled_start or timezone.now()
        played = played_on or timezone.localdate(started)
        _in_season(season, played)
        event = SeasonEvent.objects.create(
            season=season,
            kind=EventKind.ONLINE,
            status=EventStatus.WAITING,
            tournament=tournament,
            name=tournament.name,
            played_on=played,
        )
        event_fees_charge(event, list(tournament.entries.filter(status__in=PAID).order_by("id")))
        if tournament.status == TournamentStatus.FINISHED:
            _results_write(season, event, *_tournament_results(tournament))
        return event


def event_refresh(*, event: SeasonEvent) -> SeasonEvent:
    """Read a finished tournament's results again (a result fixed in the tournament) and
    recompute the season."""
    with transaction.atomic():
        season = Season.objects.select_for_update().get(pk=event.season_id)
        _open(season)
        event = SeasonEvent.objects.select_related("tournament").get(pk=event.pk)
        if event.tournament is None:
            raise Invalid(
                _("a live event has no tournament to read: enter its results again"),
                code=Code.LIVE_EVENT,
            )
        if event.tournament.status != TournamentStatus.FINISHED:
            raise Conflict(
                _(
                    "tournament %(tournament_id)s is %(status)s: its results enter by "
                    "themselves when it finishes"
                )
                % {"tournament_id": event.tournament_id, "status": event.tournament.status},
                code=Code.NOT_FINISHED,
            )
        _results_write(season, event, *_tournament_results(event.tournament))
        return event


def tournament_results_enter(tournament_id: int) -> SeasonEvent | None:
    """Enter the results of a tournament that just finished into its season, if it is
    attached to one and waits (safe to run twice). A failure is kept on the event for its
    director to see, and the tournament's finish stands."""
    with transaction.atomic():
        waiting = SeasonEvent.objects.filter(
            tournament_id=tournament_id, status=EventStatus.WAITING
        ).first()
        if waiting is None:
            return None
        season = Season.objects.select_related("league").select_for_update(of=("self",))
        season = season.get(pk=waiting.season_id)
        event = SeasonEvent.objects.select_related("tournament").get(pk=waiting.pk)
        if event.status != EventStatus.WAITING or event.tournament is None:
            return None
        try:
            with transaction.atomic():
                _open(season)
                _results_write(season, event, *_tournament_results(event.tournament))
        except (Invalid, Conflict) as error:
            logger.error("season event %s: results not entered: %s", event.id, error.message)
            SeasonEvent.objects.filter(pk=event.pk).update(error=error.message[:300])
            return None
        return event


# ------------------------------------------------------------------------------ live events


def _live_rows(results: list[dict[str, Any]], prices: dict[str, int], club_id: int) -> list[Row]:
    """Check a live event's finishing order: every place 1..N once, every player once,
    every player known and a member of the league's club ``club_id`` (400 naming what is
    wrong)."""
    if not results:
        raise Invalid(_("a live event needs its results: one row per player"), code=Code.NO_RESULTS)
    places = [r["place"] for r in results]
    players = [r["player"] for r in results]
    twice = sorted({p for p in places if places.count(p) > 1})
    if twice:
        raise Invalid(
            _("place %(value)s is given twice: each place 1..%(count)s once")
            % {"value": twice[0], "count": len(results)},
            code=Code.PLACE_TWICE,
            detail={"places": twice},
        )
    missing = sorted(set(range(1, len(results) + 1)) - set(places))
    if missing:
        raise Invalid(
            _(
                "the places have a gap (no place %(value)s): %(count)s players take "
                "places 1..%(count)s"
            )
            % {"value": missing[0], "count": len(results)},
            code=Code.PLACE_GAP,
            detail={"missing": missing},
        )
    repeated = sorted({p for p in players if players.count(p) > 1})
    if repeated:
        raise Invalid(
            _("player %(value)s has two results: one row per player") % {"value": repeated[0]},
            code=Code.PLAYER_TWICE,
            detail={"players": repeated},
        )
    known = set(Player.objects.filter(pk__in=players).values_list("id", flat=True))
    unknown = sorted(set(players) - known)
    if unknown:
        raise Invalid(
            _("no player %(value)s: create the player first (POST /api/v1/players/)")
            % {"value": unknown[0]},
            code=Code.UNKNOWN_PLAYER,
            detail={"players": unknown},
        )
    outside = club_non_members(club_id, players)
    if outside:
        raise Invalid(
            _(
                "player %(value)s is not a member of the league's club: add them to "
                "the club first (POST /api/v1/clubs/{id}/members/)"
            )
            % {"value": outside[0]},
            code=Code.NOT_A_MEMBER,
            detail={"players": outside},
        )
    rows = []
    for r in results:
        rebuys, add_ons = r.get("rebuys", 0), r.get("add_ons", 0)
        rows.append(
            Row(
                player=r["player"],
                place=r["place"],
                rebuys=rebuys,
                add_ons=add_ons,
                spent=prices["buy_in"]
                + rebuys * prices["rebuy_price"]
                + add_ons * prices["add_on_price"],
                prize=r.get("prize", 0),
                bounties=r.get("bounties", 0),
                knockouts=Decimal(r.get("knockouts", 0)),
            )
        )
    knockouts = sum(row.knockouts for row in rows)
    if knockouts > len(rows) - 1:
        raise Invalid(
            _(
                "%(normalize)s knockouts in a field of %(count)s: everyone but the "
                "winner is knocked out once, so at most %(number)s in all"
            )
            % {
                "normalize": format(knockouts.normalize(), "f"),
                "count": len(rows),
                "number": len(rows) - 1,
            },
            code=Code.KNOCKOUTS,
        )
    return sorted(rows, key=lambda row: row.place)


def _live_field(rows: list[Row], buy_in: int) -> Field:
    return Field(
        entries=len(rows),
        buy_in=buy_in,
        prize_pool=sum(row.prize for row in rows),
        paid_places=sum(1 for row in rows if row.prize > 0),
    )


def event_enter_live(
    *,
    season: Season,
    name: str,
    played_on: date,
    results: list[dict[str, Any]],
    buy_in: int = 0,
    rebuy_price: int = 0,
    add_on_price: int = 0,
) -> SeasonEvent:
    """A live event and its finishing order (the season is locked by the caller)."""
    _open(season)
    _in_season(season, played_on)
    prices = {"buy_in": buy_in, "rebuy_price": rebuy_price, "add_on_price": add_on_price}
    rows = _live_rows(results, prices, season.league.club_id)
    event = SeasonEvent.objects.create(
        season=season,
        kind=EventKind.LIVE,
        status=EventStatus.WAITING,
        name=name,
        played_on=played_on,
        buy_in=buy_in,
    )
    _results_write(season, event, _live_field(rows, buy_in), rows)
    return event


def event_results_replace(
    *,
    event: SeasonEvent,
    results: list[dict[str, Any]],
    buy_in: int = 0,
    rebuy_price: int = 0,
    add_on_price: int = 0,
) -> SeasonEvent:
    """Enter a live event's results again (a correction); the season is recomputed."""
    with transaction.atomic():
        season = Season.objects.select_related("league").select_for_update(of=("self",))
        season = season.get(pk=event.season_id)
        _open(season)
        event = SeasonEvent.objects.get(pk=event.pk)
        if event.kind != EventKind.LIVE:
            raise Invalid(
                _("an online event's results come from its tournament: refresh it instead"),
                code=Code.ONLINE_EVENT,
            )
        prices = {"buy_in": buy_in, "rebuy_price": rebuy_price, "add_on_price": add_on_price}
        rows = _live_rows(results, prices, season.league.club_id)
        _results_write(season, event, _live_field(rows, buy_in), rows)
        return event
