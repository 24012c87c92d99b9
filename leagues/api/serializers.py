"""Input and output serializers of the leagues API (explicit fields)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from rest_framework import serializers

from api_conventions.bodies import BodySerializer
from leagues.formulas import PRESETS
from leagues.standings import DEFAULT_TIE_BREAKS, TIE_BREAKS

MAX_INT = 2**31 - 1
POINTS = {"max_digits": 12, "decimal_places": 4, "min_value": 0}


class LeagueInputSerializer(BodySerializer):
    club_id = serializers.IntegerField(min_value=1, max_value=MAX_INT)
    name = serializers.CharField(max_length=80)


class LeagueOutputSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    club_id = serializers.IntegerField()
    name = serializers.CharField()
    created_at = serializers.DateTimeField()


class FormulaInputSerializer(BodySerializer):
    """A points formula: a preset, or ``expression`` with ``formula_params.expression``."""

    formula = serializers.ChoiceField(choices=PRESETS)
    formula_params = serializers.DictField(
        required=False,
        default=dict,
        help_text='reverse_rank: {"multiplier": "2"}; table: {"points": [10, 7, 5]}; '
        'expression: {"expression": "10 * sqrt(n / k)"}',
    )


class SeasonInputSerializer(FormulaInputSerializer):
    name = serializers.CharField(max_length=80)
    starts_on = serializers.DateField()
    ends_on = serializers.DateField()
    decimals = serializers.IntegerField(min_value=0, max_value=4, default=2)
    participation_points = serializers.DecimalField(**POINTS, default=0)
    knockout_points = serializers.DecimalField(**POINTS, default=0)
    events_planned = serializers.IntegerField(
        min_value=1, max_value=1000, required=False, allow_null=True
    )
    best_of = serializers.IntegerField(
        min_value=1, max_value=1000, required=False, allow_null=True, help_text="null: all"
    )
    tie_breaks = serializers.ListField(
        child=serializers.ChoiceField(choices=list(TIE_BREAKS)),
        default=lambda: list(DEFAULT_TIE_BREAKS),
        max_length=len(TIE_BREAKS),
    )
    final_table_size = serializers.IntegerField(min_value=1, max_value=100, default=8)
    league_fee = serializers.IntegerField(min_value=0, max_value=MAX_INT, default=0)
    pot_payout = serializers.ListField(
        child=serializers.CharField(max_length=12), default=list, max_length=1000
    )
    finale_qualifiers = serializers.IntegerField(min_value=0, max_value=1000, default=0)
    finale_chip_bonus = serializers.ListField(
        child=serializers.IntegerField(min_value=0, max_value=MAX_INT),
        default=list,
        max_length=1000,
    )


class SeasonOutputSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    league_id = serializers.IntegerField()
    name = serializers.CharField()
    starts_on = serializers.DateField()
    ends_on = serializers.DateField()
    formula = serializers.CharField()
    formula_params = serializers.JSONField()
    decimals = serializers.IntegerField()
    participation_points = serializers.DecimalField(max_digits=12, decimal_places=4)
    knockout_points = serializers.DecimalField(max_digits=12, decimal_places=4)
    events_planned = serializers.IntegerField(allow_null=True)
    best_of = serializers.IntegerField(allow_null=True)
    tie_breaks = serializers.JSONField()
    final_table_size = serializers.IntegerField()
    league_fee = serializers.IntegerField()
    pot_payout = serializers.JSONField()
    finale_qualifiers = serializers.IntegerField()
    finale_chip_bonus = serializers.JSONField()
    finale_tournament_id = serializers.IntegerField(allow_null=True)
    closed_at = serializers.DateTimeField(allow_null=True)


class PotPayoutSerializer(serializers.Serializer[Any]):
    rank = serializers.IntegerField()
    player = serializers.IntegerField()
    amount = serializers.IntegerField()


class SeasonDetailOutputSerializer(SeasonOutputSerializer):
    pot = serializers.IntegerField(help_text="the league fees the events have put in the pot")
    pot_balance = serializers.IntegerField(
        help_text="what the pot's ledger account holds: the pot until the season closes, "
        "0 once it is paid out"
    )
    pot_payouts = PotPayoutSerializer(
        many=True, help_text="paid when the season closed, or as the standings stand now"
    )


class LiveResultInputSerializer(BodySerializer):
    player = serializers.IntegerField(min_value=1, max_value=MAX_INT)
    place = serializers.IntegerField(min_value=1, max_value=100_000)
    rebuys = serializers.IntegerField(min_value=0, max_value=1000, default=0)
    add_ons = serializers.IntegerField(min_value=0, max_value=1000, default=0)
    prize = serializers.IntegerField(min_value=0, max_value=2**53, default=0)
    bounties = serializers.IntegerField(min_value=0, max_value=2**53, default=0)
    knockouts = serializers.DecimalField(max_digits=10, decimal_places=4, min_value=0, default=0)


class LiveResultsInputSerializer(BodySerializer):
    """A live event's finishing order (each place 1..N once) and its prices."""

    buy_in = serializers.IntegerField(min_value=0, max_value=MAX_INT, default=0)
    rebuy_price = serializers.IntegerField(min_value=0, max_value=MAX_INT, default=0)
    add_on_price = serializers.IntegerField(min_value=0, max_value=MAX_INT, default=0)
    results = LiveResultInputSerializer(many=True, max_length=100_000)


class SeasonEventInputSerializer(LiveResultsInputSerializer):
    """Attach a tournament of the club (``tournament``), or enter a live event (``name``,
    ``played_on``, ``results``)."""

    tournament = serializers.IntegerField(min_value=1, max_value=MAX_INT, required=False)
    name = serializers.CharField(max_length=80, required=False)
    played_on = serializers.DateField(required=False)
    results = LiveResultInputSerializer(many=True, required=False, max_length=100_000)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if "tournament" in attrs:
            extra = {"name", "results"} & set(attrs)
            if extra:
                raise serializers.ValidationError(
                    _("give a tournament, or a live event's %(fields)s: not both")
                    % {"fields": ", ".join(sorted(extra))}
                )
        else:
            missing = [f for f in ("name", "played_on", "results") if f not in attrs]
            if missing:
                raise serializers.ValidationError(
                    {f: [_("required for a live event (or give a tournament)")] for f in missing}
                )
        return attrs


class SeasonEventOutputSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    season_id = serializers.IntegerField()
    kind = serializers.CharField()
    status = serializers.CharField()
    tournament_id = serializers.IntegerField(allow_null=True)
    name = serializers.CharField()
    played_on = serializers.DateField()
    entries = serializers.IntegerField()
    buy_in = serializers.IntegerField()
    prize_pool = serializers.IntegerField()
    paid_places = serializers.IntegerField()
    pot_contribution = serializers.IntegerField(help_text="the league fees it put in the pot")
    error = serializers.CharField()
    entered_at = serializers.DateTimeField(allow_null=True)


class SeasonEventResultOutputSerializer(serializers.Serializer[Any]):
    player = serializers.IntegerField()
    name = serializers.CharField()
    place = serializers.IntegerField()
    entries = serializers.IntegerField()
    rebuys = serializers.IntegerField()
    add_ons = serializers.IntegerField()
    spent = serializers.IntegerField()
    prize = serializers.IntegerField()
    bounties = serializers.IntegerField()
    knockouts = serializers.DecimalField(max_digits=10, decimal_places=4)
    points = serializers.DecimalField(max_digits=14, decimal_places=4)


class SeasonEventDetailOutputSerializer(SeasonEventOutputSerializer):
    results = SeasonEventResultOutputSerializer(many=True)


class StandingOutputSerializer(serializers.Serializer[Any]):
    rank = serializers.IntegerField()
    previous_rank = serializers.IntegerField(allow_null=True)
    movement = serializers.IntegerField(allow_null=True, help_text="ranks gained (negative: lost)")
    player = serializers.IntegerField()
    name = serializers.CharField()
    points = serializers.DecimalField(max_digits=16, decimal_places=4)
    events_played = serializers.IntegerField()
    events_counted = serializers.IntegerField()
    wins = serializers.IntegerField()
    cashes = serializers.IntegerField()
    final_tables = serializers.IntegerField()
    knockouts = serializers.DecimalField(max_digits=12, decimal_places=4)
    best_finish = serializers.IntegerField()
    net_winnings = serializers.IntegerField()


class FinaleOutputSerializer(serializers.Serializer[Any]):
    rank = serializers.IntegerField()
    player = serializers.IntegerField()
    name = serializers.CharField()
    points = serializers.DecimalField(max_digits=16, decimal_places=4)
    chip_bonus = serializers.IntegerField()


class FinaleInputSerializer(BodySerializer):
    tournament = serializers.IntegerField(min_value=1, max_value=MAX_INT)


class FinaleEntryOutputSerializer(FinaleOutputSerializer):
    entry = serializers.IntegerField()
    starting_stack = serializers.IntegerField()


class PreviewInputSerializer(FormulaInputSerializer):
    n = serializers.IntegerField(min_value=1, max_value=10_000)
    b = serializers.IntegerField(min_value=0, max_value=MAX_INT, default=0)
    decimals = serializers.IntegerField(min_value=0, max_value=4, default=2)


class PreviewOutputSerializer(serializers.Serializer[Any]):
    place = serializers.IntegerField()
    points = serializers.DecimalField(max_digits=16, decimal_places=4)


class HistoryEventSerializer(serializers.Serializer[Any]):
    event = serializers.IntegerField()
    name = serializers.CharField()
    played_on = serializers.DateField()
    place = serializers.IntegerField()
    points = serializers.DecimalField(max_digits=14, decimal_places=4)
    prize = serializers.IntegerField()
    knockouts = serializers.DecimalField(max_digits=10, decimal_places=4)


class HistoryStandingSerializer(serializers.Serializer[Any]):
    rank = serializers.IntegerField()
    points = serializers.DecimalField(max_digits=16, decimal_places=4)
    events_counted = serializers.IntegerField()


class HistoryOutputSerializer(serializers.Serializer[Any]):
    season = serializers.IntegerField()
    season_name = serializers.CharField()
    league = serializers.IntegerField()
    league_name = serializers.CharField()
    starts_on = serializers.DateField()
    standing = HistoryStandingSerializer(allow_null=True)
    events = HistoryEventSerializer(many=True)
