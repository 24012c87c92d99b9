"""Places and prizes: the bust groups placed, the winner; the logged draw of odd units."""

from __future__ import annotations

import secrets
from collections import defaultdict
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from games import rows
from games.engine.fairness import SeededShuffler
from tourney.models import Entry, EntryStatus, Status, Tournament
from tourney.planning.payouts import places_of_eliminated, shared_prizes
from tourney.selectors import prizes_by_place
from tourney.services.steps.log import event_append
from tourney.windows import standings_final


def group_place(tournament: Tournament, *, group: int) -> None:
    """Place anew the entries of bust group ``group`` and every group not final yet (a
    bust of the group was undone)."""
    places_provisional(tournament, which=f"group {group}", again=True)


def places_assign(tournament: Tournament) -> None:
    """Give every eliminated entry not placed finally its place (and prize if the pool is
    final): when the field becomes final, when the pool does, and at the end if that had not
    happened before."""
    places_provisional(tournament, which="all", again=True)


def places_provisional(
    tournament: Tournament, *, which: str | None = None, again: bool = False
) -> None:
    """Place the eliminated entries whose places are not final yet, by when they busted
    (``bust_at``; ``places_give``), once the field is final: when one of them has no place
    yet (a new bust) or ``again``; ``which`` names them in the log (by default the groups
    of the new busts). Logged as ``places``: provisional, until
    ``places_finalize`` logs them final. The final ones are the earliest busts (the lowest
    places), so the players still playing finish above every entry placed here."""
    field, pool = standings_final(tournament)
    if not field:
        return
    pending = list(tournament.entries.filter(status=EntryStatus.ELIMINATED, place_final=False))
    if not pending or not (again or _unplaced(pending)):
        return
    groups: dict[int, list[Entry]] = defaultdict(list)
    for entry in pending:
        groups[entry.bust_group or 0].append(entry)
    left = tournament.entries.filter(status=EntryStatus.PLAYING).count()
    prizes = prizes_by_place(tournament) if pool else None
    if which is None:
        new = sorted({number for number, group in groups.items() if _unplaced(group)})
        which = ", ".join(f"group {number}" for number in new)
    logged = places_give(tournament, groups, left, which, prizes)
    if logged is not None:
        rows.update_each(pending, PLACE_FIELDS)
        event_append(tournament, "places", logged)


def places_finalize(tournament: Tournament, *, known_until: Callable[[], datetime] | None) -> None:
    """Make final, and log once as ``places_final``, the places of the earliest bust groups
    that can no longer change: the prize pool is final, the group is complete (not the
    hand-for-hand round in play), not the latest group (the director may still undo its
    busts, ``ruling_undo_bust``) unless the tournament is over, and every bust before its
    own is known: its hands ended before ``known_until()`` (asked only if a group waits on
    it; None: every bust is known, as at the end or in a live tournament, whose busts are
    reported). Groups are taken in the
    order they busted and the first that is not final stops it: a final place is never
    changed afterwards."""
    if not all(standings_final(tournament)):
        return
    pending = list(tournament.entries.filter(status=EntryStatus.ELIMINATED, place_final=False))
    groups: dict[int, list[Entry]] = defaultdict(list)
    for entry in pending:
        groups[entry.bust_group or 0].append(entry)
    undoable = max(groups, default=None) if tournament.status != Status.FINISHED else None
    final: list[Entry] = []
    seen: datetime | None = None
    for number in sorted(groups, key=lambda n: _busted(n, groups[n])):
        group = groups[number]
        if _unplaced(group) or number == undoable:
            break
        if tournament.hand_for_hand and number == tournament.hand_for_hand_group:
            break
        last = max((e.bust_at for e in group if e.bust_at is not None), default=None)
        if known_until is not None and last is not None:
            seen = seen or known_until()
            if last >= seen:
                break
        final += group
    if not final:
        return
    for entry in final:
        entry.place_final = True
    rows.update_each(final, ["place_final"])
    event_append(tournament, "places_final", {"places": _places_logged(final)})


def _unplaced(entries: list[Entry]) -> bool:
    return any(entry.place is None for entry in entries)


def _busted(number: int, group: list[Entry]) -> tuple[datetime, int]:
    """When a bust group busted, the order groups are placed in: its first bust's moment
    (a hand-for-hand round's busts share, whenever their hands ended), then its number."""
    moments = [e.bust_at for e in group if e.bust_at is not None]
    return (min(moments, default=_NEVER), number)


_NEVER = datetime.min.replace(tzinfo=UTC)


PLACE_FIELDS = ("place", "prize")


def places_give(
    tournament: Tournament,
    groups: dict[int, list[Entry]],
    left: int,
    which: str,
    prizes: list[int] | None,
) -> dict[str, Any] | None:
    """Place ``groups`` (bust group -> entries, every group after them still playing: ``left``
    players), the latest to bust (``_busted``) first; at one table the bigger starting stack
    finishes above, equal stacks share their places and their prizes, and so do players of a
    hand-for-hand round busted at different tables (``places_of_eliminated``); odd units go
    by a logged random draw. A recorded deal's amounts are the prizes of the players who made
    it. ``prizes``: each paid place's, once the prize pool is final (None before).

    Sets the entries' ``PLACE_FIELDS`` (the caller writes them) and returns the ``places``
    log event's data (None if there was nobody to place)."""
    deal = tournament.deal["entries"] if tournament.deal else {}
    seed = secrets.token_bytes(16)
    rng = SeededShuffler(seed)
    placed: list[Entry] = []
    for number in sorted(groups, key=lambda n: _busted(n, groups[n]), reverse=True):
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
    """The last player left wins: place 1, the first prize (or their deal), status winner,
    logged final; then the results (every place). The others are placed already."""
    deal = tournament.deal["entries"] if tournament.deal else {}
    winner.place = 1
    winner.prize = deal.get(str(winner.id), prizes_by_place(tournament)[0])
    winner.status = EntryStatus.WINNER
    winner.place_final = True
    winner.save(update_fields=["place", "prize", "status", "place_final"])
    event_append(tournament, "places_final", {"places": _places_logged([winner])})
    placed = list(tournament.entries.filter(place__isnull=False))
    event_append(tournament, "results", {"places": _places_logged(placed)})
