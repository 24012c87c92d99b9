"""Registration: register, unregister, late registration and re-entry; the prize pool.

Late registrants and re-entries are seated at once at the shortest table
(``seat_for_newcomer``), a new table opening when every seat is taken.
"""

from __future__ import annotations

import secrets

from django.db import transaction
from django.utils.translation import gettext as _

from games.engine.fairness import SeededShuffler
from games.errors import Conflict, Invalid, NotFound
from games.models import Player
from games.services import schedule
from money.models import Reason
from tourney.codes import Code
from tourney.models import PAID, Entry, EntryStatus, Status, Tournament
from tourney.planning.balancing import seat_for_newcomer
from tourney.services.steps.locks import open_tables_for_update, tournament_for_update
from tourney.services.steps.log import event_append
from tourney.services.steps.payments import entry_pay, pool_recompute, refunds_pay
from tourney.services.steps.seating import seat_take, seats_by_table, table_open, table_states
from tourney.services.update import tournament_refresh
from tourney.windows import deal_check, late_registration_open, money_check, re_entry_open


def _player(player_id: int) -> Player:
    player = Player.objects.filter(pk=player_id).first()
    if player is None:
        raise NotFound(_("no player %(player_id)s") % {"player_id": player_id}, code=Code.NO_PLAYER)
    return player


def _seat_newcomer(tournament: Tournament, entry: Entry) -> None:
    """Seat a late registrant or re-entry at the shortest table, with a starting stack."""
    tables = open_tables_for_update(tournament)
    seed = secrets.token_bytes(16)
    spot = seat_for_newcomer(table_states(tables, seats_by_table(tables)), SeededShuffler(seed))
    if spot is None:
        target, seat = table_open(tournament), 1
        tables.append(target)
    else:
        target = next(locked for locked in tables if locked.tt.number == spot[0])
        seat = spot[1]
    seat_take(
        target,
        number=seat,
        player_id=entry.player_id,
        stack=tournament.starting_stack + entry.bonus_chips,
        why="late registration" if entry.number == 1 else "re-entry",
    )
    entry.status = EntryStatus.PLAYING
    entry.save(update_fields=["status"])
    event_append(
        tournament,
        "seated",
        {
            "entry": entry.id,
            "player": entry.player_id,
            "table": target.tt.number,
            "seat": seat,
            "seed": seed.hex(),
        },
    )
    tournament_refresh(tournament)
    schedule.advance_now(target.table.id)  # it may have been waiting for players


def entry_register(*, tournament_id: int, player_id: int, bonus_chips: int = 0) -> Entry:
    """Register a player (during registration, or late registration: seated at once), with
    ``bonus_chips`` on top of the starting stack (a league finale's chip bonus)."""
    with transaction.atomic():
        tournament = tournament_for_update(tournament_id)
        player = _player(player_id)
        deal_check(tournament, purchase="registration")
        if tournament.status != Status.REGISTERING and not late_registration_open(tournament):
            raise Conflict(
                _("registration is closed (the tournament is %(status)s)")
                % {"status": tournament.get_status_display()},
                code=Code.REGISTRATION_CLOSED,
            )
        if tournament.status != Status.REGISTERING:
            money_check(tournament, purchase="late registration")
        if bonus_chips % tournament.unit_in_play:
            raise Invalid(
                _(
                    "bonus_chips %(bonus_chips)s is not a multiple of the smallest chip in "
                    "play, %(unit_in_play)s: give a bonus in whole chips of it"
                )
                % {"bonus_chips": bonus_chips, "unit_in_play": tournament.unit_in_play},
                code=Code.CHIPS,
            )
        earlier = tournament.entries.filter(player=player).exclude(status=EntryStatus.UNREGISTERED)
        if earlier.exists():
            raise Conflict(
                _("%(player)s is already registered") % {"player": player},
                code=Code.ALREADY_REGISTERED,
            )
        number = tournament.entries.filter(player=player).count() + 1
        # Numbers stay unique: registering again after unregistering takes the next one.
        entry = Entry.objects.create(
            tournament=tournament, player=player, number=number, bonus_chips=bonus_chips
        )
        entry_pay(tournament, entry, Reason.TOURNAMENT_BUY_IN)
        pool_recompute(tournament)
        event_append(
            tournament,
            "registered",
            {"entry": entry.id, "player": player.id}
            | ({"bonus_chips": bonus_chips} if bonus_chips else {}),
        )
        if tournament.status != Status.REGISTERING:
            _seat_newcomer(tournament, entry)
        return entry


def entry_unregister(*, tournament_id: int, player_id: int) -> Entry:
    """Unregister before the start; the buy-in is refunded, fee included."""
    with transaction.atomic():
        tournament = tournament_for_update(tournament_id)
        player = _player(player_id)
        entry = tournament.entries.filter(player=player, status=EntryStatus.REGISTERED).first()
        if entry is None:
            raise Conflict(
                _("%(player)s has no entry waiting for the draw") % {"player": player},
                code=Code.NOT_REGISTERED,
            )
        entry.status = EntryStatus.UNREGISTERED
        entry.refund = tournament.buy_in
        entry.save(update_fields=["status", "refund"])
        refunds_pay(tournament, [entry])
        pool_recompute(tournament)
        event_append(tournament, "unregistered", {"entry": entry.id, "refund": entry.refund})
        return entry


def entry_re_enter(*, tournament_id: int, player_id: int) -> Entry:
    """Buy a new entry after being eliminated, within the re-entry window and limit."""
    with transaction.atomic():
        tournament = tournament_for_update(tournament_id)
        player = _player(player_id)
        if tournament.status not in (Status.RUNNING, Status.PAUSED):
            raise Conflict(
                _("the tournament is %(status)s") % {"status": tournament.get_status_display()},
                code=Code.NOT_RUNNING,
            )
        deal_check(tournament, purchase="re-entry")
        entries = tournament.entries.filter(player=player, status__in=PAID)
        if not entries.exists():
            raise Conflict(
                _("%(player)s never entered: register instead") % {"player": player},
                code=Code.NOT_REGISTERED,
            )
        if entries.exclude(status=EntryStatus.ELIMINATED).exists():
            raise Conflict(
                _("%(player)s is still in the tournament") % {"player": player},
                code=Code.STILL_PLAYING,
            )
        used = entries.count() - 1
        if used >= tournament.re_entry_max:
            raise Conflict(
                _("no re-entry left (%(re_entry_max)s allowed)")
                % {"re_entry_max": tournament.re_entry_max},
                code=Code.RE_ENTRY_LIMIT,
            )
        if not re_entry_open(tournament):
            raise Conflict(_("the re-entry window is over"), code=Code.RE_ENTRY_CLOSED)
        money_check(tournament, purchase="re-entry")
        number = tournament.entries.filter(player=player).count() + 1
        entry = Entry.objects.create(tournament=tournament, player=player, number=number)
        entry_pay(tournament, entry, Reason.RE_ENTRY)
        pool_recompute(tournament)
        event_append(
            tournament, "re_entry", {"entry": entry.id, "player": player.id, "number": number}
        )
        _seat_newcomer(tournament, entry)
        return entry
