"""Input and output serializers of the tournaments API (explicit fields, no ``__all__``)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from rest_framework import serializers

from api_conventions.bodies import BodySerializer
from tourney import selectors
from tourney.models import BountyKind, BreakOrder, Mode, MoveStatus

MAX_INT = 2**31 - 1
"""The largest count, minute or stake the database stores (PostgreSQL ``integer``): larger
input is refused with a 400 rather than overflowing the column."""
MAX_CHIPS = 2**63 - 1
"""The largest chip count a seat can hold (``bigint``)."""
MAX_ENTRY_ID = 2**63 - 1
"""The largest id the database stores (``bigint``): a key beyond it is refused with a 400."""


class ScheduleEntryInputSerializer(BodySerializer):
    is_break = serializers.BooleanField(default=False)
    # stud_hi, stud_8 or razz: checked by the planner (a choice field would repeat the
    # tables' VariantEnum under another name in the schema)
    game = serializers.CharField(max_length=8, required=False)
    ante = serializers.IntegerField(max_value=MAX_INT, min_value=0, required=False)
    bring_in = serializers.IntegerField(max_value=MAX_INT, min_value=1, required=False)
    small_bet = serializers.IntegerField(max_value=MAX_INT, min_value=1, required=False)
    big_bet = serializers.IntegerField(max_value=MAX_INT, min_value=1, required=False)
    minutes = serializers.IntegerField(max_value=MAX_INT, min_value=1)


class ScheduleInputSerializer(BodySerializer):
    """Either ``entries`` written by staff, or ``generate`` parameters for the planner."""

    name = serializers.CharField(max_length=80)
    club_id = serializers.IntegerField(
        min_value=1,
        max_value=MAX_INT,
        required=False,
        help_text="The club whose tournaments alone may use it, one the caller directs "
        "(omitted: a director's one club; staff: the house's, for any tournament).",
    )
    chip_unit = serializers.IntegerField(max_value=MAX_INT, min_value=1, default=1)
    entries = ScheduleEntryInputSerializer(many=True, required=False)
    starting_stack = serializers.IntegerField(max_value=MAX_INT, min_value=1, required=False)
    level_minutes = serializers.IntegerField(max_value=MAX_INT, min_value=1, required=False)
    target_hours = serializers.IntegerField(max_value=MAX_INT, min_value=1, required=False)
    games = serializers.ListField(child=serializers.CharField(max_length=8), required=False)
    break_every = serializers.IntegerField(
        max_value=MAX_INT, min_value=1, required=False, allow_null=True
    )
    break_minutes = serializers.IntegerField(max_value=MAX_INT, min_value=1, required=False)


class ScheduleUpdateInputSerializer(BodySerializer):
    """A new name, or the whole new list of levels and breaks (those already played must be
    given unchanged)."""

    name = serializers.CharField(max_length=80, required=False)
    entries = ScheduleEntryInputSerializer(many=True, required=False)


class ScheduleOutputSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField(read_only=True)
    name = serializers.CharField(read_only=True)
    club_id = serializers.IntegerField(read_only=True, allow_null=True)
    chip_unit = serializers.IntegerField(read_only=True)
    entries = serializers.SerializerMethodField()
    warnings = serializers.SerializerMethodField()

    def get_warnings(self, schedule: Any) -> list[str]:
        """What is allowed but unusual (a big bet other than twice the small bet)."""
        return selectors.schedule_warnings(schedule)

    def get_entries(self, schedule: Any) -> list[dict[str, Any]]:
        return [
            {
                "position": e.position,
                "is_break": e.is_break,
                "game": e.game,
                "ante": e.ante,
                "bring_in": e.bring_in,
                "small_bet": e.small_bet,
                "big_bet": e.big_bet,
                "minutes": e.minutes,
            }
            for e in schedule.entries.order_by("position")
        ]


class TournamentInputSerializer(BodySerializer):
    """Settings (all optional on configure). Amounts are integers; negative ones are 400s.
    A price includes its fee: buy_in 110 with fee 10 puts 100 in the prize pool."""

    name = serializers.CharField(max_length=80, required=False)
    mode = serializers.ChoiceField(choices=Mode.values, required=False)
    club_id = serializers.IntegerField(
        max_value=MAX_INT, min_value=1, required=False, help_text="the club that runs it"
    )
    buy_in = serializers.IntegerField(max_value=MAX_INT, min_value=1, required=False)
    fee = serializers.IntegerField(max_value=MAX_INT, min_value=0, required=False)
    bounty = serializers.IntegerField(
        max_value=MAX_INT, min_value=0, required=False, help_text="part of the buy-in"
    )
    bounty_kind = serializers.ChoiceField(choices=BountyKind.values, required=False)
    starting_stack = serializers.IntegerField(max_value=MAX_INT, min_value=1, required=False)
    chip_unit = serializers.IntegerField(max_value=MAX_INT, min_value=1, required=False)
    table_size = serializers.IntegerField(min_value=2, max_value=8, required=False)
    schedule_id = serializers.IntegerField(max_value=MAX_INT, min_value=1, required=False)
    late_reg_levels = serializers.IntegerField(max_value=MAX_INT, min_value=0, required=False)
    re_entry_max = serializers.IntegerField(max_value=MAX_INT, min_value=0, required=False)
    re_entry_levels = serializers.IntegerField(max_value=MAX_INT, min_value=0, required=False)
    rebuy_max = serializers.IntegerField(max_value=MAX_INT, min_value=0, required=False)
    rebuy_levels = serializers.IntegerField(max_value=MAX_INT, min_value=0, required=False)
    rebuy_price = serializers.IntegerField(max_value=MAX_INT, min_value=0, required=False)
    rebuy_fee = serializers.IntegerField(max_value=MAX_INT, min_value=0, required=False)
    rebuy_chips = serializers.IntegerField(max_value=MAX_INT, min_value=0, required=False)
    add_on_price = serializers.IntegerField(max_value=MAX_INT, min_value=0, required=False)
    add_on_fee = serializers.IntegerField(max_value=MAX_INT, min_value=0, required=False)
    add_on_chips = serializers.IntegerField(max_value=MAX_INT, min_value=0, required=False)
    add_on_level = serializers.IntegerField(max_value=MAX_INT, min_value=0, required=False)
    scheduled_start = serializers.DateTimeField(required=False, allow_null=True)
    action_seconds = serializers.IntegerField(max_value=MAX_INT, min_value=1, required=False)
    pause_ms = serializers.IntegerField(max_value=MAX_INT, min_value=0, required=False)
    minute_seconds = serializers.IntegerField(max_value=MAX_INT, min_value=1, required=False)
    break_order = serializers.ChoiceField(choices=BreakOrder.values, required=False)
    balance_threshold = serializers.IntegerField(
        max_value=MAX_INT, min_value=1, required=False, allow_null=True
    )
    payout_percentages = serializers.ListField(
        child=serializers.CharField(max_length=12), required=False, allow_null=True
    )


class TournamentOutputSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField(read_only=True)
    name = serializers.CharField(read_only=True)
    club_id = serializers.IntegerField(read_only=True, allow_null=True)
    mode = serializers.CharField(read_only=True)
    status = serializers.CharField(read_only=True)
    buy_in = serializers.IntegerField(read_only=True)
    fee = serializers.IntegerField(read_only=True)
    bounty = serializers.IntegerField(read_only=True)
    bounty_kind = serializers.CharField(read_only=True)
    starting_stack = serializers.IntegerField(read_only=True)
    chip_unit = serializers.IntegerField(read_only=True)
    table_size = serializers.IntegerField(read_only=True)
    schedule_id = serializers.IntegerField(read_only=True)
    late_reg_levels = serializers.IntegerField(read_only=True)
    re_entry_max = serializers.IntegerField(read_only=True)
    re_entry_levels = serializers.IntegerField(read_only=True)
    rebuy_max = serializers.IntegerField(read_only=True)
    rebuy_levels = serializers.IntegerField(read_only=True)
    rebuy_price = serializers.IntegerField(read_only=True)
    rebuy_fee = serializers.IntegerField(read_only=True)
    rebuy_chips = serializers.IntegerField(read_only=True)
    add_on_price = serializers.IntegerField(read_only=True)
    add_on_fee = serializers.IntegerField(read_only=True)
    add_on_chips = serializers.IntegerField(read_only=True)
    add_on_level = serializers.IntegerField(read_only=True)
    scheduled_start = serializers.DateTimeField(read_only=True)
    action_seconds = serializers.IntegerField(read_only=True)
    pause_ms = serializers.IntegerField(read_only=True)
    minute_seconds = serializers.IntegerField(read_only=True)
    break_order = serializers.CharField(read_only=True)
    balance_threshold = serializers.IntegerField(read_only=True, allow_null=True)
    prize_pool = serializers.IntegerField(read_only=True)
    draw_seed = serializers.CharField(read_only=True)
    payout_percentages = serializers.JSONField(read_only=True)


# Also the fields of the director's next level and schedule rows (director_serializers); a
# docstring here would become their description in the schema too.
class LevelOutputSerializer(serializers.Serializer[Any]):
    index = serializers.IntegerField()
    number = serializers.IntegerField()
    is_break = serializers.BooleanField()
    game = serializers.CharField()
    ante = serializers.IntegerField()
    bring_in = serializers.IntegerField()
    small_bet = serializers.IntegerField()
    big_bet = serializers.IntegerField()


class TournamentSeatOutputSerializer(serializers.Serializer[Any]):
    seat = serializers.IntegerField()
    entry = serializers.IntegerField(allow_null=True)
    player = serializers.IntegerField()
    name = serializers.CharField()
    chips = serializers.IntegerField()


class StateTableOutputSerializer(serializers.Serializer[Any]):
    number = serializers.IntegerField()
    table_id = serializers.IntegerField()
    status = serializers.CharField()
    hold_reason = serializers.CharField()
    breaking = serializers.BooleanField()
    hands_played = serializers.IntegerField()
    seats = TournamentSeatOutputSerializer(many=True)


class StateOutputSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    mode = serializers.CharField()
    status = serializers.CharField()
    level = LevelOutputSerializer()
    time_left_ms = serializers.IntegerField(allow_null=True)
    entries = serializers.IntegerField()
    players_left = serializers.IntegerField()
    average_stack = serializers.IntegerField()
    prize_pool = serializers.IntegerField()
    hand_for_hand = serializers.BooleanField()
    tables = StateTableOutputSerializer(many=True)


class PlayerRefInputSerializer(BodySerializer):
    """Staff may name another player (such as a bot); players act for themselves."""

    player = serializers.IntegerField(max_value=MAX_INT, min_value=1, required=False)


class EntryOutputSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    tournament_id = serializers.IntegerField()
    player_id = serializers.IntegerField()
    number = serializers.IntegerField()
    status = serializers.CharField()
    place = serializers.IntegerField(allow_null=True)
    prize = serializers.IntegerField()
    refund = serializers.IntegerField()


class MoveOutputSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    entry_id = serializers.IntegerField()
    from_table = serializers.IntegerField()
    from_seat = serializers.IntegerField()
    to_table = serializers.IntegerField()
    to_seat = serializers.IntegerField()
    reason = serializers.CharField()
    status = serializers.CharField()
    instruction = serializers.CharField(source="__str__")
    created_at = serializers.DateTimeField()
    acknowledged_at = serializers.DateTimeField(allow_null=True)


class ChipsReportInputSerializer(BodySerializer):
    """Entry id -> chips. For bust-outs: the chips at the start of the bust hand."""

    counts = serializers.DictField(child=serializers.IntegerField(min_value=0, max_value=MAX_CHIPS))

    def validate_counts(self, counts: dict[str, int]) -> dict[int, int]:
        try:
            entries = {int(entry): chips for entry, chips in counts.items()}
        except ValueError as error:
            raise serializers.ValidationError(_("keys are entry ids")) from error
        if any(not 0 < entry <= MAX_ENTRY_ID for entry in entries):
            raise serializers.ValidationError(
                _("keys are entry ids, 1 to %(most)s") % {"most": MAX_ENTRY_ID}
            )
        return entries


class DealInputSerializer(ChipsReportInputSerializer):
    """Entry id -> amount, for every entry still playing."""

    method = serializers.ChoiceField(choices=["icm", "chip_chop", "custom"], default="custom")


class DealQuoteOutputSerializer(serializers.Serializer[Any]):
    entry = serializers.IntegerField()
    player = serializers.IntegerField()
    chips = serializers.IntegerField()
    amount = serializers.IntegerField()
    guaranteed = serializers.IntegerField(
        help_text="the next payout, which every player is locked in at before the rest is "
        "shared: no quote pays anyone less"
    )


class PayoutOutputSerializer(serializers.Serializer[Any]):
    place = serializers.IntegerField()
    prize = serializers.IntegerField()


class ResultOutputSerializer(serializers.Serializer[Any]):
    entry = serializers.IntegerField()
    player = serializers.IntegerField()
    name = serializers.CharField()
    number = serializers.IntegerField()
    status = serializers.CharField()
    place = serializers.IntegerField(allow_null=True)
    prize = serializers.IntegerField()
    refund = serializers.IntegerField()
    knockouts = serializers.DecimalField(max_digits=10, decimal_places=4)
    bounty_won = serializers.IntegerField()


class MovesQueryInputSerializer(serializers.Serializer[Any]):
    """``?status=``: only the moves of that status (all when absent)."""

    status = serializers.ChoiceField(choices=MoveStatus.values, required=False)


class DealQuoteQueryInputSerializer(serializers.Serializer[Any]):
    """``?method=icm`` (the default) or ``chip_chop``."""

    method = serializers.ChoiceField(choices=["icm", "chip_chop"], default="icm")


class EventsQueryInputSerializer(serializers.Serializer[Any]):
    """``?after=N``: the events after ``seq`` N (0: from the first)."""

    after = serializers.IntegerField(min_value=0, max_value=MAX_INT, default=0)


class EventOutputSerializer(serializers.Serializer[Any]):
    seq = serializers.IntegerField()
    kind = serializers.CharField()
    data = serializers.JSONField()
    created_at = serializers.DateTimeField()
