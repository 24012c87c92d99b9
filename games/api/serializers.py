"""Input and output serializers of the tables API.

Inputs validate shape and types only (the services check the rules); outputs are read-only
and name every field, so the OpenAPI schema documents exactly what clients receive. The few
output fields that are sometimes absent are declared ``required=False`` without
``read_only=True``: drf-spectacular lists every read-only field as required.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.validators import UnicodeUsernameValidator
from rest_framework import serializers

from games.api.strict import StrictFieldsMixin
from games.engine.fairness import CLIENT_SEED_MAX
from games.engine.rules import BoardTie, ShowdownOrder, Variant
from games.engine.state import BETTING_ACTIONS, SHOWDOWN_ACTIONS
from games.models import BotKind, Table

MAX_CHIPS = 2_000_000_000
"""Largest chip amount a client may send (fits the tables' integer columns everywhere)."""

MAX_SEQ = 2**63 - 1
"""Largest sequence number (a 64-bit column)."""

ACTIONS = sorted(BETTING_ACTIONS | SHOWDOWN_ACTIONS)


def _chips(**kwargs: Any) -> serializers.IntegerField:
    return serializers.IntegerField(min_value=0, max_value=MAX_CHIPS, **kwargs)


# ----------------------------------------------------------------------------- auth, players


class TokenInputSerializer(StrictFieldsMixin, serializers.Serializer[Any]):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(max_length=128, trim_whitespace=False, write_only=True)


class TokenOutputSerializer(serializers.Serializer[Any]):
    token = serializers.CharField(read_only=True)


class PlayerCreateInputSerializer(StrictFieldsMixin, serializers.Serializer[Any]):
    username = serializers.CharField(max_length=150, validators=[UnicodeUsernameValidator()])
    password = serializers.CharField(
        max_length=128,
        trim_whitespace=False,
        write_only=True,
        required=False,
        default=None,
        help_text="Leave it out: the owner sets it with a one-time link "
        "(POST /players/{id}/password-link/), so nobody else ever knows it.",
    )
    display_name = serializers.CharField(max_length=40)
    bot = serializers.ChoiceField(
        choices=BotKind.choices,
        required=False,
        default="",
        help_text="Create a bot player of this kind (seated only by staff).",
    )


class PasswordLinkOutputSerializer(serializers.Serializer[Any]):
    url = serializers.URLField(
        read_only=True, help_text="The page where the owner sets the password, once."
    )
    uid = serializers.CharField(read_only=True, help_text="For POST /auth/set-password/.")
    token = serializers.CharField(read_only=True, help_text="For POST /auth/set-password/.")
    expires_at = serializers.DateTimeField(read_only=True)


class PasswordSetInputSerializer(StrictFieldsMixin, serializers.Serializer[Any]):
    uid = serializers.CharField(max_length=64)
    token = serializers.CharField(max_length=128)
    password = serializers.CharField(max_length=128, trim_whitespace=False, write_only=True)


class PasswordChangeInputSerializer(StrictFieldsMixin, serializers.Serializer[Any]):
    old_password = serializers.CharField(max_length=128, trim_whitespace=False, write_only=True)
    new_password = serializers.CharField(max_length=128, trim_whitespace=False, write_only=True)


class PlayerOutputSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField(read_only=True)
    username = serializers.CharField(source="user.username", read_only=True)
    display_name = serializers.CharField(read_only=True)
    bot = serializers.CharField(read_only=True, help_text="Bot kind, or empty for a human.")
    is_staff = serializers.BooleanField(source="user.is_staff", read_only=True)
    created_at = serializers.DateTimeField(read_only=True)


# ----------------------------------------------------------------------------- tables


class TableCreateInputSerializer(StrictFieldsMixin, serializers.Serializer[Any]):
    name = serializers.CharField(max_length=60)
    variant = serializers.ChoiceField(choices=[v.value for v in Variant])
    ante = _chips()
    bring_in = _chips()
    small_bet = _chips()
    big_bet = _chips()
    chip_unit = serializers.IntegerField(
        min_value=1,
        max_value=1_000_000,
        required=False,
        help_text="The smallest chip in play (default 1): the stakes are multiples of it and "
        "tied pots and hi/lo halves are shared in it.",
    )
    seat_count = serializers.IntegerField(min_value=2, max_value=8, default=8)
    low_qualifier = serializers.IntegerField(
        min_value=5,
        max_value=13,
        allow_null=True,
        required=False,
        help_text="Stud hi-lo: the worst low that qualifies (8 = eight or better).",
    )
    open_pair_double = serializers.BooleanField(required=False)
    board_tie = serializers.ChoiceField(choices=[v.value for v in BoardTie], required=False)
    showdown_order = serializers.ChoiceField(
        choices=[v.value for v in ShowdownOrder], required=False
    )
    uncap_heads_up = serializers.BooleanField(required=False)
    burn_cards = serializers.BooleanField(required=False)
    action_seconds = serializers.IntegerField(min_value=1, max_value=3600, required=False)
    pause_ms = serializers.IntegerField(min_value=0, max_value=600_000, required=False)
    buy_in_min = _chips(required=False)
    buy_in_max = _chips(required=False)
    allow_bots = serializers.BooleanField(required=False)
    rake_basis_points = serializers.IntegerField(
        min_value=0, max_value=10_000, required=False, help_text="Rake: 500 = 5% of the pot."
    )
    rake_cap = _chips(required=False, help_text="The most rake a hand (0: no cap).")
    rake_min_pot = _chips(required=False, help_text="No rake on a smaller pot.")
    rake_third_street = serializers.BooleanField(
        required=False, help_text="Rake hands that end on third street too (default: no)."
    )
    club_id = serializers.IntegerField(
        min_value=1,
        max_value=2**63 - 1,
        required=False,
        help_text="The club the table belongs to: its webhook subscriptions hear its hands.",
    )


TABLE_FIELDS = [
    "id",
    "name",
    "kind",
    "club_id",
    "variant",
    "ante",
    "bring_in",
    "small_bet",
    "big_bet",
    "chip_unit",
    "seat_count",
    "low_qualifier",
    "open_pair_double",
    "board_tie",
    "showdown_order",
    "uncap_heads_up",
    "burn_cards",
    "action_seconds",
    "pause_ms",
    "buy_in_min",
    "buy_in_max",
    "allow_bots",
    "rake_basis_points",
    "rake_cap",
    "rake_min_pot",
    "rake_third_street",
    "status",
    "hold_reason",
    "seq",
    "hands_played",
    "created_at",
]


class TableOutputSerializer(serializers.ModelSerializer[Table]):
    class Meta:
        model = Table
        fields = TABLE_FIELDS
        read_only_fields = TABLE_FIELDS


class TableListItemSerializer(TableOutputSerializer):
    seated = serializers.IntegerField(read_only=True, help_text="Seats taken.")

    class Meta(TableOutputSerializer.Meta):
        fields = [*TABLE_FIELDS, "seated"]
        read_only_fields = fields


class SeatOutputSerializer(serializers.Serializer[Any]):
    number = serializers.IntegerField(read_only=True)
    player = serializers.IntegerField(read_only=True, allow_null=True)
    name = serializers.CharField(read_only=True, allow_null=True)
    bot = serializers.BooleanField(read_only=True)
    stack = serializers.IntegerField(read_only=True, help_text="Live stack during a hand.")
    sitting_out = serializers.BooleanField(read_only=True)
    leaving = serializers.BooleanField(read_only=True)


class OptionSerializer(serializers.Serializer[Any]):
    action = serializers.CharField(read_only=True)
    to = serializers.IntegerField(read_only=True, help_text="Your street total after it.")
    chips = serializers.IntegerField(read_only=True, help_text="Chips it costs now.")


class ViewPlayerSerializer(serializers.Serializer[Any]):
    player = serializers.IntegerField(read_only=True, help_text="Index in the hand's lineup.")
    stack = serializers.IntegerField(read_only=True)
    street_bet = serializers.IntegerField(read_only=True)
    in_pot = serializers.IntegerField(read_only=True)
    folded = serializers.BooleanField(read_only=True)
    all_in = serializers.BooleanField(read_only=True)
    shown = serializers.BooleanField(read_only=True)
    mucked = serializers.BooleanField(read_only=True)
    up = serializers.ListField(child=serializers.CharField(allow_null=True), read_only=True)
    down = serializers.ListField(
        child=serializers.CharField(),
        read_only=True,
        help_text="'??' for cards the caller may not see.",
    )
    hand = serializers.DictField(
        child=serializers.CharField(allow_null=True),
        required=False,
        help_text="Names of the best hands; only for five or more cards the caller may see.",
    )


class PotSerializer(serializers.Serializer[Any]):
    amount = serializers.IntegerField(read_only=True)
    eligible = serializers.ListField(child=serializers.IntegerField(), read_only=True)


class AwardSerializer(serializers.Serializer[Any]):
    pot = serializers.IntegerField(read_only=True)
    player = serializers.IntegerField(read_only=True)
    amount = serializers.IntegerField(read_only=True)
    half = serializers.CharField(read_only=True, allow_null=True)
    hand = serializers.CharField(read_only=True, allow_null=True)
    note = serializers.CharField(
        required=False, help_text="Only when no low qualified in a hi-lo pot."
    )


class StakesSerializer(serializers.Serializer[Any]):
    ante = serializers.IntegerField(read_only=True)
    bring_in = serializers.IntegerField(read_only=True)
    small_bet = serializers.IntegerField(read_only=True)
    big_bet = serializers.IntegerField(read_only=True)


class HandViewSerializer(serializers.Serializer[Any]):
    variant = serializers.CharField(read_only=True)
    street = serializers.CharField(read_only=True)
    phase = serializers.CharField(read_only=True)
    stakes = StakesSerializer(read_only=True)
    community = serializers.CharField(read_only=True, allow_null=True)
    pots = PotSerializer(many=True, read_only=True)
    bet_level = serializers.IntegerField(read_only=True)
    to_act = serializers.ListField(child=serializers.IntegerField(), read_only=True)
    to_act_seats = serializers.ListField(child=serializers.IntegerField(), read_only=True)
    players = ViewPlayerSerializer(many=True, read_only=True)
    leaders = serializers.DictField(child=serializers.IntegerField(allow_null=True), read_only=True)
    legal_actions = OptionSerializer(
        many=True, read_only=True, help_text="The caller's options; empty unless it is their turn."
    )
    winners = AwardSerializer(many=True, read_only=True)
    you = serializers.IntegerField(
        required=False, help_text="The caller's index in the lineup; absent for observers."
    )


class LineupEntrySerializer(serializers.Serializer[Any]):
    seat = serializers.IntegerField(read_only=True)
    player = serializers.IntegerField(read_only=True)
    name = serializers.CharField(read_only=True)
    bot = serializers.BooleanField(read_only=True)


class PublishedDealSerializer(serializers.Serializer[Any]):
    """What a hand publishes before its first card, and when its server seed goes public
    (games.engine.fairness describes the scheme)."""

    scheme = serializers.CharField(read_only=True, help_text="The dealing scheme's name.")
    commitment = serializers.CharField(
        read_only=True, help_text="SHA-256 of the server seed, published before it was used."
    )
    client_seeds = serializers.ListField(
        child=serializers.CharField(allow_blank=True),
        read_only=True,
        help_text="The players' client seeds mixed into the shuffle, in lineup order.",
    )
    card_root = serializers.CharField(
        read_only=True, help_text="Merkle root committing every card position (hex)."
    )
    seed = serializers.CharField(
        read_only=True,
        allow_null=True,
        help_text="The server seed (hex) once the reveal policy makes it public, else null.",
    )
    seed_reveal = serializers.ChoiceField(
        choices=["never", "table_closed", "delay"],
        read_only=True,
        help_text="When players see the seed: never, when the table closes, or after a delay.",
    )
    seed_public_from = serializers.DateTimeField(
        read_only=True, allow_null=True, help_text="With a delay: when the seed goes public."
    )


class HandPublicSerializer(PublishedDealSerializer):
    id = serializers.IntegerField(read_only=True)
    number = serializers.IntegerField(read_only=True)
    status = serializers.CharField(read_only=True)
    lineup = LineupEntrySerializer(many=True, read_only=True)
    deadline = serializers.DateTimeField(read_only=True, allow_null=True)
    you = serializers.IntegerField(read_only=True, allow_null=True)
    view = HandViewSerializer(read_only=True)


class TableDetailOutputSerializer(TableOutputSerializer):
    next_commitment = serializers.CharField(
        read_only=True,
        help_text="SHA-256 of the next hand's server seed, drawn already: set your client "
        "seed after reading it and the server cannot have chosen its seed against yours.",
    )
    seats = SeatOutputSerializer(many=True, read_only=True)
    hand = HandPublicSerializer(read_only=True, allow_null=True)

    class Meta(TableOutputSerializer.Meta):
        fields = [*TABLE_FIELDS, "next_commitment", "seats", "hand"]
        read_only_fields = fields


class TopUpInputSerializer(StrictFieldsMixin, serializers.Serializer[Any]):
    amount = _chips(help_text="Chips to add between hands, up to the table's maximum buy-in.")


class SitInputSerializer(StrictFieldsMixin, serializers.Serializer[Any]):
    seat = serializers.IntegerField(min_value=1, max_value=8)
    buy_in = _chips()
    player = serializers.IntegerField(
        min_value=1,
        max_value=MAX_SEQ,
        required=False,
        help_text="Staff only: seat this player (e.g. a bot) instead of yourself.",
    )


class ActInputSerializer(StrictFieldsMixin, serializers.Serializer[Any]):
    action = serializers.ChoiceField(choices=ACTIONS)
    amount = _chips(
        required=False,
        allow_null=True,
        help_text="Your total on this street after a bet/raise/complete; only needed when "
        "more than one amount is legal.",
    )
    seq = serializers.IntegerField(
        min_value=0,
        max_value=MAX_SEQ,
        required=False,
        allow_null=True,
        help_text="The table seq you decided on; a stale one is refused with 409.",
    )


class ActOutputSerializer(serializers.Serializer[Any]):
    seq = serializers.IntegerField(read_only=True)
    action = serializers.CharField(read_only=True)
    to = serializers.IntegerField(read_only=True)
    chips = serializers.IntegerField(read_only=True)


class EventsQuerySerializer(serializers.Serializer[Any]):
    after = serializers.IntegerField(min_value=0, max_value=MAX_SEQ, default=0)
    limit = serializers.IntegerField(
        min_value=1, max_value=500, default=500, help_text="Events per page (at most 500)."
    )


class EventSerializer(serializers.Serializer[Any]):
    seq = serializers.IntegerField(read_only=True)
    hand = serializers.IntegerField(read_only=True, allow_null=True)
    kind = serializers.CharField(read_only=True)
    data = serializers.JSONField(read_only=True)


class EventsOutputSerializer(serializers.Serializer[Any]):
    seq = serializers.IntegerField(
        read_only=True, help_text="The table's seq when read; the events stop there."
    )
    events = EventSerializer(many=True, read_only=True)
    has_more = serializers.BooleanField(
        read_only=True, help_text="More events up to seq follow: ask again with next_after."
    )
    next_after = serializers.IntegerField(
        read_only=True, help_text="The after of the next page (the last event's seq)."
    )


# ----------------------------------------------------------------------------- hands


class HandOutputSerializer(HandPublicSerializer):
    table = serializers.IntegerField(read_only=True)
    started_at = serializers.DateTimeField(read_only=True)
    finished_at = serializers.DateTimeField(read_only=True, allow_null=True)


class HistoryQuerySerializer(serializers.Serializer[Any]):
    format = serializers.ChoiceField(choices=["json", "phh"], default="json")


class HandHistoryOutputSerializer(PublishedDealSerializer):
    hand = serializers.IntegerField(read_only=True)
    table = serializers.IntegerField(read_only=True)
    number = serializers.IntegerField(read_only=True)
    lineup = LineupEntrySerializer(many=True, read_only=True)
    header = serializers.JSONField(read_only=True)
    log = serializers.ListField(child=serializers.JSONField(), read_only=True)


class CardProofSerializer(serializers.Serializer[Any]):
    position = serializers.IntegerField(read_only=True, help_text="0 = first card dealt.")
    card = serializers.CharField(read_only=True)
    salt = serializers.CharField(read_only=True, help_text="This position's salt (hex).")
    path = serializers.ListField(
        child=serializers.CharField(),
        read_only=True,
        help_text="RFC 9162 audit path: sibling hashes from the leaf up (hex).",
    )
    kind = serializers.CharField(read_only=True, help_text="deal, or burn (staff only).")
    player = serializers.IntegerField(
        read_only=True, allow_null=True, help_text="Lineup index; null: community or burn."
    )
    up = serializers.BooleanField(read_only=True)
    ok = serializers.BooleanField(read_only=True, help_text="The proof leads to card_root.")


class MismatchSerializer(serializers.Serializer[Any]):
    position = serializers.IntegerField(read_only=True)
    dealt = serializers.CharField(read_only=True)
    deck = serializers.CharField(read_only=True)


class SeedCheckSerializer(serializers.Serializer[Any]):
    commitment_ok = serializers.BooleanField(read_only=True)
    root_ok = serializers.BooleanField(
        read_only=True, help_text="The seed and client seeds rebuild card_root."
    )
    cards_checked = serializers.IntegerField(read_only=True)
    mismatches = MismatchSerializer(many=True, read_only=True)
    ok = serializers.BooleanField(read_only=True)


class DealingRecordSerializer(serializers.Serializer[Any]):
    """What ``stud verify file`` replays the dealing order from, and where the hand's start
    (its card root) is in the table's log."""

    hand = serializers.IntegerField(read_only=True)
    table = serializers.IntegerField(read_only=True)
    number = serializers.IntegerField(read_only=True)
    start_seq = serializers.IntegerField(
        read_only=True,
        allow_null=True,
        help_text="The seq of the hand's hand_start event in the table's log (its card_root).",
    )
    lineup = LineupEntrySerializer(many=True, read_only=True)
    header = serializers.JSONField(read_only=True)


class HandVerifyOutputSerializer(DealingRecordSerializer, PublishedDealSerializer):
    you = serializers.IntegerField(
        read_only=True, allow_null=True, help_text="The caller's lineup index; null: observer."
    )
    log = serializers.ListField(
        child=serializers.JSONField(),
        read_only=True,
        help_text="The hand's log as the caller may see it (the history's).",
    )
    cards = CardProofSerializer(
        many=True, read_only=True, help_text="A proof of each card the caller may see."
    )
    cards_ok = serializers.BooleanField(read_only=True)
    seed_check = SeedCheckSerializer(
        read_only=True, allow_null=True, help_text="Null until the server seed is public."
    )
    ok = serializers.BooleanField(read_only=True)


class HandAuditOutputSerializer(DealingRecordSerializer):
    started_at = serializers.DateTimeField(read_only=True)
    finished_at = serializers.DateTimeField(read_only=True, allow_null=True)
    scheme = serializers.CharField(read_only=True)
    commitment = serializers.CharField(read_only=True)
    client_seeds = serializers.ListField(
        child=serializers.CharField(allow_blank=True), read_only=True
    )
    card_root = serializers.CharField(read_only=True)
    seed = serializers.CharField(read_only=True, help_text="The server seed (hex).")
    log = serializers.ListField(
        child=serializers.JSONField(), read_only=True, help_text="Every card, burns included."
    )
    cards = CardProofSerializer(many=True, read_only=True)
    seed_check = SeedCheckSerializer(read_only=True, allow_null=True)


class AuditLogQuerySerializer(serializers.Serializer[Any]):
    hand = serializers.IntegerField(min_value=1, max_value=MAX_SEQ, required=False)
    limit = serializers.IntegerField(min_value=1, max_value=1000, default=200)


class HandAuditLogSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField(read_only=True)
    hand = serializers.IntegerField(source="hand_id", read_only=True)
    user = serializers.IntegerField(source="user_id", read_only=True)
    username = serializers.CharField(source="user.username", read_only=True)
    format = serializers.CharField(read_only=True)
    at = serializers.DateTimeField(read_only=True)


class ClientSeedInputSerializer(StrictFieldsMixin, serializers.Serializer[Any]):
    commitment = serializers.RegexField(
        r"\A[0-9a-fA-F]{64}\Z",
        help_text="The table's next_commitment as you read it: the seed counts only for the "
        "hand whose server seed that commits to.",
    )
    client_seed = serializers.CharField(
        max_length=CLIENT_SEED_MAX,
        trim_whitespace=False,
        help_text="Text only you chose after reading the commitment (the table page sends 128 "
        "random bits); secret until the hand starts, then published in its hand_start event.",
    )


class ClientSeedOutputSerializer(serializers.Serializer[Any]):
    commitment = serializers.CharField(read_only=True)
    client_seed = serializers.CharField(read_only=True)
    hand_number = serializers.IntegerField(
        read_only=True, help_text="The hand it counts for (the table's hand number)."
    )
