"""The season pot: the league fee of every entry (``leagues.services.fees``), paid at the
end of the season to the top of the standings by the season's payout table, through the
ledger, exactly once.

The odd-units rule: each rank's share of the pot is rounded down to a whole unit and what
is left over goes to rank 1; players sharing a rank share the prizes of the ranks they
occupy equally, the odd units one each in standings order (player id within the rank);
fewer players than paid ranks: the ranks nobody holds go to rank 1. A season without a
payout table pays the whole pot to rank 1. The amounts sum exactly to the pot.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import Sum
from django.utils import timezone
from django.utils.translation import gettext as _

from games.errors import Conflict
from integrations.webhooks.outbox import event_emit
from leagues.codes import Code
from leagues.models import EventStatus, Season
from leagues.services.fees import pot_account
from money.ledger import Ref, Transfer, player_account, post
from money.models import Reason
from tourney.models import Status as TournamentStatus
from tourney.planning.payouts import payouts, shared_prizes

WINNER_TAKES_ALL = ["100"]


def season_pot(season: Season) -> int:
    """The league fees the season's events have put in the pot."""
    return season.events.aggregate(pot=Sum("pot_contribution"))["pot"] or 0


def pot_payouts(season: Season) -> list[dict[str, int]]:
    """Each paid player's share of the pot by the current standings (the odd-units rule
    above). Sums exactly to the pot."""
    pot = season_pot(season)
    if pot == 0:
        return []
    prizes = payouts(pot, season.pot_payout or WINNER_TAKES_ALL)
    rows = list(season.standings.order_by("rank", "player_id").values_list("rank", "player_id"))
    if not rows:
        return []
    paid: list[dict[str, int]] = []
    index = 0
    while index < len(rows) and index < len(prizes):
        rank = rows[index][0]
        tied = [player for r, player in rows if r == rank]
        amounts = [prizes[i] if i < len(prizes) else 0 for i in range(index, index + len(tied))]
        for player, amount in shared_prizes(amounts, tied).items():
            paid.append({"rank": rank, "player": player, "amount": amount})
        index += len(tied)
    if len(rows) < len(prizes):  # fewer players than paid ranks: the rest to the first
        paid[0]["amount"] += sum(prizes[len(rows) :])
    return paid


def _pay(season: Season, paid: list[dict[str, int]]) -> None:
    """Move each share from the pot to the player's account in the league's club."""
    club = season.league.club_id
    pot = pot_account(season)
    post(
        [Transfer(pot, player_account(row["player"], club), row["amount"]) for row in paid],
        reason=Reason.SEASON_PAYOUT,
        ref=Ref("season", season.id),
        memo=f"season pot of {season}",
    )
    event_emit(
        "payout",
        {"season": season.id, "league": season.league_id, "pot": season_pot(season), "paid": paid},
        club_id=club,
    )


def season_close(*, season_id: int) -> Season:
    """Close the season (a director, after its last event): the pot is paid by the
    standings as they are, and the season takes no more events. Once: the payout commits
    with ``closed_at`` under the season's lock, and a second close is a 409. Refused (409)
    while a tournament attached to it has not finished; one that was cancelled (its fees
    refunded) is dropped."""
    with transaction.atomic():
        season = Season.objects.select_related("league").select_for_update(of=("self",))
        season = season.get(pk=season_id)
        if season.closed_at is not None:
            raise Conflict(
                _("season %(season_id)s is already closed") % {"season_id": season_id},
                code=Code.SEASON_CLOSED,
            )
        waiting = season.events.filter(status=EventStatus.WAITING)
        # a cancelled tournament never happened: its event goes
        waiting.filter(tournament__status=TournamentStatus.CANCELLED).delete()
        waiting = list(waiting.values_list("id", flat=True))
        if waiting:
            raise Conflict(
                _(
                    "events %(names)s still wait for their tournaments: close the season "
                    "once they have finished (or cancel those tournaments)"
                )
                % {"names": ", ".join(map(str, waiting))},
                code=Code.EVENTS_WAITING,
                detail={"events": waiting},
            )
        season.pot_payouts = pot_payouts(season)
        _pay(season, season.pot_payouts)
        season.closed_at = timezone.now()
        season.save(update_fields=["pot_payouts", "closed_at"])
        return season
