"""Seating: sit with a buy-in, leave, sit out and back in (ring games); come back from away
(every table).

Sitting, buying in, leaving and sitting out are ring-game actions. At a tournament table the
tournament seats and moves players, and a player who goes away stays dealt in: they post
their antes and bring-ins and are folded (checked when free) at once at each decision until
they come back (docs/rules.md 9). So those actions are refused there (409), and coming back is
the one seat action a tournament player has.
"""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from games.codes import Code
from games.errors import Conflict, Forbidden, Invalid, NotFound
from games.locks import table_for_update
from games.models import Offer, Player, Seat, Table, TableKind, TableStatus, WaitEntry
from games.selectors import running_hand
from games.services.chips import chips_buy, chips_cash_out
from games.services.hands import append_event, table_wake
from games.signals import seat_changed


def _require_ring(table: Table, what: str) -> None:
    if table.kind != TableKind.RING:
        raise Conflict(
            _(
                "%(what)s is for ring games: at a tournament table the tournament "
                "seats you and you stay dealt in until you bust out (if you do not act "
                "you are folded at once; POST back/ to play again)"
            )
            % {"what": what},
            code=Code.TOURNAMENT_TABLE,
        )


def _seat_of(table: Table, player: Player) -> Seat:
    seat = table.seats.filter(player=player).first()
    if seat is None:
        raise Conflict(_("you are not seated at this table"), code=Code.NOT_SEATED)
    return seat


def seat_sit(
    *,
    table_id: int,
    player: Player,
    seat_number: int,
    buy_in: int,
    by_staff: bool = False,
    via_floor: bool = False,
) -> Seat:
    """Take a free seat with a buy-in within the table's limits.

    The player is dealt in on the next hand (stud has no blinds to wait for). Only staff can
    seat a bot, and only at a table that allows bots (docs/rules.md 10). At a ring game's table
    with others on its wait list, players are seated by the floor's offers (``via_floor``)
    or by staff, never past the list.
    """
    with transaction.atomic():
        table = table_for_update(table_id)
        _require_ring(table, "taking a seat with a buy-in")
        if table.status == TableStatus.CLOSED:
            raise Conflict(_("the table is closed"), code=Code.CLOSED)
        if player.is_bot and not (by_staff and table.allow_bots):
            raise Forbidden(
                _("only staff can seat a bot, at a table that allows bots"), code=Code.BOTS
            )
        if not table.buy_in_min <= buy_in <= table.buy_in_max:
            raise Invalid(
                _("buy_in %(buy_in)s is outside this table's limits %(buy_in_min)s..%(buy_in_max)s")
                % {
                    "buy_in": buy_in,
                    "buy_in_min": table.buy_in_min,
                    "buy_in_max": table.buy_in_max,
                },
                code=Code.BUY_IN_RANGE,
            )
        if buy_in % table.chip_unit:
            raise Invalid(
                _(
                    "buy_in %(buy_in)s is not a multiple of this table's smallest chip, "
                    "%(chip_unit)s"
                )
                % {"buy_in": buy_in, "chip_unit": table.chip_unit},
                code=Code.BUY_IN_RANGE,
            )
        seat = table.seats.filter(number=seat_number).first()
        if seat is None:
            raise NotFound(
                _("no seat %(seat_number)s: seats are 1..%(seat_count)s")
                % {"seat_number": seat_number, "seat_count": table.seat_count},
                code=Code.NO_SEAT,
            )
        if seat.player_id is not None:
            raise Conflict(
                _("seat %(seat_number)s is taken") % {"seat_number": seat_number},
                code=Code.SEAT_TAKEN,
            )
        if (
            not (via_floor or by_staff)
            and WaitEntry.objects.filter(game__game_tables__table=table, status="waiting")
            .exclude(player=player)
            .exists()
        ):
            raise Conflict(
                _("this game has a wait list: join it at /api/v1/games/waitlist/"),
                code=Code.WAIT_LIST,
            )
        if Offer.objects.filter(table=table, seat=seat_number, status="pending").exists():
            raise Conflict(
                _(
                    "seat %(seat_number)s is offered to the game's wait list: join the "
                    "list at /api/v1/games/waitlist/ or take another seat"
                )
                % {"seat_number": seat_number},
                code=Code.SEAT_OFFERED,
            )
        if table.seats.filter(player=player).exists():
            raise Conflict(_("you already have a seat at this table"), code=Code.ALREADY_SEATED)
        seat.player = player
        seat.stack = buy_in
        seat.sitting_out = False
        seat.leaving = False
        try:
            with transaction.atomic():
                seat.save(update_fields=["player", "stack", "sitting_out", "leaving"])
        except IntegrityError as error:
            raise Conflict(_("that seat or player was just taken"), code=Code.SEAT_TAKEN) from error
        chips_buy(table=table, player_id=player.id, amount=buy_in)
        append_event(
            table,
            "sit",
            {
                "seat": seat_number,
                "player": player.id,
                "name": player.display_name,
                "bot": player.is_bot,
                "stack": buy_in,
            },
        )
        table_wake(table)
        seat_changed.send(
            sender=Table, table_id=table.id, seat=seat_number, player_id=player.id, taken=True
        )
        return seat


def seat_leave(*, table_id: int, player: Player) -> Seat:
    """Leave the table: at once between hands, else folded out and gone when the hand ends."""
    with transaction.atomic():
        table = table_for_update(table_id)
        _require_ring(table, "leaving the table with your chips")
        seat = _seat_of(table, player)
        hand = running_hand(table)
        if hand is not None and any(p["player"] == player.id for p in hand.lineup):
            seat.leaving = True
            seat.save(update_fields=["leaving"])
            append_event(table, "leaving", {"seat": seat.number, "player": player.id})
            table_wake(table)
            return seat
        append_event(
            table, "leave", {"seat": seat.number, "player": player.id, "cash_out": seat.stack}
        )
        if table.kind == TableKind.RING:
            chips_cash_out(table=table, player_id=player.id, amount=seat.stack)
        seat.player = None
        seat.stack = 0
        seat.sitting_out = False
        seat.leaving = False
        seat.save(update_fields=["player", "stack", "sitting_out", "leaving"])
        seat_changed.send(
            sender=Table, table_id=table.id, seat=seat.number, player_id=player.id, taken=False
        )
        return seat


def seat_top_up(*, table_id: int, player: Player, amount: int) -> Seat:
    """Buy more chips between hands, up to the table's maximum buy-in (docs/rules.md 10)."""
    with transaction.atomic():
        table = table_for_update(table_id)
        if table.kind != TableKind.RING:
            raise Forbidden(
                _("tournament chips are bought as rebuys and add-ons"), code=Code.NOT_RING
            )
        seat = _seat_of(table, player)
        hand = running_hand(table)
        if hand is not None and any(p["player"] == player.id for p in hand.lineup):
            raise Conflict(_("you are in a hand: top up after it ends"), code=Code.IN_HAND)
        if seat.leaving:
            raise Conflict(_("you are leaving the table"), code=Code.LEAVING)
        room = table.buy_in_max - seat.stack
        if amount < 1 or amount > room:
            raise Invalid(
                _(
                    "a top-up is 1..%(max)s chips here: your stack %(stack)s may reach the "
                    "table's maximum buy-in %(buy_in_max)s"
                )
                % {"max": max(room, 0), "stack": seat.stack, "buy_in_max": table.buy_in_max},
                code=Code.TOP_UP_RANGE,
            )
        if amount % table.chip_unit:
            raise Invalid(
                _(
                    "a top-up of %(amount)s is not a multiple of this table's smallest "
                    "chip, %(chip_unit)s"
                )
                % {"amount": amount, "chip_unit": table.chip_unit},
                code=Code.TOP_UP_RANGE,
            )
        chips_buy(table=table, player_id=player.id, amount=amount, top_up=True)
        seat.stack += amount
        seat.save(update_fields=["stack"])
        append_event(table, "top_up", {"seat": seat.number, "player": player.id, "amount": amount})
        table_wake(table)
        return seat


def seat_sit_out(*, table_id: int, player: Player, sitting_out: bool) -> Seat:
    """Sit out (not dealt in from the next hand; folded at the current hand's next decision)
    or sit back in (ring games).

    Sitting back in is also how a player comes back from away at any table (``seat_back``).
    """
    with transaction.atomic():
        table = table_for_update(table_id)
        if sitting_out:
            _require_ring(table, "sitting out")
        seat = _seat_of(table, player)
        if seat.sitting_out != sitting_out:
            seat.sitting_out = sitting_out
            seat.save(update_fields=["sitting_out"])
            append_event(
                table,
                "sit_out" if sitting_out else "sit_in",
                {"seat": seat.number, "player": player.id},
            )
            table_wake(table)
        return seat


def seat_back(*, table_id: int, player: Player) -> Seat:
    """Come back after being away (a timeout, or sitting out): from the current hand's next
    decision the player decides again with their full clock (docs/rules.md 9)."""
    return seat_sit_out(table_id=table_id, player=player, sitting_out=False)
