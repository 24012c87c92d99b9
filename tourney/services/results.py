"""Payouts, places and prizes, deal quotes (ICM, chip-chop) and recording a deal."""

from __future__ import annotations

import secrets
from collections import defaultdict

from django.db import transaction
from django.db.models import OuterRef, Subquery
from django.db.models.functions import Coalesce

from games.engine.fairness import SeededShuffler
from games.errors import Conflict, Invalid
from games.models import Hand, HandStatus, Seat
from tourney.models import Entry, EntryStatus, Mode, Status, Tournament
from tourney.planning.icm import MAX_ICM_PLAYERS, chip_chop, icm
from tourney.planning.payouts import (
    PayoutStructure,
    default_structure,
    payouts,
    places_of_eliminated,
    shared_prizes,
    structure_from_percentages,
)
from tourney.services.locks import open_tables_for_update, tournament_for_update
from tourney.services.log import event_append
from tourney.services.registration import PAID
from tourney.services.windows import pool_final, windows_open


def payout_structure(tournament: Tournament) -> PayoutStructure:
    """The custom structure, or the default one for the number of paid entries."""
    if tournament.payout_percentages is not None:
        return structure_from_percentages(tournament.payout_percentages)
    return default_structure(max(1, tournament.entries.filter(status__in=PAID).count()))


def prizes_by_place(tournament: Tournament) -> list[int]:
    """Each paid place's prize (place 1 first), summing exactly to the prize pool."""
    return payouts(tournament.prize_pool, payout_structure(tournament), tournament.chip_unit)


def group_place(tournament: Tournament, *, group: int) -> None:
    """Give the entries of bust group ``group`` (the latest one) their places, and their
    prizes if the pool is final: the players still playing after the group finish above it.
    A hand-for-hand group placed again when more players join it shares its places anew."""
    entries = list(tournament.entries.filter(status=EntryStatus.ELIMINATED, bust_group=group))
    left = tournament.entries.filter(status=EntryStatus.PLAYING).count()
    _places_give(tournament, {group: entries}, left, f"group {group}")


def places_assign(tournament: Tournament) -> None:
    """Give every eliminated entry its place (and prize if the pool is final), from the
    latest bust group down: when the field becomes final, when the pool does, and at the end
    if that had not happened before."""
    groups: dict[int, list[Entry]] = defaultdict(list)
    for entry in tournament.entries.filter(status=EntryStatus.ELIMINATED):
        groups[entry.bust_group or 0].append(entry)
    left = tournament.entries.filter(status=EntryStatus.PLAYING).count()
    _places_give(tournament, groups, left, "all")


def _places_give(
    tournament: Tournament, groups: dict[int, list[Entry]], left: int, which: str
) -> None:
    """Place ``groups`` (bust group -> entries, every group after them still playing: ``left``
    players); at one table the bigger starting stack finishes above, equal stacks share their
    places and their prizes, and so do players of a hand-for-hand round busted at different
    tables (``places_of_eliminated``); odd units go by a logged random draw. A recorded
    deal's amounts are the prizes of the players who made it."""
    prizes = prizes_by_place(tournament) if pool_final(tournament) else None
    deal = tournament.deal["entries"] if tournament.deal else {}
    seed = secrets.token_bytes(16)
    rng = SeededShuffler(seed)
    placed: list[Entry] = []
    for number in sorted(groups, reverse=True):
        group = groups[number]
        left += len(group)
        by_id = {entry.id: entry for entry in group}
        stacks = {entry.id: entry.bust_stack or 0 for entry in group}
        tables = {entry.id: entry.bust_table for entry in group}
        for places, ids in places_of_eliminated(stacks, left, hands=tables):
            for entry_id in ids:
                by_id[entry_id].place = places[0]
            if prizes is None:
                continue
            amounts = [prizes[place - 1] if place <= len(prizes) else 0 for place in places]
            order = sorted(ids)
            rng.shuffle(order)
            for entry_id, prize in shared_prizes(amounts, order, tournament.chip_unit).items():
                by_id[entry_id].prize = deal.get(str(entry_id), prize)
        placed.extend(group)
    if not placed:
        return
    Entry.objects.bulk_update(placed, ["place", "prize"])
    event_append(
        tournament,
        "places",
        {
            "which": which,
            "prizes_final": prizes is not None,
            "seed": seed.hex(),
            "places": _places_logged(placed),
        },
    )


def _places_logged(entries: list[Entry]) -> list[dict[str, int | None]]:
    return [
        {"entry": e.id, "player": e.player_id, "place": e.place, "prize": e.prize}
        for e in sorted(entries, key=lambda e: (e.place or 0, e.id))
    ]


def winner_assign(tournament: Tournament, winner: Entry) -> None:
    """The last player left wins: place 1, the first prize (or their deal), status winner;
    the results (every place) are logged. The others are placed already."""
    deal = tournament.deal["entries"] if tournament.deal else {}
    winner.place = 1
    winner.prize = deal.get(str(winner.id), prizes_by_place(tournament)[0])
    winner.status = EntryStatus.WINNER
    winner.save(update_fields=["place", "prize", "status"])
    placed = list(tournament.entries.filter(place__isnull=False))
    event_append(tournament, "results", {"places": _places_logged(placed)})


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
            f"entries {busted} have no chips left and their elimination is being recorded: "
            "ask again in a moment (the tournament updates within a few seconds)",
            code="update_pending",
            detail={"entries": busted},
        )


def _hands_check(tournament: Tournament) -> None:
    """Refuse (409) while a hand is in progress at one of an online tournament's tables: its
    pot is in nobody's stack, so the chip counts a deal is made on are not whole."""
    if tournament.mode != Mode.ONLINE:
        return
    tables = sorted(
        Hand.objects.filter(
            table__tournament_table__tournament=tournament, status=HandStatus.RUNNING
        ).values_list("table__tournament_table__number", flat=True)
    )
    if tables:
        raise Conflict(
            f"tables in a hand: {', '.join(map(str, tables))}; the chips in their pots "
            "are in nobody's stack: pause the tournament and wait for the hands to end",
            code="hands_running",
        )


def deal_quote(*, tournament: Tournament, method: str) -> list[dict[str, int]]:
    """What an ICM or chip-chop deal gives each player left: the prizes still to be won
    (places 1..players left) shared by the method. A bust the tournament has not recorded
    yet is counted as recorded (the busted player is out), so a quote never waits on the
    update; while a hand is in progress it is a 409 (its pot is in nobody's stack)."""
    if method not in ("icm", "chip_chop"):
        raise Invalid(f"unknown deal method {method!r}: use icm or chip_chop", code="method")
    _hands_check(tournament)
    left = _with_chips(_left(tournament))
    if len(left) < 2:
        raise Conflict("a deal needs at least two players left", code="no_deal")
    prizes = prizes_by_place(tournament)[: len(left)]
    stacks = [chips for _, chips in left]
    if method == "icm":
        if len(left) > MAX_ICM_PLAYERS:
            raise Invalid(f"ICM is exact for at most {MAX_ICM_PLAYERS} players", code="too_many")
        amounts = icm(stacks, prizes, tournament.chip_unit)
    else:
        amounts = chip_chop(stacks, prizes, tournament.chip_unit)
    return [
        {"entry": entry.id, "player": entry.player_id, "chips": chips, "amount": amount}
        for (entry, chips), amount in zip(left, amounts, strict=True)
    ]


def deal_record(
    *, tournament_id: int, amounts: dict[int, int], method: str = "custom"
) -> Tournament:
    """Record a deal agreed by every player left: amounts by entry id, summing exactly to
    the prizes still to be won. Play may go on; the deal's amounts are their prizes.

    A deal shares out a final prize pool among a final field, so it is refused (409) while
    late registration, re-entry, rebuys or the add-on are still open, and once it is
    recorded none of them is sold any more (``tourney.services.windows.deal_check``).
    Online, it is refused while a hand is in progress (pause and wait for the hands) or a
    bust waits for the tournament's update (ask again in a moment)."""
    with transaction.atomic():
        tournament = tournament_for_update(tournament_id)
        if tournament.status not in (Status.RUNNING, Status.PAUSED):
            raise Conflict(f"the tournament is {tournament.status}", code="not_running")
        still_open = windows_open(tournament)
        if still_open:
            raise Conflict(
                f"the prize pool can still grow ({', '.join(still_open)}): a deal shares "
                "out a final pool, so record it once they are closed",
                code="pool_open",
            )
        open_tables_for_update(tournament)  # no hand starts while the deal is recorded
        _hands_check(tournament)
        left = _left(tournament)
        _pending_busts_check(left)
        ids = {entry.id for entry, _ in left}
        if set(amounts) != ids:
            raise Invalid(
                "a deal names every entry still playing, and only them",
                code="deal_players",
                detail={"playing": sorted(ids)},
            )
        if any(type(a) is not int or a < 0 for a in amounts.values()):
            raise Invalid("deal amounts are non-negative integers", code="negative")
        to_win = sum(prizes_by_place(tournament)[: len(left)])
        if sum(amounts.values()) != to_win:
            raise Invalid(
                f"the deal shares {sum(amounts.values())}, the prizes left are {to_win}",
                code="deal_sum",
            )
        tournament.deal = {"method": method, "entries": {str(k): v for k, v in amounts.items()}}
        tournament.save(update_fields=["deal"])
        event_append(tournament, "deal", tournament.deal)
        return tournament
