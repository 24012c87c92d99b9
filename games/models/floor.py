"""The ring-game floor: games, their tables, wait lists, seat offers and moves.

A ``Game`` is a variant at given stakes (and house rules); its tables are ring ``Table`` rows
linked through ``GameTable``. Players wait on the game's list (``WaitEntry``); an open seat at
one of its tables is held for exactly one pending ``Offer`` at a time (a database constraint),
made to the next name on the list, to a must-move player or to a seat-change request.
Models are thin; the floor's rules live in ``games.services.waitlist`` (the lists),
``games.services.offers`` (offers and moves) and ``games.services.floor_tables`` (tables).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from games.engine.rules import Variant
from games.models.tables import Player, Table

VARIANTS = [(v.value, v.value) for v in Variant]


class GameMode(models.TextChoices):
    ONLINE = "online", _("online (our tables deal)")
    LIVE = "live", _("live (a club's dealers)")


class GameStatus(models.TextChoices):
    RUNNING = "running", _("running")
    CLOSED = "closed", _("closed")


class Game(models.Model):
    """A ring game: what its tables deal, how its list is run, when tables open and close."""

    name = models.CharField(max_length=60)
    mode = models.CharField(max_length=8, choices=GameMode.choices, default=GameMode.ONLINE)
    status = models.CharField(max_length=8, choices=GameStatus.choices, default=GameStatus.RUNNING)
    variant = models.CharField(max_length=8, choices=VARIANTS)
    ante = models.PositiveIntegerField()
    bring_in = models.PositiveIntegerField()
    small_bet = models.PositiveIntegerField()
    big_bet = models.PositiveIntegerField()
    # what every table of the game is created with (house rules are checked by table_create)
    table_options = models.JSONField(default=dict, blank=True)
    seat_count = models.PositiveSmallIntegerField(default=8)
    buy_in_min = models.PositiveIntegerField(default=0)
    buy_in_max = models.PositiveIntegerField(default=0)
    # the list
    offer_seconds = models.PositiveIntegerField(default=120)
    misses_allowed = models.PositiveSmallIntegerField(
        default=1, help_text="Offers a player may let expire or decline and keep their place."
    )
    # opening and closing tables
    open_at_list_length = models.PositiveSmallIntegerField(
        default=0, help_text="Open a new table when the list is this long and no seat is free."
    )
    max_tables = models.PositiveSmallIntegerField(default=8)
    short_players = models.PositiveSmallIntegerField(
        default=0, help_text="A table with fewer players than this is short-handed."
    )
    short_seconds = models.PositiveIntegerField(
        default=600, help_text="How long a table may stay short-handed before it breaks."
    )
    # rotation by orbit (docs/rules.md 11): empty means the game never changes
    rotation = models.JSONField(default=list, blank=True)
    rotate_every_hands = models.PositiveSmallIntegerField(
        default=0, help_text="Hands per game in the rotation; 0 means one orbit."
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(buy_in_min__lte=models.F("buy_in_max")), name="game_buy_in_range"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.variant} {self.small_bet}/{self.big_bet})"


class TableRole(models.TextChoices):
    MAIN = "main", _("main game")
    MUST_MOVE = "must_move", _("must-move game")


class PendingTableStatus(models.TextChoices):
    OPEN = "open", _("open")
    PROPOSED = "proposed", _("proposed (live: staff confirm)")
    BREAKING = "breaking", _("breaking (short-handed)")
    CLOSED = "closed", _("closed")


class GameTable(models.Model):
    """A ring table of a game, its role (main or must-move) and its floor state."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="game_tables")
    table = models.OneToOneField(
        Table, on_delete=models.CASCADE, null=True, blank=True, related_name="game_table"
    )
    role = models.CharField(max_length=10, choices=TableRole.choices, default=TableRole.MAIN)
    feeds = models.ForeignKey(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="fed_by"
    )
    status = models.CharField(
        max_length=10, choices=PendingTableStatus.choices, default=PendingTableStatus.OPEN
    )
    short_since = models.DateTimeField(null=True, blank=True)
    # rotation: index into game.rotation, hands dealt in this game and the orbit's length
    rotation_index = models.PositiveSmallIntegerField(default=0)
    rotation_hands = models.PositiveIntegerField(default=0)
    rotation_length = models.PositiveSmallIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.game_id}/{self.table_id} {self.role}"


class EntryStatus(models.TextChoices):
    WAITING = "waiting", _("waiting")
    SEATED = "seated", _("seated")
    LEFT = "left", _("left the list")
    REMOVED = "removed", _("removed by staff")
    DROPPED = "dropped", _("dropped after missed offers")


class WaitEntry(models.Model):
    """A name on a game's list: a player, or a live walk-in known only by name."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, null=True, blank=True, related_name="wait_entries"
    )
    name = models.CharField(max_length=40)
    table = models.ForeignKey(
        Table, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    # the list's order: ascending; staff reorders rewrite it
    rank = models.BigIntegerField()
    status = models.CharField(
        max_length=8, choices=EntryStatus.choices, default=EntryStatus.WAITING
    )
    misses = models.PositiveSmallIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["game", "player"],
                condition=Q(status="waiting", player__isnull=False),
                name="entry_one_waiting_per_player",
            ),
            models.UniqueConstraint(
                fields=["game", "rank"], condition=Q(status="waiting"), name="entry_unique_rank"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game_id}:{self.name}"


class OfferKind(models.TextChoices):
    LIST = "list", _("wait list")
    MUST_MOVE = "must_move", _("must-move to the main game")
    CHANGE = "change", _("seat or table change")
    BREAK = "break", _("table breaking")


class OfferStatus(models.TextChoices):
    PENDING = "pending", _("pending")
    ACCEPTED = "accepted", _("accepted")
    DECLINED = "declined", _("declined")
    EXPIRED = "expired", _("expired")
    WITHDRAWN = "withdrawn", _("withdrawn")


class Offer(models.Model):
    """A seat held for one name until ``expires_at``: one pending offer per seat and per
    entry at a time, guaranteed by the database."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="offers")
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="offers")
    seat = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=10, choices=OfferKind.choices, default=OfferKind.LIST)
    entry = models.ForeignKey(
        WaitEntry, on_delete=models.CASCADE, null=True, blank=True, related_name="offers"
    )
    # a move (must-move, change, break): the player who moves, from where
    mover = models.ForeignKey(
        Player, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    from_table = models.ForeignKey(
        Table, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    status = models.CharField(
        max_length=10, choices=OfferStatus.choices, default=OfferStatus.PENDING
    )
    # the seat's vacancy: the seq of the table event that emptied it (0: a new table's seat),
    # and when that happened; a name that missed an offer is not called again for it
    vacancy = models.BigIntegerField(default=0)
    opened_at = models.DateTimeField()
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["table", "seat"], condition=Q(status="pending"), name="offer_one_per_seat"
            ),
            models.UniqueConstraint(
                fields=["entry"], condition=Q(status="pending"), name="offer_one_per_entry"
            ),
            models.UniqueConstraint(
                fields=["mover"], condition=Q(status="pending"), name="offer_one_per_mover"
            ),
        ]
        indexes = [models.Index(fields=["status", "expires_at"], name="offer_deadline_idx")]

    def __str__(self) -> str:
        return f"offer {self.table_id}/{self.seat} {self.status}"


class ChangeStatus(models.TextChoices):
    WAITING = "waiting", _("waiting")
    DONE = "done", _("done")
    CANCELLED = "cancelled", _("cancelled")


class SeatChange(models.Model):
    """A seated player's request for another seat or table of the same game."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="changes")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    from_table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="+")
    to_table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="+")
    to_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    status = models.CharField(
        max_length=10, choices=ChangeStatus.choices, default=ChangeStatus.WAITING
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["player", "from_table"],
                condition=Q(status="waiting"),
                name="change_one_per_player_table",
            ),
        ]


class FloorLog(models.Model):
    """What the floor did to a list, and why: joins, offers, reorders, removals."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="log")
    entry = models.ForeignKey(
        WaitEntry, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    kind = models.CharField(max_length=16)
    data = models.JSONField(default=dict)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
