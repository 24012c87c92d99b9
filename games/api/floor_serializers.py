"""Input and output serializers of the ring-game floor API (games, wait lists, offers)."""

from __future__ import annotations

import copy
from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema_serializer
from rest_framework import serializers

from api_conventions.bodies import BodySerializer
from games.api.serializers import MAX_SEQ, TableCreateInputSerializer, _chips
from games.engine.rules import Variant
from games.models import GameMode

VARIANTS = [v.value for v in Variant]
HOUSE_RULES = (
    "chip_unit",
    "low_qualifier",
    "open_pair_double",
    "board_tie",
    "showdown_order",
    "uncap_heads_up",
    "burn_cards",
    "action_seconds",
    "pause_ms",
    "allow_bots",
)


def _id(**kwargs: Any) -> serializers.IntegerField:
    return serializers.IntegerField(min_value=1, max_value=MAX_SEQ, **kwargs)


class TableOptionsSerializer(BodySerializer):
    """House rules and pacing every table of the game is created with."""

    def get_fields(self) -> dict[str, Any]:
        declared = TableCreateInputSerializer._declared_fields
        return {name: copy.deepcopy(declared[name]) for name in HOUSE_RULES}


class GameCreateInputSerializer(BodySerializer):
    name = serializers.CharField(max_length=60)
    mode = serializers.ChoiceField(choices=GameMode.values, default=GameMode.ONLINE)
    variant = serializers.ChoiceField(choices=VARIANTS)
    ante = _chips()
    bring_in = _chips()
    small_bet = _chips()
    big_bet = _chips()
    seat_count = serializers.IntegerField(min_value=2, max_value=8, default=8)
    buy_in_min = _chips(default=0)
    buy_in_max = _chips(default=0)
    tables = serializers.IntegerField(min_value=1, max_value=8, default=1)
    max_tables = serializers.IntegerField(min_value=1, max_value=64, default=8)
    must_move = serializers.BooleanField(
        default=False, help_text="Also open a must-move table feeding the first table."
    )
    offer_seconds = serializers.IntegerField(min_value=5, max_value=3600, default=120)
    misses_allowed = serializers.IntegerField(min_value=0, max_value=10, default=1)
    open_at_list_length = serializers.IntegerField(
        min_value=0, max_value=100, default=0, help_text="0: never open tables by list length."
    )
    short_players = serializers.IntegerField(
        min_value=0, max_value=8, default=0, help_text="0: never break short tables."
    )
    short_seconds = serializers.IntegerField(min_value=0, max_value=86_400, default=600)
    rotation = serializers.ListField(
        child=serializers.CharField(max_length=8),
        default=list,
        max_length=12,
        help_text="Variants the tables rotate through, starting with `variant`.",
    )
    rotate_every_hands = serializers.IntegerField(
        min_value=0, max_value=100, default=0, help_text="0: one orbit per game."
    )
    table_options = TableOptionsSerializer(required=False)

    def validate(self, data: dict[str, Any]) -> dict[str, Any]:
        if data["buy_in_min"] > data["buy_in_max"]:
            raise serializers.ValidationError(
                {"buy_in_max": _("buy_in_max must be at least buy_in_min")}
            )
        return data


class RotationSerializer(serializers.Serializer[Any]):
    variants = serializers.ListField(child=serializers.CharField(), read_only=True)
    current = serializers.CharField(read_only=True)
    next = serializers.CharField(read_only=True)
    hands_left = serializers.IntegerField(
        read_only=True,
        allow_null=True,
        help_text="Hands before the switch (null: not counted yet).",
    )


class GameTableSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField(read_only=True)
    name = serializers.CharField(read_only=True)
    role = serializers.CharField(read_only=True, help_text="main or must_move.")
    status = serializers.CharField(read_only=True, help_text="open or breaking.")
    feeds = serializers.IntegerField(read_only=True, allow_null=True)
    variant = serializers.CharField(read_only=True, help_text="What the next hand deals.")
    seated = serializers.IntegerField(read_only=True)
    free_seats = serializers.ListField(child=serializers.IntegerField(), read_only=True)
    offered_seats = serializers.ListField(child=serializers.IntegerField(), read_only=True)
    rotation = RotationSerializer(read_only=True, allow_null=True)


class GameOutputSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField(read_only=True)
    name = serializers.CharField(read_only=True)
    mode = serializers.CharField(read_only=True)
    variant = serializers.CharField(read_only=True)
    ante = serializers.IntegerField(read_only=True)
    bring_in = serializers.IntegerField(read_only=True)
    small_bet = serializers.IntegerField(read_only=True)
    big_bet = serializers.IntegerField(read_only=True)
    buy_in_min = serializers.IntegerField(read_only=True)
    buy_in_max = serializers.IntegerField(read_only=True)
    offer_seconds = serializers.IntegerField(read_only=True)
    rotation = serializers.ListField(child=serializers.CharField(), read_only=True)
    list_length = serializers.IntegerField(read_only=True)
    table_proposed = serializers.BooleanField(
        read_only=True, help_text="Live: the floor asks staff to open a table."
    )
    tables = GameTableSerializer(many=True, read_only=True)


class JoinInputSerializer(BodySerializer):
    variant = serializers.ChoiceField(choices=VARIANTS, required=False)
    small_bet = _chips(required=False)
    game = _id(required=False, help_text="The game's id, when variant and stakes are ambiguous.")
    table = _id(required=False, help_text="Wait for this table of the game only.")

    def validate(self, data: dict[str, Any]) -> dict[str, Any]:
        if "game" not in data and not {"variant", "small_bet"} <= data.keys():
            raise serializers.ValidationError(
                _('name the game: "variant" and "small_bet", or "game" (its id)')
            )
        return data


class OfferSerializer(serializers.Serializer[Any]):
    table = serializers.IntegerField(read_only=True)
    seat = serializers.IntegerField(read_only=True)
    expires_at = serializers.DateTimeField(read_only=True)


class WaitEntryOutputSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField(read_only=True)
    game = serializers.IntegerField(read_only=True)
    name = serializers.CharField(read_only=True)
    player = serializers.IntegerField(read_only=True, allow_null=True)
    table = serializers.IntegerField(read_only=True, allow_null=True)
    status = serializers.CharField(read_only=True)
    position = serializers.IntegerField(
        read_only=True, allow_null=True, help_text="1 is next; null once off the list."
    )
    misses = serializers.IntegerField(read_only=True)
    estimated_wait_seconds = serializers.IntegerField(
        read_only=True, allow_null=True, help_text="Null until the game has a recent pace."
    )
    offer = OfferSerializer(read_only=True, allow_null=True)
    created_at = serializers.DateTimeField(read_only=True)


class AcceptInputSerializer(BodySerializer):
    buy_in = _chips()


class AcceptOutputSerializer(serializers.Serializer[Any]):
    table = serializers.IntegerField(read_only=True)
    seat = serializers.IntegerField(read_only=True)
    buy_in = serializers.IntegerField(read_only=True)


class WalkInInputSerializer(BodySerializer):
    name = serializers.CharField(max_length=40)


# Named apart from the tournament director's MoveInput (tourney.api.director_serializers).
@extend_schema_serializer(component_name="WaitlistMoveInput")
class MoveInputSerializer(BodySerializer):
    position = serializers.IntegerField(min_value=1, max_value=10_000)
    reason = serializers.CharField(max_length=200)


class RemoveQuerySerializer(serializers.Serializer[Any]):
    reason = serializers.CharField(
        max_length=200, required=False, default="", help_text="Staff: why the name is removed."
    )


class SeatChangeInputSerializer(BodySerializer):
    table = _id(required=False, help_text="Another table of the same game (default: this one).")
    seat = serializers.IntegerField(
        min_value=1, max_value=8, required=False, help_text="A given seat (default: any)."
    )


class SeatChangeOutputSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField(read_only=True)
    game = serializers.IntegerField(source="game_id", read_only=True)
    from_table = serializers.IntegerField(source="from_table_id", read_only=True)
    to_table = serializers.IntegerField(source="to_table_id", read_only=True)
    to_seat = serializers.IntegerField(read_only=True, allow_null=True)
    status = serializers.CharField(read_only=True)
    created_at = serializers.DateTimeField(read_only=True)


class ReportLeftInputSerializer(BodySerializer):
    seat = serializers.IntegerField(min_value=1, max_value=8)
