"""Creating tables and staff controls: pause, resume, close."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs.models import Club
from games.codes import Code
from games.engine.refused import Refused
from games.engine.rules import Rules, Stakes
from games.errors import Conflict, Invalid, NotFound
from games.locks import table_for_update
from games.models import Seat, Table, TableStatus
from games.poker_words import refusal_message
from games.selectors import running_hand
from games.services.hands import NO_CLOCK, append_event, table_wake

RULE_FIELDS = (
    "low_qualifier",
    "open_pair_double",
    "board_tie",
    "showdown_order",
    "uncap_heads_up",
    "burn_cards",
)


def table_create(
    *,
    name: str,
    variant: str,
    ante: int,
    bring_in: int,
    small_bet: int,
    big_bet: int,
    chip_unit: int = 1,
    seat_count: int = 8,
    **options: Any,
) -> Table:
    """Create a table and its empty seats, after checking stakes and house rules with the
    engine's own validation (so the API and the engine can never disagree)."""
    try:
        Stakes(ante, bring_in, small_bet, big_bet, chip_unit)
        Rules(variant=variant, **{k: options[k] for k in RULE_FIELDS if k in options})
    except Refused as error:
        raise Invalid(refusal_message(error), code=Code.INVALID_RULES) from error
    if not 2 <= seat_count <= 8:
        raise Invalid(
            _("seat_count must be 2 to 8, not %(seat_count)s") % {"seat_count": seat_count},
            code=Code.INVALID_SEATS,
        )
    buy_in_min = options.get("buy_in_min", 0)
    buy_in_max = options.get("buy_in_max", 0)
    if buy_in_min > buy_in_max:
        raise Invalid(
            _("buy_in_min %(buy_in_min)s is above buy_in_max %(buy_in_max)s")
            % {"buy_in_min": buy_in_min, "buy_in_max": buy_in_max},
            code=Code.INVALID_BUY_IN,
        )
    if buy_in_min % chip_unit or buy_in_max % chip_unit:
        raise Invalid(
            _("buy_in_min and buy_in_max must be multiples of the chip unit %(chip_unit)s")
            % {"chip_unit": chip_unit},
            code=Code.INVALID_BUY_IN,
        )
    club_id = options.get("club_id")
    if club_id is not None and not Club.objects.filter(pk=club_id).exists():
        raise NotFound(
            _("no club %(club_id)s: see GET /api/v1/clubs/") % {"club_id": club_id},
            code=Code.NO_CLUB,
        )
    with transaction.atomic():
        table = Table.objects.create(
            name=name,
            variant=variant,
            ante=ante,
            bring_in=bring_in,
            small_bet=small_bet,
            big_bet=big_bet,
            chip_unit=chip_unit,
            seat_count=seat_count,
            **options,
        )
        Seat.objects.bulk_create(Seat(table=table, number=n) for n in range(1, seat_count + 1))
    return table


def table_set_status(*, table_id: int, status: str) -> Table:
    """Pause, resume or close a table (staff).

    Pausing stops the clock and new hands; resuming gives the player to act a fresh clock.
    A table with a hand in progress cannot be closed.
    """
    if status not in TableStatus.values:
        raise Invalid(
            _("unknown status %(status)s: use one of %(names)s")
            % {"status": repr(status), "names": ", ".join(TableStatus.values)}
        )
    with transaction.atomic():
        table = table_for_update(table_id)
        if table.status == status:
            return table
        hand = running_hand(table)
        if status == TableStatus.CLOSED and hand is not None:
            raise Conflict(_("a hand is in progress: pause the table and close it after the hand"))
        table.status = status
        table.save(update_fields=["status"])
        if hand is not None and status == TableStatus.PAUSED:
            # No clock runs while paused, and none is left to resume: the player to act gets
            # their full time again when the table resumes (``_start_clock``).
            hand.deadline = None
            hand.clock_decision = NO_CLOCK
            hand.save(update_fields=["deadline", "clock_decision"])
        append_event(table, status, {"at": timezone.now().isoformat()})
        if status == TableStatus.OPEN:
            table_wake(table)
        return table
