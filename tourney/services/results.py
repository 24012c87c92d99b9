"""Payouts, places and prizes, deal quotes (ICM, chip-chop) and recording a deal."""

from __future__ import annotations

import secrets
from collections import defaultdict

from django.db import transaction

from games.engine.fairness import SeededShuffler
from games.errors import Conflict, Invalid
from tourney.models import Entry, EntryStatus, Status, Tournament
from tourney.planning.icm import MAX_ICM_PLAYERS, chip_chop, icm
from tourney.planning.payouts import (
    PayoutStructure,
    default_structure,
    payouts,
    places_of_eliminated,
    shared_prizes,
    structure_from_percentages,
)
from tourney.services.locks import tournament_for_update
from tourney.services.log import event_append
from tourney.services.registration import PAID


def payout_structure(tournament: Tournament) -> PayoutStructure:
    """The custom structure, or the default one for the number of paid entries."""
    if tournament.payout_percentages is not None:
        return structure_from_percentages(tournament.payout_percentages)
    return default_structure(max(1, tournament.entries.filter(status__in=PAID).count()))


def prizes_by_place(tournament: Tournament) -> list[int]:
    """Each paid place's prize (place 1 first), summing exactly to the prize pool."""
    return payouts(tournament.prize_pool, payout_structure(tournament), tournament.chip_unit)


def results_assign(tournament: Tournament, winner: Entry) -> None:
    """Give every entry its place and prize at the end: the winner first, then the bust
    groups from the last one; equal stacks in a group (all of a hand-for-hand group) share
    their places' prizes, odd units going by a logged random draw. A recorded deal replaces
    the prizes of the players who made it."""
    prizes = prizes_by_place(tournament)
    groups: dict[int, list[Entry]] = defaultdict(list)
    for entry in tournament.entries.filter(status=EntryStatus.ELIMINATED):
        groups[entry.bust_group or 0].append(entry)
    seed = secrets.token_bytes(16)
    rng = SeededShuffler(seed)
    placed: list[Entry] = [winner]
    winner.place, winner.prize = 1, prizes[0]
    players_left = 1
    for number in sorted(groups, reverse=True):
        group = groups[number]
        players_left += len(group)
        by_id = {entry.id: entry for entry in group}
        stacks = {entry.id: entry.bust_stack or 0 for entry in group}
        for places, ids in places_of_eliminated(
            stacks, players_left, all_tied=group[0].bust_shared
        ):
            amounts = [prizes[place - 1] if place <= len(prizes) else 0 for place in places]
            order = sorted(ids)
            rng.shuffle(order)
            for entry_id, prize in shared_prizes(amounts, order, tournament.chip_unit).items():
                by_id[entry_id].place, by_id[entry_id].prize = places[0], prize
        placed.extend(group)
    if tournament.deal:
        for entry in placed:
            entry.prize = tournament.deal["entries"].get(str(entry.id), entry.prize)
    Entry.objects.bulk_update(placed, ["place", "prize"])
    event_append(
        tournament,
        "results",
        {
            "seed": seed.hex(),
            "places": [
                {"entry": e.id, "player": e.player_id, "place": e.place, "prize": e.prize}
                for e in sorted(placed, key=lambda e: (e.place or 0, e.id))
            ],
        },
    )


def _left(tournament: Tournament) -> list[tuple[Entry, int]]:
    """The entries still playing with their chips."""
    from games.models import Seat

    entries = list(tournament.entries.filter(status=EntryStatus.PLAYING).order_by("id"))
    chips = dict(
        Seat.objects.filter(
            table__tournament_table__tournament=tournament, player__isnull=False
        ).values_list("player_id", "stack")
    )
    return [(entry, chips.get(entry.player_id, 0)) for entry in entries]


def deal_quote(*, tournament: Tournament, method: str) -> list[dict[str, int]]:
    """What an ICM or chip-chop deal gives each player left: the prizes still to be won
    (places 1..players left) shared by the method."""
    left = _left(tournament)
    if len(left) < 2:
        raise Conflict("a deal needs at least two players left", code="no_deal")
    prizes = prizes_by_place(tournament)[: len(left)]
    stacks = [chips for _, chips in left]
    if method == "icm":
        if len(left) > MAX_ICM_PLAYERS:
            raise Invalid(f"ICM is exact for at most {MAX_ICM_PLAYERS} players", code="too_many")
        amounts = icm(stacks, prizes, tournament.chip_unit)
    elif method == "chip_chop":
        amounts = chip_chop(stacks, prizes, tournament.chip_unit)
    else:
        raise Invalid(f"unknown deal method {method!r}: use icm or chip_chop", code="method")
    return [
        {"entry": entry.id, "player": entry.player_id, "chips": chips, "amount": amount}
        for (entry, chips), amount in zip(left, amounts, strict=True)
    ]


def deal_record(
    *, tournament_id: int, amounts: dict[int, int], method: str = "custom"
) -> Tournament:
    """Record a deal agreed by every player left: amounts by entry id, summing exactly to
    the prizes still to be won. Play may go on; the deal's amounts are their prizes."""
    with transaction.atomic():
        tournament = tournament_for_update(tournament_id)
        if tournament.status not in (Status.RUNNING, Status.PAUSED):
            raise Conflict(f"the tournament is {tournament.status}", code="not_running")
        left = _left(tournament)
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
