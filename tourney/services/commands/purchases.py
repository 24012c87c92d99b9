"""Rebuys and add-ons: chips bought during play, within their windows and limits.

Chips change only between hands at the player's table (a hand in progress holds the live
amounts); the price, fee included, goes to the prize pool less its fee.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext as _

from games.errors import Conflict, NotFound
from games.models import Seat
from money.models import Reason
from tourney.codes import Code
from tourney.models import Entry, EntryStatus, Status, Tournament
from tourney.services.steps.locks import open_tables_for_update, tournament_for_update
from tourney.services.steps.log import event_append
from tourney.services.steps.payments import entry_pay, pool_recompute
from tourney.windows import add_on_open, deal_check, rebuy_open


def _playing_entry(tournament: Tournament, player_id: int, purchase: str) -> Entry:
    if tournament.status not in (Status.RUNNING, Status.PAUSED):
        raise Conflict(
            _("the tournament is %(status)s") % {"status": tournament.get_status_display()},
            code=Code.NOT_RUNNING,
        )
    deal_check(tournament, purchase=purchase)
    entry = tournament.entries.filter(player_id=player_id, status=EntryStatus.PLAYING).first()
    if entry is None:
        raise NotFound(
            _("player %(player_id)s is not playing in this tournament") % {"player_id": player_id},
            code=Code.NO_ENTRY,
        )
    return entry


def _seat_between_hands(tournament: Tournament, entry: Entry) -> Seat:
    for locked in open_tables_for_update(tournament):
        seat = Seat.objects.filter(table=locked.table, player_id=entry.player_id).first()
        if seat is not None:
            if locked.in_hand:
                raise Conflict(
                    _("a hand is in progress at your table: buy after it"), code=Code.IN_HAND
                )
            return seat
    raise Conflict(_("the entry has no seat"), code=Code.NOT_SEATED)


def _add_chips(tournament: Tournament, entry: Entry, seat: Seat, chips: int, kind: str) -> None:
    entry_pay(tournament, entry, Reason(kind))
    Seat.objects.filter(pk=seat.pk).update(stack=F("stack") + chips)
    pool_recompute(tournament)
    event_append(tournament, kind, {"entry": entry.id, "chips": chips, "stack": seat.stack + chips})


def entry_rebuy(*, tournament_id: int, player_id: int) -> Entry:
    """Buy ``rebuy_chips`` at or below the starting stack, within the rebuy window."""
    with transaction.atomic():
        tournament = tournament_for_update(tournament_id)
        entry = _playing_entry(tournament, player_id, "rebuy")
        if entry.rebuys >= tournament.rebuy_max:
            raise Conflict(
                _("no rebuy left (%(rebuy_max)s allowed)") % {"rebuy_max": tournament.rebuy_max},
                code=Code.REBUY_LIMIT,
            )
        if not rebuy_open(tournament):
            raise Conflict(_("the rebuy window is over"), code=Code.REBUY_CLOSED)
        seat = _seat_between_hands(tournament, entry)
        if seat.stack > tournament.starting_stack:
            raise Conflict(
                _("rebuys are for stacks at or below the starting stack"), code=Code.TOO_MANY_CHIPS
            )
        entry.rebuys += 1
        entry.save(update_fields=["rebuys"])
        _add_chips(tournament, entry, seat, tournament.rebuy_chips, "rebuy")
        return entry


def entry_add_on(*, tournament_id: int, player_id: int) -> Entry:
    """Buy the one add-on (``add_on_chips``) until the end of level ``add_on_level``."""
    with transaction.atomic():
        tournament = tournament_for_update(tournament_id)
        entry = _playing_entry(tournament, player_id, "add-on")
        if not add_on_open(tournament):
            raise Conflict(_("no add-on is offered now"), code=Code.ADD_ON_CLOSED)
        if entry.add_ons:
            raise Conflict(_("one add-on per entry"), code=Code.ADD_ON_LIMIT)
        seat = _seat_between_hands(tournament, entry)
        entry.add_ons = 1
        entry.save(update_fields=["add_ons"])
        _add_chips(tournament, entry, seat, tournament.add_on_chips, "add_on")
        return entry
