"""Input and output serializers of the director's API (explicit fields; unknown input
fields are a 400 naming them, never silently ignored)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from rest_framework import serializers

from api_conventions.bodies import BodySerializer, KnownFieldsSerializer
from tourney.api.serializers import (
    MAX_CHIPS,
    MAX_INT,
    LevelOutputSerializer,
    ScheduleEntryInputSerializer,
    StateOutputSerializer,
    StateTableOutputSerializer,
    TournamentSeatOutputSerializer,
)
from tourney.models import Status

CLOCK_ACTIONS = {
    "add_time": {"seconds"},
    "next_level": set(),
    "previous_level": set(),
    "break": {"minutes", "after_hands"},
    "end_break": set(),
    "color_up": {"chip_unit"},
}


class ClockInputSerializer(BodySerializer):
    """``add_time`` (``seconds``, may be negative), ``next_level``, ``previous_level``,
    ``break`` (``minutes``, ``after_hands``), ``end_break``, ``color_up`` (``chip_unit``)."""

    action = serializers.ChoiceField(choices=sorted(CLOCK_ACTIONS))
    seconds = serializers.IntegerField(min_value=-(10**6), max_value=10**6, required=False)
    minutes = serializers.IntegerField(min_value=1, max_value=24 * 60, required=False)
    after_hands = serializers.BooleanField(required=False)
    chip_unit = serializers.IntegerField(min_value=1, max_value=MAX_INT, required=False)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        action = attrs["action"]
        allowed = CLOCK_ACTIONS[action]
        extra = sorted(set(attrs) - allowed - {"action"})
        if extra:
            raise serializers.ValidationError(
                {name: [_("not used by %(action)s") % {"action": action}] for name in extra}
            )
        required = allowed - {"after_hands"}
        missing = sorted(required - set(attrs))
        if missing:
            raise serializers.ValidationError(
                {name: [_("required by %(action)s") % {"action": action}] for name in missing}
            )
        return attrs


class SeatMoveInputSerializer(BodySerializer):
    """The entry, and the table (its number in the tournament) and seat to move it to."""

    entry = serializers.IntegerField(min_value=1, max_value=MAX_INT)
    table = serializers.IntegerField(min_value=1, max_value=MAX_INT)
    seat = serializers.IntegerField(min_value=1, max_value=MAX_INT)


class SeatSwapInputSerializer(BodySerializer):
    entries = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=MAX_INT), min_length=2, max_length=2
    )


class SeatLockInputSerializer(BodySerializer):
    entry = serializers.IntegerField(min_value=1, max_value=MAX_INT)
    locked = serializers.BooleanField(default=True)


class UndoBustInputSerializer(BodySerializer):
    """The chips the entry comes back with; ``from_entry``: the player who gives them back
    (else they are added to play); ``table`` and ``seat``: where (else where they sat)."""

    chips = serializers.IntegerField(min_value=1, max_value=MAX_CHIPS)
    from_entry = serializers.IntegerField(min_value=1, max_value=MAX_INT, required=False)
    table = serializers.IntegerField(min_value=1, max_value=MAX_INT, required=False)
    seat = serializers.IntegerField(min_value=1, max_value=MAX_INT, required=False)


class ReasonInputSerializer(BodySerializer):
    reason = serializers.CharField(max_length=200)


class ChipCorrectionInputSerializer(BodySerializer):
    entry = serializers.IntegerField(min_value=1, max_value=MAX_INT)
    chips = serializers.IntegerField(min_value=1, max_value=MAX_CHIPS)
    reason = serializers.CharField(max_length=200)


class LateRegistrationInputSerializer(BodySerializer):
    """``open``: false closes late registration now; true reopens it until the end of
    ``until_level`` (default: the level in play)."""

    open = serializers.BooleanField()
    until_level = serializers.IntegerField(min_value=1, max_value=MAX_INT, required=False)


class LateEntryInputSerializer(BodySerializer):
    player = serializers.IntegerField(min_value=1, max_value=MAX_INT)
    table = serializers.IntegerField(min_value=1, max_value=MAX_INT)
    seat = serializers.IntegerField(min_value=1, max_value=MAX_INT)


class SettingsInputSerializer(BodySerializer):
    """What may change in play: ``level_minutes`` (the level in play and those to come),
    ``levels`` (the levels and breaks to come, replacing them), ``payout_percentages``
    (before the money), ``action_seconds``."""

    level_minutes = serializers.IntegerField(min_value=1, max_value=24 * 60, required=False)
    levels = ScheduleEntryInputSerializer(many=True, required=False)
    payout_percentages = serializers.ListField(
        child=serializers.CharField(max_length=12), required=False, min_length=1
    )
    action_seconds = serializers.IntegerField(min_value=1, max_value=3600, required=False)


STATUS_CHOICES = list(Status.values)


class TournamentListQuerySerializer(KnownFieldsSerializer):
    """Filters of the list (all optional) and its page."""

    status = serializers.ChoiceField(choices=STATUS_CHOICES, required=False)
    club = serializers.IntegerField(min_value=1, max_value=MAX_INT, required=False)
    date = serializers.DateField(required=False)
    date_from = serializers.DateField(required=False)
    date_to = serializers.DateField(required=False)
    page = serializers.IntegerField(min_value=1, max_value=MAX_INT, required=False)
    page_size = serializers.IntegerField(min_value=1, max_value=500, required=False)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if "date" in attrs and ({"date_from", "date_to"} & set(attrs)):
            raise serializers.ValidationError(
                {"date": [_("give date, or date_from and/or date_to, not both")]}
            )
        return attrs


class PageQuerySerializer(KnownFieldsSerializer):
    page = serializers.IntegerField(min_value=1, max_value=MAX_INT, required=False)
    page_size = serializers.IntegerField(min_value=1, max_value=500, required=False)


# The next level and a row of the schedule are the state's level (``LevelOutputSerializer``)
# with one of its fields left out (``= None``: DRF drops an inherited field) and their own
# after it. No docstrings: the schema would show them as these components' descriptions.


class NextLevelOutputSerializer(LevelOutputSerializer):
    is_break = None
    minutes = serializers.IntegerField()
    starts_in_ms = serializers.IntegerField(allow_null=True)
    starts_at = serializers.DateTimeField(allow_null=True)


class ScheduleRowOutputSerializer(LevelOutputSerializer):
    number = None
    minutes = serializers.IntegerField()


class NextBreakOutputSerializer(serializers.Serializer[Any]):
    index = serializers.IntegerField()
    after_level = serializers.IntegerField()
    minutes = serializers.IntegerField()
    starts_in_ms = serializers.IntegerField(allow_null=True)
    starts_at = serializers.DateTimeField(allow_null=True)


class UnscheduledBreakOutputSerializer(serializers.Serializer[Any]):
    waiting_for_hands = serializers.BooleanField()
    minutes = serializers.IntegerField(allow_null=True)
    ends_at = serializers.DateTimeField(allow_null=True)
    time_left_ms = serializers.IntegerField(allow_null=True)
    level_time_left_ms = serializers.IntegerField(allow_null=True)


class SettingsOutputSerializer(serializers.Serializer[Any]):
    """The settings as created (and changed in play, each change logged)."""

    name = serializers.CharField()
    mode = serializers.CharField()
    club_id = serializers.IntegerField(allow_null=True)
    buy_in = serializers.IntegerField()
    fee = serializers.IntegerField()
    starting_stack = serializers.IntegerField()
    chip_unit = serializers.IntegerField()
    table_size = serializers.IntegerField()
    schedule_id = serializers.IntegerField()
    schedule = ScheduleRowOutputSerializer(many=True)
    late_reg_levels = serializers.IntegerField()
    re_entry_max = serializers.IntegerField()
    re_entry_levels = serializers.IntegerField()
    rebuy_max = serializers.IntegerField()
    rebuy_levels = serializers.IntegerField()
    rebuy_price = serializers.IntegerField()
    rebuy_fee = serializers.IntegerField()
    rebuy_chips = serializers.IntegerField()
    add_on_price = serializers.IntegerField()
    add_on_fee = serializers.IntegerField()
    add_on_chips = serializers.IntegerField()
    add_on_level = serializers.IntegerField()
    scheduled_start = serializers.DateTimeField(allow_null=True)
    action_seconds = serializers.IntegerField()
    pause_ms = serializers.IntegerField()
    minute_seconds = serializers.IntegerField()
    break_order = serializers.CharField()
    balance_threshold = serializers.IntegerField(allow_null=True)
    payout_percentages = serializers.ListField(child=serializers.CharField(), allow_null=True)


class DetailOutputSerializer(StateOutputSerializer):
    """The live state, the settings as created, what comes next, the director's switches."""

    settings = SettingsOutputSerializer()
    next_level = NextLevelOutputSerializer(allow_null=True)
    next_break = NextBreakOutputSerializer(allow_null=True)
    unscheduled_break = UnscheduledBreakOutputSerializer(allow_null=True)
    late_registration_open = serializers.BooleanField()
    chip_unit_in_play = serializers.IntegerField()
    chips_adjusted = serializers.IntegerField()
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)


class LeaderboardRowOutputSerializer(serializers.Serializer[Any]):
    rank = serializers.IntegerField()
    entry = serializers.IntegerField()
    player = serializers.IntegerField()
    name = serializers.CharField()
    chips = serializers.IntegerField()
    table = serializers.IntegerField()
    seat = serializers.IntegerField()
    seat_locked = serializers.BooleanField()


class TableRowOutputSerializer(StateTableOutputSerializer):
    """A table: ``status`` is ``open``, ``broken`` or ``final``."""

    id = serializers.IntegerField()
    seat_count = serializers.IntegerField()
    status = serializers.CharField(help_text="open, broken or final")
    seats = TournamentSeatOutputSerializer(many=True)


class EntryStateOutputSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    player_id = serializers.IntegerField()
    status = serializers.CharField()
    seat_locked = serializers.BooleanField()
    disqualified = serializers.BooleanField()
    place = serializers.IntegerField(allow_null=True)
    prize = serializers.IntegerField()


def paginated(
    item: type[serializers.Serializer[Any]], name: str
) -> type[serializers.Serializer[Any]]:
    """The page shape of a list: ``{"count", "next", "previous", "results"}``."""
    return type(
        name,
        (serializers.Serializer,),
        {
            "count": serializers.IntegerField(),
            "next": serializers.URLField(allow_null=True),
            "previous": serializers.URLField(allow_null=True),
            "results": item(many=True),
        },
    )
