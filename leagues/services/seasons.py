"""Creating leagues and seasons; a season's settings are checked before anything is saved."""

from __future__ import annotations

from datetime import date
from itertools import pairwise
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from clubs.access import can_direct
from clubs.models import Club
from games.errors import Conflict, Forbidden, Invalid, NotFound
from leagues.codes import Code
from leagues.formulas import Finish, FormulaError, formula_check, formula_points, points_round
from leagues.models import League, Season
from leagues.standings import TIE_BREAKS
from tourney.plan_messages import plan_message
from tourney.planning.payouts import structure_from_percentages


def league_create(*, user: Any, club_id: int, name: str) -> League:
    """A league of club ``club_id`` (staff, or a director of that club)."""
    if not can_direct(user, club_id):
        raise Forbidden(
            _(
                "you can create a league only in a club you direct: name one of your "
                "clubs (GET /api/v1/clubs/)"
            ),
            code=Code.NOT_DIRECTOR,
        )
    if not Club.objects.filter(pk=club_id).exists():
        raise NotFound(_("no club %(club_id)s") % {"club_id": club_id}, code=Code.NO_CLUB)
    if League.objects.filter(club_id=club_id, name=name).exists():
        raise Conflict(
            _("the club has a league named %(name)s already") % {"name": repr(name)},
            code=Code.NAME_TAKEN,
        )
    return League.objects.create(club_id=club_id, name=name)


def _check_dates(league: League, starts_on: date, ends_on: date) -> None:
    if ends_on < starts_on:
        raise Invalid(
            _("the season ends (%(ends_on)s) before it starts (%(starts_on)s)")
            % {"ends_on": ends_on, "starts_on": starts_on},
            code=Code.SEASON_DATES,
        )
    overlapping = league.seasons.filter(starts_on__lte=ends_on, ends_on__gte=starts_on).first()
    if overlapping is not None:
        raise Invalid(
            _(
                "the dates overlap season %(id)s (%(name)s, %(starts_on)s to "
                "%(ends_on)s): a league plays one season at a time"
            )
            % {
                "id": overlapping.id,
                "name": overlapping.name,
                "starts_on": overlapping.starts_on,
                "ends_on": overlapping.ends_on,
            },
            code=Code.SEASON_OVERLAP,
        )


def _check_counting(settings: dict[str, Any]) -> None:
    planned, best_of = settings.get("events_planned"), settings.get("best_of")
    if best_of is not None and planned is not None and best_of > planned:
        raise Invalid(
            _(
                "best_of %(best_of)s is more than the %(planned)s events planned: "
                "count at most %(planned)s (or leave best_of out to count all)"
            )
            % {"best_of": best_of, "planned": planned},
            code=Code.BEST_OF,
        )
    tie_breaks = settings.get("tie_breaks")
    if tie_breaks is not None:
        unknown = [name for name in tie_breaks if name not in TIE_BREAKS]
        if unknown or len(set(tie_breaks)) != len(tie_breaks):
            raise Invalid(
                _("tie_breaks are distinct names among %(TIE_BREAKS)s")
                % {"TIE_BREAKS": ", ".join(TIE_BREAKS)},
                code=Code.TIE_BREAKS,
                detail={"unknown": unknown},
            )


def _check_pot_and_finale(settings: dict[str, Any]) -> None:
    payout = settings.get("pot_payout") or []
    if payout:
        try:
            structure_from_percentages(payout)
        except (TypeError, ValueError) as error:
            raise Invalid(
                _("pot_payout: %(error)s") % {"error": error}, code=Code.POT_PAYOUT
            ) from error
    bonus = settings.get("finale_chip_bonus") or []
    qualifiers = settings.get("finale_qualifiers", 0)
    if len(bonus) > qualifiers:
        raise Invalid(
            _("a chip bonus for %(count)s ranks but only %(qualifiers)s finale qualifiers")
            % {"count": len(bonus), "qualifiers": qualifiers},
            code=Code.FINALE_CHIP_BONUS,
        )
    if any(a < b for a, b in pairwise(bonus)):
        raise Invalid(
            _("the chip bonus never grows with a worse rank"), code=Code.FINALE_CHIP_BONUS
        )


def formula_normalised(formula: str, params: dict[str, Any] | None) -> dict[str, Any]:
    """The formula's parameters checked (400 saying what to fix)."""
    try:
        return formula_check(formula, params)
    except FormulaError as error:
        raise Invalid(plan_message(error), code=Code.FORMULA) from error


def season_create(*, league: League, **settings: Any) -> Season:
    """A season of ``league`` (the caller directs it: checked by the caller)."""
    settings["formula_params"] = formula_normalised(
        settings["formula"], settings.get("formula_params")
    )
    _check_counting(settings)
    _check_pot_and_finale(settings)
    with transaction.atomic():
        League.objects.select_for_update().get(pk=league.pk)  # one season created at a time
        _check_dates(league, settings["starts_on"], settings["ends_on"])
        return Season.objects.create(league=league, **settings)


def points_preview(
    *, formula: str, formula_params: dict[str, Any] | None, n: int, b: int, decimals: int
) -> list[dict[str, Any]]:
    """The points ``formula`` gives every place of a field of ``n`` with buy-in ``b``, each
    player spending the buy-in (the API's preview and the desk's)."""
    params = formula_normalised(formula, formula_params)
    try:
        return [
            {
                "place": k,
                "points": points_round(
                    formula_points(formula, params, Finish(n=n, k=k, b=b, e=b)), decimals
                ),
            }
            for k in range(1, n + 1)
        ]
    except FormulaError as error:
        raise Invalid(plan_message(error), code=Code.FORMULA) from error
