"""League fees in the ledger: the season pot's account (``money.ledger.season_pot``, in the
league's club) takes the league fee of every entry, and gives it back when an entry is
refunded; the season's close pays it out (``leagues.services.pot``).

The fee is per entry, on top of the buy-in, as a club running a league charges it: a
player pays for each event they play (again on a re-entry), and nobody pays for a season
they do not play in.

- An online event (a tournament of the service): each registration or re-entry pays the fee
  from the player's account in the club to the pot, in the same database transaction as its
  buy-in (``tourney.signals.entry_bought``): 409 without the funds, and the entry is not
  made. Entries made before the tournament was attached pay when it is attached, all or
  nothing. Unregistering and cancelling refund it (``entries_refunded``).
- A live event (played in the club's room): the fees were collected at the door, in cash,
  so they move from the club's cash desk to the pot when its results are entered; entering
  them again for another number of players moves the difference.

``SeasonEvent.pot_contribution`` is what the event has put in the pot; ``ledger_check``
proves that the pot account holds the sum of them while the season is open, and nothing
once it is closed (``pot_claims``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from django.db.models import F, Sum
from django.utils.translation import gettext as _

from leagues.models import Season, SeasonEvent
from money.errors import InsufficientFunds
from money.ledger import AccountKey, Ref, Transfer, cash_desk, player_account, post
from money.ledger import season_pot as season_pot_account
from money.models import Reason
from money.reconciliation import Claim
from tourney.models import Entry, Tournament


def pot_account(season: Season) -> AccountKey:
    return season_pot_account(season.id, season.league.club_id)


def _contribute(event: SeasonEvent, amount: int) -> None:
    SeasonEvent.objects.filter(pk=event.pk).update(pot_contribution=F("pot_contribution") + amount)
    event.pot_contribution += amount


def event_fees_charge(event: SeasonEvent, entries: Sequence[Entry]) -> None:
    """Each entry's player pays the league fee into the pot (the tournament is locked by the
    caller); 409 naming the player if one cannot, and nothing is paid."""
    season = event.season
    fee = season.league_fee
    if not fee or not entries:
        return
    club, pot = season.league.club_id, pot_account(season)
    try:
        post(
            [Transfer(player_account(e.player_id, club), pot, fee) for e in entries],
            reason=Reason.LEAGUE_FEE,
            ref=Ref("season_event", event.id),
            memo=f"league fee of {season}",
        )
    except InsufficientFunds as error:
        raise InsufficientFunds(
            _("the league fee of %(fee)s for %(season)s: %(message)s")
            % {"fee": fee, "season": season, "message": error.message},
            detail=error.detail,
        ) from error
    _contribute(event, fee * len(entries))


def _event_of(tournament: Tournament) -> SeasonEvent | None:
    return (
        SeasonEvent.objects.select_related("season__league").filter(tournament=tournament).first()
    )


def tournament_fees_charge(tournament: Tournament, entries: Sequence[Entry]) -> None:
    """New entries of a tournament that is a season's event pay its league fee."""
    event = _event_of(tournament)
    if event is not None:
        event_fees_charge(event, entries)


def tournament_fees_refund(tournament: Tournament, entries: Sequence[Entry]) -> None:
    """Refunded entries of a season's tournament get its league fee back from the pot."""
    event = _event_of(tournament)
    if event is None or not event.season.league_fee:
        return
    season = event.season
    club = season.league.club_id
    fee = season.league_fee
    post(
        [Transfer(pot_account(season), player_account(e.player_id, club), fee) for e in entries],
        reason=Reason.REFUND,
        ref=Ref("season_event", event.id),
        memo=f"league fee of {season} refunded",
    )
    _contribute(event, -fee * len(entries))


def live_fees_collect(season: Season, event: SeasonEvent, entries: int) -> None:
    """A live event's league fees, collected at the door: the club's cash desk pays the pot
    what ``entries`` players paid, less what the event put in already (a correction may
    give some back)."""
    club = season.league.club_id
    owed = season.league_fee * entries - event.pot_contribution
    pot, desk = pot_account(season), cash_desk(club)
    post(
        [Transfer(desk, pot, owed)] if owed >= 0 else [Transfer(pot, desk, -owed)],
        reason=Reason.LEAGUE_FEE if owed >= 0 else Reason.REFUND,
        ref=Ref("season_event", event.id),
        memo=f"league fees of {season}, collected at the door",
    )
    _contribute(event, owed)


def pot_claims() -> Iterable[Claim]:
    """For ``ledger_check``: an open season's pot account holds what its events put in; a
    closed season's holds nothing (all paid out)."""
    seasons = Season.objects.select_related("league").annotate(
        collected=Sum("events__pot_contribution")
    )
    for season in seasons.order_by("id"):
        closed = season.closed_at is not None
        yield Claim(
            f"season {season.id} ({'closed' if closed else 'open'}): pot",
            0 if closed else season.collected or 0,
            account=pot_account(season),
        )
