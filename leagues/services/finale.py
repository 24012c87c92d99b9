"""The season finale: the top of the standings registered into a tournament of the club,
each with the chip bonus of their rank on top of the starting stack."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from games.errors import Conflict, Invalid, NotFound
from leagues.codes import Code
from leagues.models import Season
from leagues.selectors import finale_field
from tourney.models import Status as TournamentStatus
from tourney.models import Tournament
from tourney.services.commands.registration import entry_register


def finale_register(*, season_id: int, tournament_id: int) -> list[dict[str, object]]:
    """Register the qualifiers into ``tournament_id`` (the league's club's, still
    registering) with their chip bonus; once per season. All or nothing: a qualifier who
    cannot be registered (already in it) refuses the whole request."""
    with transaction.atomic():
        season = Season.objects.select_related("league").select_for_update(of=("self",))
        season = season.get(pk=season_id)
        if season.finale_tournament_id is not None:
            raise Conflict(
                _("the finale is tournament %(finale_tournament_id)s already")
                % {"finale_tournament_id": season.finale_tournament_id},
                code=Code.FINALE_REGISTERED,
            )
        field = finale_field(season)
        if not field:
            raise Invalid(
                _("nobody qualifies: the season has no finale_qualifiers or no standings yet"),
                code=Code.NO_QUALIFIERS,
            )
        tournament = Tournament.objects.filter(
            pk=tournament_id, club_id=season.league.club_id
        ).first()
        if tournament is None:
            raise NotFound(
                _("no tournament %(tournament_id)s of this league's club")
                % {"tournament_id": tournament_id},
                code=Code.NO_TOURNAMENT,
            )
        if tournament.status != TournamentStatus.REGISTERING:
            raise Conflict(
                _(
                    "tournament %(tournament_id)s is %(status)s: the qualifiers' stacks "
                    "are given at the draw, so register them before it starts"
                )
                % {"tournament_id": tournament_id, "status": tournament.get_status_display()},
                code=Code.STARTED,
            )
        for row in field:
            entry = entry_register(
                tournament_id=tournament.id,
                player_id=int(row["player"]),
                bonus_chips=int(row["chip_bonus"]),
            )
            row["entry"] = entry.id
            row["starting_stack"] = tournament.starting_stack + entry.bonus_chips
        season.finale_tournament = tournament
        season.save(update_fields=["finale_tournament"])
        return field
