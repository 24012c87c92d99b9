"""Players, tables, seats, hands and the table's append-only event log.

The event log (``TableEvent``) is the source of truth for every hand: the engine state is
rebuilt from a hand's events; ``Hand.snapshot`` is only a cache of it. Models are thin:
fields, choices and constraints. Business logic lives in ``games.services``.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from games.engine.rake import RakeRule
from games.engine.rules import BoardTie, Rules, ShowdownOrder, Stakes, Variant


class BotKind(models.TextChoices):
    RANDOM = "random", _("random legal")
    STATION = "station", _("calling station")
    RULES = "rules", _("rule-based")


class Player(models.Model):
    """A person (or a labelled bot) who can sit at tables."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="player"
    )
    display_name = models.CharField(max_length=40)
    bot = models.CharField(max_length=10, choices=BotKind.choices, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    # The pages' language the player chose (settings.LANGUAGES), "" for none: it beats the
    # browser's cookie and Accept-Language (web.language).
    language = models.CharField(max_length=8, blank=True, default="")

    @property
    def is_bot(self) -> bool:
        return bool(self.bot)

    def __str__(self) -> str:
        return f"{self.display_name} (bot)" if self.bot else self.display_name


def new_server_seed() -> bytes:
    """A fresh secret server seed for a hand's shuffle (games.engine.fairness)."""
    return secrets.token_bytes(32)


class TableKind(models.TextChoices):
    RING = "ring", _("ring game")
    TOURNAMENT = "tournament", _("tournament table")


class TableStatus(models.TextChoices):
    OPEN = "open", _("open")
    PAUSED = "paused", _("paused")
    CLOSED = "closed", _("closed")


class HoldReason(models.TextChoices):
    """Why a table deals no new hand (``Table.hold_reason``); the hand running plays on."""

    NONE = "", _("not held")
    """Not held: the table deals its next hand when due."""
    LIVE = "live: dealt by the club"
    """A live table: the club's dealer deals it, never our service."""
    TOURNAMENT_PAUSED = "tournament paused"
    """The director paused the tournament."""
    BREAK = "break"
    """The tournament's clock is on a break."""
    TABLE_BREAKING = "table breaking"
    """The tournament is breaking the table: its players move to others."""
    WAITING_FOR_PLAYERS = "waiting for players to move in"
    """Balancing moves players here, who are still in a hand at their old table."""
    BALANCING = "waiting for table balancing"
    """The tournament is out of balance: this table gives or takes a player once the other
    table's hand is over, and deals no hand before."""
    HAND_FOR_HAND = "hand-for-hand: waiting for the other tables"
    """Hand-for-hand: the table played its hand of the round; the others have not."""
    AFTER_HAND = "tournament: after the hand"
    """The hand ended; the tournament's update pass decides what comes next."""
    TOURNAMENT_OVER = "tournament over"
    """The tournament is over: the table closes once its hand ends."""


class Table(models.Model):
    """A table: its game, stakes, house rules, clock and buy-in limits."""

    name = models.CharField(max_length=60)
    kind = models.CharField(max_length=12, choices=TableKind.choices, default=TableKind.RING)
    # the club it belongs to (a club's tournament's tables, a ring table staff gave a club):
    # the club's webhook subscriptions hear its hands; null: site-wide
    club = models.ForeignKey(
        "clubs.Club", on_delete=models.PROTECT, null=True, blank=True, related_name="tables"
    )
    variant = models.CharField(max_length=8, choices=[(v.value, v.value) for v in Variant])
    ante = models.PositiveIntegerField()
    bring_in = models.PositiveIntegerField()
    small_bet = models.PositiveIntegerField()
    big_bet = models.PositiveIntegerField()
    # the smallest chip in play: ties and hi/lo halves are shared in it (docs/rules.md 8)
    chip_unit = models.PositiveIntegerField(default=1)
    seat_count = models.PositiveSmallIntegerField(default=8)
    # house rules (docs/rules.md), each with the rule book's default
    low_qualifier = models.PositiveSmallIntegerField(null=True, blank=True, default=8)
    open_pair_double = models.BooleanField(default=True)
    board_tie = models.CharField(
        max_length=8, choices=[(v.value, v.value) for v in BoardTie], default=BoardTie.SEAT.value
    )
    showdown_order = models.CharField(
        max_length=16,
        choices=[(v.value, v.value) for v in ShowdownOrder],
        default=ShowdownOrder.LAST_AGGRESSOR.value,
    )
    uncap_heads_up = models.BooleanField(default=False)
    burn_cards = models.BooleanField(default=False)
    # clock and pacing
    action_seconds = models.PositiveIntegerField(default=30)
    pause_ms = models.PositiveIntegerField(default=2000)
    # ring games
    buy_in_min = models.PositiveIntegerField(default=0)
    buy_in_max = models.PositiveIntegerField(default=0)
    allow_bots = models.BooleanField(default=False)
    # rake (ring games): basis points of the pot (500 = 5%), a cap a hand (0: none), no rake
    # below a minimum pot, none when the hand ends on third street unless rake_third_street
    rake_basis_points = models.PositiveIntegerField(default=0)
    rake_cap = models.PositiveIntegerField(default=0)
    rake_min_pot = models.PositiveIntegerField(default=0)
    rake_third_street = models.BooleanField(default=False)
    status = models.CharField(max_length=8, choices=TableStatus.choices, default=TableStatus.OPEN)
    # stops new hands while set (a HoldReason: live, or the tournament side's break,
    # hand-for-hand, waiting for a move...)
    hold_reason = models.CharField(max_length=80, blank=True, default=HoldReason.NONE)
    # the last event's sequence number; every change to the table bumps it
    seq = models.BigIntegerField(default=0)
    hands_played = models.PositiveIntegerField(default=0)
    # the next hand's secret server seed, drawn (and its SHA-256 public) before that hand's
    # client seeds are sent, so the server cannot choose it to suit them
    next_seed = models.BinaryField(max_length=32, default=new_server_seed, editable=False)
    # the client seeds seated players sent for the next hand, each naming next_seed's
    # commitment (player id as text -> seed); secret until that hand starts, then emptied
    next_client_seeds = models.JSONField(default=dict, blank=True, editable=False)
    next_hand_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(seat_count__gte=2, seat_count__lte=8), name="table_seat_count_2_8"
            ),
            models.CheckConstraint(
                condition=Q(
                    bring_in__gt=0, bring_in__lt=F("small_bet"), small_bet__lte=F("big_bet")
                ),
                name="table_stakes_ordered",
            ),
            models.CheckConstraint(
                condition=Q(buy_in_min__lte=F("buy_in_max")), name="table_buy_in_range"
            ),
            models.CheckConstraint(condition=Q(chip_unit__gte=1), name="table_chip_unit_positive"),
            models.CheckConstraint(
                condition=Q(rake_basis_points__lte=10_000), name="table_rake_at_most_all"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.variant} {self.small_bet}/{self.big_bet})"

    def engine_rules(self) -> Rules:
        return Rules(
            variant=Variant(self.variant),
            low_qualifier=self.low_qualifier,
            open_pair_double=self.open_pair_double,
            board_tie=BoardTie(self.board_tie),
            showdown_order=ShowdownOrder(self.showdown_order),
            uncap_heads_up=self.uncap_heads_up,
            burn_cards=self.burn_cards,
        )

    def engine_stakes(self) -> Stakes:
        return Stakes(self.ante, self.bring_in, self.small_bet, self.big_bet, self.chip_unit)

    def engine_rake(self) -> RakeRule:
        """The table's rake (none at tournament tables)."""
        if self.kind != TableKind.RING:
            return RakeRule()
        return RakeRule(
            self.rake_basis_points, self.rake_cap, self.rake_min_pot, self.rake_third_street
        )


class Seat(models.Model):
    """A seat at a table; ``stack`` is the player's chips as of the start of the current hand
    (a hand in progress holds the live amounts until it is settled)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField()
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, null=True, blank=True, related_name="seats"
    )
    stack = models.PositiveBigIntegerField(default=0)
    sitting_out = models.BooleanField(default=False)
    leaving = models.BooleanField(default=False)

    class Meta:
        ordering = ["table", "number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="seat_unique_number"),
            models.UniqueConstraint(
                fields=["table", "player"],
                condition=Q(player__isnull=False),
                name="seat_one_per_player",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table_id}/{self.number}"


class HandStatus(models.TextChoices):
    RUNNING = "running", _("running")
    FINISHED = "finished", _("finished")


class Hand(models.Model):
    """One hand at a table. Its events are the source of truth; ``snapshot`` caches the
    engine state (header + log) and is always rebuildable from them."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="hands")
    number = models.PositiveIntegerField()
    status = models.CharField(max_length=10, choices=HandStatus.choices, default=HandStatus.RUNNING)
    # who played, in engine order: [{"seat": n, "player": id, "name": str, "bot": bool}]
    lineup = models.JSONField()
    header = models.JSONField()
    snapshot = models.JSONField()
    # provably fair dealing (games.engine.fairness): the server seed stays secret (staff see
    # it on the audit endpoint, players once the reveal policy allows); its SHA-256, the
    # players' client seeds and the Merkle root of every card position are public from the start
    seed = models.BinaryField(max_length=32, editable=False)
    commitment = models.CharField(max_length=64)
    client_seeds = models.JSONField(default=list)
    card_root = models.CharField(max_length=64, blank=True, default="")
    cards_used = models.PositiveSmallIntegerField(default=0)
    # what the house took from the pot at settlement (ring games)
    rake = models.PositiveBigIntegerField(default=0)
    # when the hand next needs attention: a player's clock, or the worker's grace period
    deadline = models.DateTimeField(null=True, blank=True)
    clock_decision = models.PositiveIntegerField(default=0)
    started_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="hand_unique_number"),
            models.UniqueConstraint(
                fields=["table"],
                condition=Q(status="running"),
                name="hand_one_running_per_table",
            ),
        ]
        indexes = [models.Index(fields=["status", "deadline"], name="hand_deadline_idx")]

    def __str__(self) -> str:
        return f"table {self.table_id} hand {self.number}"


class TableEvent(models.Model):
    """The table's append-only log. ``seq`` is the table's sequence number; hand events carry
    the engine event in ``data`` (visibility is applied when read, by ``games.selectors``
    through the engine's view builder ``games.engine.views``)."""

    # A hand writes a hundred events or more, so each row's upkeep counts. The primary key is
    # (table, seq), the key every read of the log uses: a row costs two index entries (that
    # key's and the hand's) and no sequence step. Neither foreign key is a database
    # constraint: checking one runs a query per row at commit, two of them cost the database
    # 40% of writing a hand (1.0 of 2.5 ms). The log is written by one path only
    # (``games.services.table_writes``), under the table's lock, with the ids of the table
    # and the hand it holds; neither row is ever deleted but through the ORM, which deletes
    # their events first (CASCADE). ``tests/games/test_event_log_keys.py`` checks both.
    table = models.ForeignKey(
        Table,
        on_delete=models.CASCADE,
        related_name="events",
        db_index=False,
        db_constraint=False,
    )
    seq = models.BigIntegerField()
    hand = models.ForeignKey(
        Hand,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="events",
        db_constraint=False,
    )
    kind = models.CharField(max_length=16)
    data = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)
    pk = models.CompositePrimaryKey("table", "seq")

    class Meta:
        ordering = ["table", "seq"]

    def __str__(self) -> str:
        return f"{self.table_id}#{self.seq} {self.kind}"


class HandAudit(models.Model):
    """One staff access to a hand's full record (all cards, the seed), for disputes."""

    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="audits")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="hand_audits"
    )
    format = models.CharField(max_length=8)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-at", "-id"]

    def __str__(self) -> str:
        return f"hand {self.hand_id} audited by {self.user_id} at {self.at:%Y-%m-%d %H:%M:%S}"
