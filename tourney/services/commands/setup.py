"""Creating, configuring and cancelling tournaments (staff)."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from clubs.models import Club
from games.errors import Conflict, Invalid, NotFound
from tourney.codes import Code
from tourney.models import (
    SETTINGS,
    AnteSchedule,
    BountyKind,
    BreakOrder,
    Entry,
    EntryStatus,
    Mode,
    Status,
    Tournament,
)
from tourney.plan_messages import plan_message
from tourney.planning.levels import STAKE_FIELDS
from tourney.planning.payouts import structure_from_percentages
from tourney.selectors import schedule_entries
from tourney.services.steps.locks import tournament_for_update
from tourney.services.steps.log import event_append
from tourney.services.steps.payments import MONEY_SETTINGS, pool_recompute, refunds_pay
from tourney.services.update import tournament_refresh

POSITIVE = ("buy_in", "starting_stack", "chip_unit", "minute_seconds", "action_seconds")


def _check_settings(fields: dict[str, Any]) -> None:
    """Refuse bad settings with a 400 before the database sees them."""
    unknown = set(fields) - set(SETTINGS)
    if unknown:
        raise Invalid(
            _("unknown settings: %(names)s") % {"names": ", ".join(sorted(unknown))},
            code=Code.UNKNOWN_SETTING,
        )
    for name, value in fields.items():
        if isinstance(value, int) and not isinstance(value, bool) and value < 0:
            raise Invalid(
                _("%(name)s cannot be negative (%(value)s)") % {"name": name, "value": value},
                code=Code.NEGATIVE,
            )
    for name in POSITIVE:
        if name in fields and fields[name] < 1:
            raise Invalid(_("%(name)s must be at least 1") % {"name": name}, code=Code.NOT_POSITIVE)
    if "table_size" in fields and not 2 <= fields["table_size"] <= 8:
        raise Invalid(
            _("table_size must be 2 to 8, not %(table_size)s")
            % {"table_size": fields["table_size"]},
            code=Code.TABLE_SIZE,
        )
    if "mode" in fields and fields["mode"] not in Mode.values:
        raise Invalid(
            _("mode must be one of %(names)s") % {"names": ", ".join(Mode.values)}, code=Code.MODE
        )
    if "bounty_kind" in fields and fields["bounty_kind"] not in BountyKind.values:
        raise Invalid(
            _("bounty_kind must be one of %(names)s") % {"names": ", ".join(BountyKind.values)}
        )
    if "break_order" in fields and fields["break_order"] not in BreakOrder.values:
        raise Invalid(
            _("break_order must be one of %(names)s") % {"names": ", ".join(BreakOrder.values)}
        )
    if fields.get("balance_threshold") == 0:
        raise Invalid(_("balance_threshold must be at least 1 (or null for the TDA default)"))
    if fields.get("payout_percentages") is not None:
        try:
            structure_from_percentages(fields["payout_percentages"])
        except (TypeError, ValueError) as error:
            raise Invalid(plan_message(error), code=Code.INVALID_PAYOUTS) from error
    if "club_id" in fields and not Club.objects.filter(pk=fields["club_id"]).exists():
        raise NotFound(_("no club %(club_id)s") % {"club_id": fields["club_id"]}, code=Code.NO_CLUB)
    if (
        "schedule_id" in fields
        and not AnteSchedule.objects.filter(pk=fields["schedule_id"]).exists()
    ):
        raise NotFound(
            _("no schedule %(schedule_id)s") % {"schedule_id": fields["schedule_id"]},
            code=Code.NO_SCHEDULE,
        )


def _check_prices(tournament: Tournament) -> None:
    for price, fee in (
        ("buy_in", "fee"),
        ("rebuy_price", "rebuy_fee"),
        ("add_on_price", "add_on_fee"),
    ):
        if getattr(tournament, fee) > getattr(tournament, price):
            raise Invalid(
                _("%(fee)s is part of %(price)s and cannot exceed it")
                % {"fee": fee, "price": price},
                code=Code.FEE_ABOVE_PRICE,
            )
    if tournament.bounty + tournament.fee > tournament.buy_in:
        raise Invalid(
            _(
                "the bounty (%(bounty)s) and the fee (%(fee)s) are parts of the buy-in "
                "(%(buy_in)s) and cannot exceed it"
            )
            % {"bounty": tournament.bounty, "fee": tournament.fee, "buy_in": tournament.buy_in},
            code=Code.BOUNTY_ABOVE_PRICE,
        )
    if tournament.bounty and tournament.mode == Mode.LIVE:
        raise Invalid(
            _(
                "bounties are for online tournaments: a live bust report names nobody "
                "who knocked the player out"
            ),
            code=Code.LIVE_BOUNTY,
        )


def _check_offers(tournament: Tournament) -> None:
    """Refuse (400) a rebuy or an add-on on offer that gives no chips or costs nothing."""
    offers = (
        (tournament.rebuy_max, "rebuy_max", "rebuy_chips", "rebuy_price"),
        (tournament.add_on_level, "add_on_level", "add_on_chips", "add_on_price"),
    )
    for offered, switch, chips, price in offers:
        if not offered:
            continue
        for name in (chips, price):
            if getattr(tournament, name) == 0:
                raise Invalid(
                    _(
                        "%(name)s is 0 with %(switch)s %(offered)s: set %(name)s, or "
                        "%(switch)s 0 to offer none"
                    )
                    % {"name": name, "switch": switch, "offered": offered},
                    code=Code.EMPTY_OFFER,
                )


def _check_chips(tournament: Tournament) -> None:
    """Refuse (400) chips given or sold that are not whole chips of the chip unit: the tables
    share tied pots in it, so every stack must be."""
    for name in ("starting_stack", "rebuy_chips", "add_on_chips"):
        amount = getattr(tournament, name)
        if amount % tournament.chip_unit:
            raise Invalid(
                _(
                    "%(name)s %(amount)s is not a multiple of the chip unit %(chip_unit)s: "
                    "stacks are whole chips of it"
                )
                % {"name": name, "amount": amount, "chip_unit": tournament.chip_unit},
                code=Code.CHIP_UNIT,
            )


WINDOWS = ("late_reg_levels", "re_entry_levels", "rebuy_levels", "add_on_level")
"""Settings counted in levels of the schedule."""


def _check_schedule(tournament: Tournament) -> None:
    """Refuse (400) a schedule whose stakes are not all multiples of the tournament's chip
    unit (a schedule in units of 5 with a bring-in of 15 cannot be dealt in units of 25), or
    shorter than a window (past its end the last level plays on: the window would never
    close). A schedule of another club is a 404, as if it did not exist: a tournament takes
    its own club's schedules or the house's."""
    unit = tournament.chip_unit
    schedule_club = (
        AnteSchedule.objects.filter(pk=tournament.schedule_id)
        .values_list("club_id", flat=True)
        .first()
    )
    if schedule_club not in (None, tournament.club_id):
        raise NotFound(
            _(
                "no schedule %(schedule_id)s of this tournament's club or the house's: "
                "a club's schedule is for its own tournaments"
            )
            % {"schedule_id": tournament.schedule_id},
            code=Code.NO_SCHEDULE,
        )
    levels = [entry for entry in schedule_entries(tournament.schedule_id) if not entry.is_break]
    for name in WINDOWS:
        if getattr(tournament, name) > len(levels):
            raise Invalid(
                _(
                    "%(name)s %(getattr)s is longer than the schedule's %(count)s levels: "
                    "it would never close"
                )
                % {"name": name, "getattr": getattr(tournament, name), "count": len(levels)},
                code=Code.WINDOW_TOO_LONG,
            )
    for number, level in enumerate(levels, start=1):
        for name in STAKE_FIELDS:
            amount = getattr(level, name)
            if amount % unit:
                raise Invalid(
                    _(
                        "level %(number)s of the schedule: %(name)s %(amount)s is not a "
                        "multiple of the tournament's chip unit %(unit)s"
                    )
                    % {"number": number, "name": name, "amount": amount, "unit": unit},
                    code=Code.CHIP_UNIT,
                )


def tournament_create(**fields: Any) -> Tournament:
    """Create a tournament in registration (staff). A price includes its fee: ``buy_in``
    110 and ``fee`` 10 put 100 in the prize pool."""
    _check_settings(fields)
    for name in ("name", "buy_in", "starting_stack", "schedule_id"):
        if name not in fields:
            raise Invalid(_("%(name)s is required") % {"name": name}, code=Code.REQUIRED)
    tournament = Tournament(**fields)
    _check_prices(tournament)
    _check_offers(tournament)
    _check_chips(tournament)
    _check_schedule(tournament)
    with transaction.atomic():
        tournament.save()
        event_append(tournament, "created", {"settings": {k: str(v) for k, v in fields.items()}})
    return tournament


def tournament_configure(*, tournament_id: int, **fields: Any) -> Tournament:
    """Change settings while the tournament is still registering (staff)."""
    _check_settings(fields)
    with transaction.atomic():
        tournament = tournament_for_update(tournament_id)
        if tournament.status != Status.REGISTERING:
            raise Conflict(
                _("the tournament is %(status)s: settings are fixed")
                % {"status": tournament.get_status_display()},
                code=Code.STARTED,
            )
        paid = sorted(
            name
            for name in MONEY_SETTINGS & set(fields)
            if fields[name] != getattr(tournament, name)
        )
        if paid and tournament.entries.exclude(status=EntryStatus.UNREGISTERED).exists():
            raise Conflict(
                _(
                    "entries have paid already: %(paid)s cannot change now; create a new "
                    "tournament, or cancel this one (everyone is refunded)"
                )
                % {"paid": ", ".join(paid)},
                code=Code.PRICES_FIXED,
            )
        for name, value in fields.items():
            setattr(tournament, name, value)
        _check_prices(tournament)
        _check_offers(tournament)
        _check_chips(tournament)
        _check_schedule(tournament)
        tournament.save()
        pool_recompute(tournament)
        event_append(tournament, "configured", {"settings": {k: str(v) for k, v in fields.items()}})
        return tournament


def entry_paid(tournament: Tournament, entry: Entry) -> int:
    """What the entry paid, fees included."""
    return (
        tournament.buy_in
        + entry.rebuys * tournament.rebuy_price
        + entry.add_ons * tournament.add_on_price
    )


def tournament_cancel(*, tournament_id: int) -> Tournament:
    """Cancel the tournament: every entry gets back what it paid, fees included; the tables
    close (a table in a hand closes when its hand ends)."""
    with transaction.atomic():
        tournament = tournament_for_update(tournament_id)
        if tournament.status in (Status.FINISHED, Status.CANCELLED):
            raise Conflict(
                _("the tournament is already %(status)s")
                % {"status": tournament.get_status_display()},
                code=Code.OVER,
            )
        refunds = []
        entries = list(tournament.entries.exclude(status=EntryStatus.UNREGISTERED))
        refunds_pay(tournament, entries)
        for entry in entries:
            entry.refund = entry_paid(tournament, entry)
            entry.status = EntryStatus.REFUNDED
            entry.save(update_fields=["refund", "status"])
            refunds.append({"entry": entry.id, "player": entry.player_id, "refund": entry.refund})
        tournament.status = Status.CANCELLED
        tournament.level_ends_at = None
        tournament.save()
        event_append(tournament, "cancelled", {"refunds": refunds})
        tournament_refresh(tournament)
        return tournament
