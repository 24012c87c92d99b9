"""Places and prizes: the bust groups placed, the winner; the logged draw of odd units."""

from __future__ import annotations

import secrets
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from games import rows
from games.engine.fairness import SeededShuffler
from tourney.models import Entry, EntryStatus, Tournament
from tourney.planning.payouts import places_of_eliminated, shared_prizes
from tourney.selectors import prizes_by_place
from tourney.services.steps.log import event_append
from tourney.windows import standings_final


@dataclass(frozen=True)
class Standing:
    """How bust groups are placed for now (the same for a whole update pass): ``placed``,
    whether they get their places at once (the field is final), and ``prizes``, each paid
    place's prize once the prize pool is final too (None before)."""

    placed: bool
    prizes: list[int] | None


def standing(tournament: Tournament) -> Standing:
    field, pool = standings_final(tournament)
    return Standing(field, prizes_by_place(tournament) if pool else None)


def group_place(tournament: Tournament, *, group: int) -> None:
    """Give the entries of bust group ``group`` (the latest one) their places, and their
    prizes if the pool is final: the players still playing after the group finish above it.
    A hand-for-hand group placed again when more players join it shares its places anew."""
    entries = list(tournament.entries.filter(status=EntryStatus.ELIMINATED, bust_group=group))
    left = tournament.entries.filter(status=EntryStatus.PLAYING).count()
    _places_write(tournament, {group: entries}, left, f"group {group}")


def places_assign(tournament: Tournament) -> None:
    """Give every eliminated entry its place (and prize if the pool is final), from the
    latest bust group down: when the field becomes final, when the pool does, and at the end
    if that had not happened before."""
    groups: dict[int, list[Entry]] = defaultdict(list)
    for entry in tournament.entries.filter(status=EntryStatus.ELIMINATED):
        groups[entry.bust_group or 0].append(entry)
    left = tournament.entries.filter(status=EntryStatus.PLAYING).count()
    _places_write(tournament, groups, left, "all")


def _places_write(
    tournament: Tournament, groups: dict[int, list[Entry]], left: int, which: str
) -> None:
    logged = places_give(tournament, groups, left, which, standing(tournament).prizes)
    if logged is not None:
        rows.update_each([e for group in groups.values() for e in group], PLACE_FIELDS)
        event_append(tournament, "places", logged)


PLACE_FIELDS = ("place", "prize")


def places_give(
    tournament: Tournament,
    groups: dict[int, list[Entry]],
    left: int,
    which: str,
    prizes: list[int] | None,
) -> dict[str, Any] | None:
    """Place ``groups`` (bust group -> entries, every group after them still playing: ``left``
    players); at one table the bigger starting stack finishes above, equal stacks share their
    places and their prizes, and so do players of a hand-for-hand round busted at different
    tables (``places_of_eliminated``); odd units go by a logged random draw. A recorded
    deal's amounts are the prizes of the players who made it. ``prizes``: each paid place's,
    once the prize pool is final (None before).

    Sets the entries' ``PLACE_FIELDS`` (the caller writes them) and returns the ``places``
    log event's data (None if there was nobody to place)."""
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
        return None
    return {
        "which": which,
        "prizes_final": prizes is not None,
        "seed": seed.hex(),
        "places": _places_logged(placed),
    }


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
