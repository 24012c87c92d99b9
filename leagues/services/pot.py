"""The season pot: the league fee of every entry, paid at the end of the season to the
top of the standings by the season's payout table, summing exactly to the pot."""

from __future__ import annotations

from django.db import transaction
from django.db.models import Sum
from django.utils import timezone

from games.errors import Conflict
from leagues.codes import Code
from leagues.models import EventStatus, Season
from tourney.models import Status as TournamentStatus
from tourney.planning.payouts import payouts, shared_prizes


def season_pot(season: Season) -> int:
    """The league fees of every event entered so far."""
    return season.events.aggregate(pot=Sum("pot_contribution"))["pot"] or 0


def pot_payouts(season: Season) -> list[dict[str, object]]:
    """Each paid player's share of the pot by the current standings: the prizes of the
    payout table by rank; players sharing a rank share the prizes of the ranks they
    occupy equally (odd units one each in standings order). Sums exactly to the pot."""
    pot = season_pot(season)
    if not season.pot_payout or pot == 0:
        return []
    prizes = payouts(pot, season.pot_payout)
    rows = list(season.standings.order_by("rank", "player_id").values_list("rank", "player_id"))
    if not rows:
        return []
    paid: list[dict[str, object]] = []
    index = 0
    while index < len(rows) and index < len(prizes):
        rank = rows[index][0]
        tied = [player for r, player in rows if r == rank]
        amounts = [prizes[i] if i < len(prizes) else 0 for i in range(index, index + len(tied))]
        for player, amount in shared_prizes(amounts, tied).items():
            paid.append({"rank": rank, "player": player, "amount": amount})
        index += len(tied)
    if len(rows) < len(prizes):  # fewer players than paid ranks: the rest to the first
        paid[0]["amount"] = int(str(paid[0]["amount"])) + sum(prizes[len(rows) :])
    return paid


def season_close(*, season_id: int) -> Season:
    """Close the season (a director, after its last event): the pot is paid by the
    standings as they are, and the season takes no more events. Refused (409) while a
    tournament attached to it has not finished; one that was cancelled is dropped."""
    with transaction.atomic():
        season = Season.objects.select_for_update().get(pk=season_id)
        if season.closed_at is not None:
            raise Conflict(f"season {season_id} is already closed", code=Code.SEASON_CLOSED)
        waiting = season.events.filter(status=EventStatus.WAITING)
        # a cancelled tournament never happened: its event goes
        waiting.filter(tournament__status=TournamentStatus.CANCELLED).delete()
        waiting = list(waiting.values_list("id", flat=True))
        if waiting:
            raise Conflict(
                f"events {', '.join(map(str, waiting))} still wait for their tournaments: close "
                "the season once they have finished (or cancel those tournaments)",
                code=Code.EVENTS_WAITING,
                detail={"events": waiting},
            )
        season.pot_payouts = pot_payouts(season)
        season.closed_at = timezone.now()
        season.save(update_fields=["pot_payouts", "closed_at"])
        return season
