"""Deals: quotes (ICM, chip-chop) on the chips of the players left, and recording one."""

from __future__ import annotations

from django.db import transaction
from django.db.models import OuterRef, Subquery
from django.db.models.functions import Coalesce
from django.utils.translation import gettext

from games.errors import Conflict, Invalid
from games.models import Seat
from tourney.codes import Code
from tourney.models import Entry, EntryStatus, Status, Tournament
from tourney.planning.icm import MAX_ICM_PLAYERS, chip_chop, icm, next_payout
from tourney.selectors import prizes_by_place
from tourney.services.steps.breaks import hands_running
from tourney.services.steps.locks import open_tables_for_update, tournament_for_update
from tourney.services.steps.log import event_append
from tourney.windows import windows_open


def _left(tournament: Tournament) -> list[tuple[Entry, int]]:
    """The entries still playing with their chips, read in one query (one snapshot: an
    update committing meanwhile is seen whole or not at all)."""
    stack = Seat.objects.filter(
        table__tournament_table__tournament=tournament, player_id=OuterRef("player_id")
    ).values("stack")[:1]
    entries = (
        tournament.entries.filter(status=EntryStatus.PLAYING)
        .annotate(chips=Coalesce(Subquery(stack), 0))
        .order_by("id")
    )
    return [(entry, entry.chips) for entry in entries]


def _with_chips(left: list[tuple[Entry, int]]) -> list[tuple[Entry, int]]:
    """The players left once the pending update is in: a player still ``playing`` with no
    chips busted on a hand the tournament has not looked at yet (it soon will)."""
    return [(entry, chips) for entry, chips in left if chips > 0]


def _pending_busts_check(left: list[tuple[Entry, int]]) -> None:
    """Refuse (409) while a bust waits for the tournament's update."""
    busted = [entry.id for entry, chips in left if chips == 0]
    if busted:
        raise Conflict(
            gettext(
                "entries %(busted)s have no chips left and their elimination is being "
                "recorded: ask again in a moment (the tournament updates within a few "
                "seconds)"
            )
            % {"busted": busted},
            code=Code.UPDATE_PENDING,
            detail={"entries": busted},
        )


def _hands_check(tournament: Tournament) -> None:
    """Refuse (409) while a hand is in progress at one of an online tournament's tables: its
    pot is in nobody's stack, so the chip counts a deal is made on are not whole."""
    tables = hands_running(tournament)
    if tables:
        raise Conflict(
            gettext(
                "tables in a hand: %(names)s; the chips in their pots are in nobody's "
                "stack: pause the tournament and wait for the hands to end"
            )
            % {"names": ", ".join(map(str, tables))},
            code=Code.HANDS_RUNNING,
        )


def deal_quote(*, tournament: Tournament, method: str) -> list[dict[str, int]]:
    """What an ICM or chip-chop deal gives each player left: the prizes still to be won
    (places 1..players left) shared by the method, each player first locked in at the next
    payout (``guaranteed``: what the next player out would win). A bust the tournament has
    not recorded yet is counted as recorded (the busted player is out), so a quote never
    waits on the update; while a hand is in progress it is a 409 (its pot is in nobody's stack)."""
    if method not in ("icm", "chip_chop"):
        raise Invalid(
            gettext("unknown deal method %(method)s: use icm or chip_chop")
            % {"method": repr(method)},
            code=Code.METHOD,
        )
    _hands_check(tournament)
    left = _with_chips(_left(tournament))
    if len(left) < 2:
        raise Conflict(gettext("a deal needs at least two players left"), code=Code.NO_DEAL)
    prizes = prizes_by_place(tournament)[: len(left)]
    stacks = [chips for _, chips in left]
    if method == "icm":
        if len(left) > MAX_ICM_PLAYERS:
            raise Invalid(
                gettext("ICM is exact for at most %(MAX_ICM_PLAYERS)s players")
                % {"MAX_ICM_PLAYERS": MAX_ICM_PLAYERS},
                code=Code.TOO_MANY,
            )
        amounts = icm(stacks, prizes, tournament.chip_unit)
    else:
        amounts = chip_chop(stacks, prizes, tournament.chip_unit)
    guaranteed = next_payout(stacks, prizes)
    return [
        {
            "entry": entry.id,
            "player": entry.player_id,
            "chips": chips,
            "amount": amount,
            "guaranteed": guaranteed,
        }
        for (entry, chips), amount in zip(left, amounts, strict=True)
    ]


def deal_record(
    *, tournament_id: int, amounts: dict[int, int], method: str = "custom"
) -> Tournament:
    """Record a deal agreed by every player left: amounts by entry id, summing exactly to
    the prizes still to be won. Play may go on; the deal's amounts are their prizes.

    A deal shares out a final prize pool among a final field, so it is refused (409) while
    late registration, re-entry, rebuys or the add-on are still open, and once it is
    recorded none of them is sold any more (``tourney.windows.deal_check``).
    Online, it is refused while a hand is in progress (pause and wait for the hands) or a
    bust waits for the tournament's update (ask again in a moment)."""
    with transaction.atomic():
        tournament = tournament_for_update(tournament_id)
        if tournament.status not in (Status.RUNNING, Status.PAUSED):
            raise Conflict(
                gettext("the tournament is %(status)s")
                % {"status": tournament.get_status_display()},
                code=Code.NOT_RUNNING,
            )
        still_open = windows_open(tournament)
        if still_open:
            raise Conflict(
                gettext(
                    "the prize pool can still grow (%(still_open)s): a deal shares out a "
                    "final pool, so record it once they are closed"
                )
                % {"still_open": ", ".join(still_open)},
                code=Code.POOL_OPEN,
            )
        open_tables_for_update(tournament)  # no hand starts while the deal is recorded
        _hands_check(tournament)
        left = _left(tournament)
        _pending_busts_check(left)
        ids = {entry.id for entry, _ in left}
        if set(amounts) != ids:
            raise Invalid(
                gettext("a deal names every entry still playing, and only them"),
                code=Code.DEAL_PLAYERS,
                detail={"playing": sorted(ids)},
            )
        if any(type(a) is not int or a < 0 for a in amounts.values()):
            raise Invalid(gettext("deal amounts are non-negative integers"), code=Code.NEGATIVE)
        to_win = sum(prizes_by_place(tournament)[: len(left)])
        if sum(amounts.values()) != to_win:
            raise Invalid(
                gettext("the deal shares %(sum)s, the prizes left are %(to_win)s")
                % {"sum": sum(amounts.values()), "to_win": to_win},
                code=Code.DEAL_SUM,
            )
        tournament.deal = {"method": method, "entries": {str(k): v for k, v in amounts.items()}}
        tournament.save(update_fields=["deal"])
        event_append(tournament, "deal", tournament.deal)
        return tournament
