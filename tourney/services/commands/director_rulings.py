"""The director's rulings on players: undo a bust, correct a chip count, disqualify.

Chips a ruling puts in or takes out of play are added to ``Tournament.chips_adjusted`` and
logged with the event as ``chips_delta``, so the chip count (``chips_check``) and an audit
of the log still balance. Seats and chips change only between hands (online).
"""

from __future__ import annotations

import secrets

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from games.engine.fairness import SeededShuffler
from games.errors import Conflict, Invalid
from games.models import Seat
from tourney.codes import Code
from tourney.models import Entry, EntryStatus, Tournament
from tourney.planning.balancing import seat_for_newcomer
from tourney.services.commands.director_lookup import (
    between_hands,
    entry_of,
    playing_entry,
    running_for_update,
    seat_number_check,
    seat_of,
    table_numbered,
)
from tourney.services.steps.eliminations import eliminate
from tourney.services.steps.locks import LockedTable, open_tables_for_update
from tourney.services.steps.log import event_append
from tourney.services.steps.results import group_place
from tourney.services.steps.seating import seat_take, seats_by_table, table_states
from tourney.services.update import tournament_refresh
from tourney.windows import field_final


def _chips_check(tournament: Tournament, chips: int) -> None:
    unit = tournament.unit_in_play
    if chips < 1 or chips % unit:
        raise Invalid(
            _("chips must be a positive multiple of the chip unit in play (%(unit)s)")
            % {"unit": unit},
            code=Code.CHIPS,
        )


def _bust_seat(tournament: Tournament, entry: Entry) -> tuple[int, int] | None:
    """Where the entry sat when it busted (from the log)."""
    for event in tournament.events.filter(kind="eliminated").order_by("-seq"):
        for bust in event.data["busts"]:
            if bust["entry"] == entry.id:
                return bust["table"], bust["seat"]
    return None


def _seat_back(
    tournament: Tournament, tables: list[LockedTable], entry: Entry, spot: tuple[int, int] | None
) -> tuple[LockedTable, int, str | None]:
    """The seat the director named, else the one the entry busted from if it is free, else
    a newcomer's seat (random seat at the shortest table; its seed is returned)."""
    if spot is not None:
        locked = table_numbered(tournament, tables, spot[0])
        seat_number_check(locked, spot[1])
        if Seat.objects.filter(table=locked.table, number=spot[1], player__isnull=False).exists():
            raise Conflict(
                _("table %(value)s seat %(value2)s is taken")
                % {"value": spot[0], "value2": spot[1]},
                code=Code.SEAT_TAKEN,
            )
        return locked, spot[1], None
    old = _bust_seat(tournament, entry)
    for locked in tables:
        if (
            old
            and locked.tt.number == old[0]
            and not locked.tt.breaking
            and not Seat.objects.filter(
                table=locked.table, number=old[1], player__isnull=False
            ).exists()
        ):
            return locked, old[1], None
    seed = secrets.token_bytes(16)
    free = seat_for_newcomer(table_states(tables, seats_by_table(tables)), SeededShuffler(seed))
    if free is None:
        raise Conflict(_("every seat is taken: name a table and seat"), code=Code.NO_SEAT)
    locked = next(t for t in tables if t.tt.number == free[0])
    return locked, free[1], seed.hex()


def ruling_undo_bust(
    *,
    tournament_id: int,
    entry_id: int,
    chips: int,
    from_entry: int | None = None,
    table: int | None = None,
    seat: int | None = None,
) -> Entry:
    """Put an eliminated entry back in play with ``chips``: taken from ``from_entry`` (the
    player who was wrongly given them; chips conserved) or added to play (logged).

    Only the latest elimination can be undone (a later one was placed on it: undo that one
    first), before a deal, while the player has not re-entered."""
    if (table is None) != (seat is None):
        raise Invalid(_("name both a table and a seat, or neither"), code=Code.TABLE_AND_SEAT)
    with transaction.atomic():
        tournament = running_for_update(tournament_id)
        entry = entry_of(tournament, entry_id)
        if entry.status != EntryStatus.ELIMINATED:
            raise Conflict(
                _("entry %(entry_id)s is %(status)s, not eliminated")
                % {"entry_id": entry_id, "status": entry.status},
                code=Code.NOT_OUT,
            )
        if entry.disqualified:
            raise Conflict(
                _("entry %(entry_id)s was disqualified, not busted: a disqualification stands")
                % {"entry_id": entry_id},
                code=Code.DISQUALIFIED,
            )
        latest = tournament.entries.filter(status=EntryStatus.ELIMINATED).aggregate(
            g=Max("bust_group")
        )["g"]
        if entry.bust_group != latest:
            later = list(
                tournament.entries.filter(
                    status=EntryStatus.ELIMINATED, bust_group__gt=entry.bust_group or 0
                ).values_list("id", flat=True)
            )
            raise Conflict(
                _(
                    "entries %(later)s were eliminated after entry %(entry_id)s and their "
                    "places depend on it: undo their busts first"
                )
                % {"later": later, "entry_id": entry_id},
                code=Code.LATER_BUST,
                detail={"later": later},
            )
        if tournament.deal:
            raise Conflict(
                _("a deal was made on the players left: it cannot be undone"), code=Code.DEAL
            )
        if tournament.entries.filter(player_id=entry.player_id, status=EntryStatus.PLAYING):
            raise Conflict(
                _("the player re-entered after entry %(entry_id)s busted: that entry plays on")
                % {"entry_id": entry_id},
                code=Code.RE_ENTERED,
            )
        _chips_check(tournament, chips)
        tables = open_tables_for_update(tournament)
        spot = None if table is None or seat is None else (table, seat)
        target, number, seed = _seat_back(tournament, tables, entry, spot)
        busy = [target]
        if from_entry is not None:
            donor = playing_entry(tournament, from_entry)
            donor_table, donor_seat = seat_of(tables, donor)
            busy.append(donor_table)
            if donor_seat.stack <= chips:
                raise Conflict(
                    _(
                        "entry %(from_entry)s has %(stack)s chips: it cannot give %(chips)s "
                        "and stay in (correct the counts instead)"
                    )
                    % {"from_entry": from_entry, "stack": donor_seat.stack, "chips": chips},
                    code=Code.DONOR_SHORT,
                )
        between_hands(tournament, *busy)
        if from_entry is not None:
            Seat.objects.filter(pk=donor_seat.pk).update(stack=donor_seat.stack - chips)
        group = entry.bust_group
        entry.status = EntryStatus.PLAYING
        entry.bust_group = entry.bust_stack = entry.bust_hand = entry.place = None
        entry.bust_shared = False
        entry.prize = 0
        entry.save()
        seat_take(target, number=number, player_id=entry.player_id, stack=chips, why="bust undone")
        delta = 0 if from_entry is not None else chips
        tournament.chips_adjusted += delta
        tournament.save()
        event_append(
            tournament,
            "bust_undone",
            {
                "entry": entry.id,
                "player": entry.player_id,
                "group": group,
                "chips": chips,
                "from_entry": from_entry,
                "table": target.tt.number,
                "seat": number,
                "seed": seed,
                "chips_delta": delta,
            },
        )
        regroup = tournament.entries.filter(status=EntryStatus.ELIMINATED, bust_group=group)
        if group is not None and field_final(tournament) and regroup.exists():
            group_place(tournament, group=group)  # the others of its group, placed anew
        tournament_refresh(tournament)
        return entry


def ruling_chips(*, tournament_id: int, entry_id: int, chips: int, reason: str) -> Entry:
    """Correct a playing entry's chip count (between hands); the difference is logged."""
    with transaction.atomic():
        tournament = running_for_update(tournament_id)
        entry = playing_entry(tournament, entry_id)
        _chips_check(tournament, chips)
        tables = open_tables_for_update(tournament)
        locked, seat = seat_of(tables, entry)
        between_hands(tournament, locked)
        delta = chips - seat.stack
        if delta == 0:
            raise Conflict(
                _("entry %(entry_id)s has %(chips)s chips already")
                % {"entry_id": entry_id, "chips": chips},
                code=Code.UNCHANGED,
            )
        Seat.objects.filter(pk=seat.pk).update(stack=chips)
        tournament.chips_adjusted += delta
        tournament.save()
        event_append(
            tournament,
            "chips_corrected",
            {
                "entry": entry.id,
                "table": locked.tt.number,
                "seat": seat.number,
                "before": seat.stack,
                "after": chips,
                "reason": reason,
                "chips_delta": delta,
            },
        )
        tournament_refresh(tournament)
        return entry


def ruling_disqualify(*, tournament_id: int, entry_id: int, reason: str) -> Entry:
    """Disqualify a playing entry (between hands): eliminated at once, its chips removed
    from play (Poker TDA 71: a disqualified player's chips are removed from play), placed
    like any elimination at that moment."""
    with transaction.atomic():
        tournament = running_for_update(tournament_id)
        entry = playing_entry(tournament, entry_id)
        tables = open_tables_for_update(tournament)
        locked, seat = seat_of(tables, entry)
        between_hands(tournament, locked)
        removed = seat.stack
        entry.disqualified = True
        entry.save(update_fields=["disqualified"])
        eliminate(tournament, [(locked, seat, 0, None)])
        tournament.chips_adjusted -= removed
        tournament.save()
        event_append(
            tournament,
            "disqualified",
            {
                "entry": entry.id,
                "player": entry.player_id,
                "reason": reason,
                "chips_removed": removed,
                "chips_delta": -removed,
            },
        )
        tournament_refresh(tournament)
        entry.refresh_from_db()  # eliminated (and placed) by the elimination above
        return entry
