"""Tournaments: ante schedules, the tournament, its entries, tables, moves and event log.

Models are thin: fields, choices and constraints; the rules live in ``tourney.services``.

Money and chips are integers. A price includes its fee: ``buy_in`` 110 with ``fee`` 10 puts
100 in the prize pool (the same for re-entries, rebuys and add-ons). Tournament chips sit on
the ``games.Seat`` rows of the tournament's tables, online and live alike (live, they are the
counts staff report), so there is one place to read a player's chips.
"""

from __future__ import annotations

from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from games.models import Hand, Player, Table

GAME_CHOICES = [("stud_hi", "stud_hi"), ("stud_8", "stud_8"), ("razz", "razz")]


class AnteSchedule(models.Model):
    """A named list of levels and breaks (staff edit it; the service can generate one)."""

    name = models.CharField(max_length=80)
    # the club whose directors wrote it, whose tournaments alone may use it; none: the
    # house's (staff's), for any tournament
    club = models.ForeignKey(
        "clubs.Club", on_delete=models.PROTECT, null=True, blank=True, related_name="schedules"
    )
    chip_unit = models.PositiveIntegerField(default=1)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(chip_unit__gte=1), name="schedule_chip_unit_positive"
            )
        ]

    def __str__(self) -> str:
        return self.name


class ScheduleEntry(models.Model):
    """One level (game and stakes) or one break, at ``position`` 0, 1, ... of its schedule.

    A break has ``is_break`` set and no game or stakes (all zero)."""

    schedule = models.ForeignKey(AnteSchedule, on_delete=models.CASCADE, related_name="entries")
    position = models.PositiveSmallIntegerField()
    is_break = models.BooleanField(default=False)
    game = models.CharField(max_length=8, choices=GAME_CHOICES, blank=True, default="")
    ante = models.PositiveIntegerField(default=0)
    bring_in = models.PositiveIntegerField(default=0)
    small_bet = models.PositiveIntegerField(default=0)
    big_bet = models.PositiveIntegerField(default=0)
    minutes = models.PositiveIntegerField()

    class Meta:
        ordering = ["schedule", "position"]
        constraints = [
            models.UniqueConstraint(
                fields=["schedule", "position"], name="schedule_entry_position"
            ),
            models.CheckConstraint(condition=Q(minutes__gte=1), name="schedule_entry_minutes"),
            models.CheckConstraint(
                condition=Q(is_break=True, game="", small_bet=0)
                | Q(
                    is_break=False,
                    game__in=["stud_hi", "stud_8", "razz"],
                    bring_in__gt=0,
                    bring_in__lt=F("small_bet"),
                    small_bet__lte=F("big_bet"),
                ),
                name="schedule_entry_level_or_break",
            ),
        ]

    def __str__(self) -> str:
        if self.is_break:
            return f"break {self.minutes} min"
        return f"{self.game} {self.ante}/{self.bring_in}/{self.small_bet}/{self.big_bet}"


class Mode(models.TextChoices):
    ONLINE = "online", _("online (our tables deal)")
    LIVE = "live", _("live (a club's dealers)")


class Status(models.TextChoices):
    REGISTERING = "registering", _("registering")
    RUNNING = "running", _("running")
    PAUSED = "paused", _("paused")
    FINISHED = "finished", _("finished")
    CANCELLED = "cancelled", _("cancelled")


class BreakOrder(models.TextChoices):
    HIGHEST_FIRST = "highest_first", _("highest table number first")
    RANDOM = "random", _("random")


class BountyKind(models.TextChoices):
    FIXED = "fixed", _("fixed: paid whole to whoever knocks the player out")
    PROGRESSIVE = (
        "progressive",
        _("progressive: half to the knocker's pocket, half onto their head"),
    )


class Tournament(models.Model):
    """A tournament: its settings, its clock (deadlines in the database) and its results."""

    name = models.CharField(max_length=80)
    # the club that runs it (its directors may run it); none: only staff
    club = models.ForeignKey(
        "clubs.Club", on_delete=models.PROTECT, null=True, blank=True, related_name="tournaments"
    )
    mode = models.CharField(max_length=8, choices=Mode.choices, default=Mode.ONLINE)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.REGISTERING)
    # money (a price includes its fee) and chips
    buy_in = models.PositiveIntegerField()
    fee = models.PositiveIntegerField(default=0)
    # the part of each buy-in (and re-entry) put on the entry's head
    # (tourney.services.steps.knockouts)
    bounty = models.PositiveIntegerField(default=0)
    bounty_kind = models.CharField(max_length=12, choices=BountyKind.choices, default="fixed")
    starting_stack = models.PositiveIntegerField()
    chip_unit = models.PositiveIntegerField(default=1)
    table_size = models.PositiveSmallIntegerField(default=8)
    schedule = models.ForeignKey(AnteSchedule, on_delete=models.PROTECT, related_name="tournaments")
    # registration windows, in levels played (1: until the end of level 1)
    late_reg_levels = models.PositiveSmallIntegerField(default=0)
    re_entry_max = models.PositiveSmallIntegerField(default=0)
    re_entry_levels = models.PositiveSmallIntegerField(default=0)
    rebuy_max = models.PositiveSmallIntegerField(default=0)
    rebuy_levels = models.PositiveSmallIntegerField(default=0)
    rebuy_price = models.PositiveIntegerField(default=0)
    rebuy_fee = models.PositiveIntegerField(default=0)
    rebuy_chips = models.PositiveIntegerField(default=0)
    add_on_price = models.PositiveIntegerField(default=0)
    add_on_fee = models.PositiveIntegerField(default=0)
    add_on_chips = models.PositiveIntegerField(default=0)
    # the add-on is offered until the end of this level (0: no add-on)
    add_on_level = models.PositiveSmallIntegerField(default=0)
    # pacing of the tables and of the clock (a schedule minute lasts minute_seconds: 60,
    # except in demos and tests that run a whole tournament in minutes)
    scheduled_start = models.DateTimeField(null=True, blank=True)
    action_seconds = models.PositiveIntegerField(default=30)
    pause_ms = models.PositiveIntegerField(default=2000)
    minute_seconds = models.PositiveIntegerField(default=60)
    # the clock: index into the schedule's entries and that entry's deadline
    level_index = models.PositiveSmallIntegerField(default=0)
    level_ends_at = models.DateTimeField(null=True, blank=True)
    paused_remaining_ms = models.PositiveBigIntegerField(null=True, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    draw_seed = models.CharField(max_length=64, blank=True, default="")
    # balancing (tourney.planning.balancing.BalanceConfig)
    break_order = models.CharField(
        max_length=16, choices=BreakOrder.choices, default=BreakOrder.HIGHEST_FIRST
    )
    balance_threshold = models.PositiveSmallIntegerField(null=True, blank=True)
    # payouts: percentages by place as decimal strings, or null for the default structure
    payout_percentages = models.JSONField(null=True, blank=True)
    prize_pool = models.PositiveBigIntegerField(default=0)
    # eliminations are numbered in groups (one hand, or one hand-for-hand round)
    bust_groups = models.PositiveIntegerField(default=0)
    hand_for_hand = models.BooleanField(default=False)
    hand_for_hand_group = models.PositiveIntegerField(default=0)
    # an agreed deal: {"entries": {entry_id: amount}, "method": ...}
    deal = models.JSONField(null=True, blank=True)
    # the director's toolkit (tourney.services.commands.director_*): the smallest chip in play
    # after colour-ups (null: chip_unit, which stays the unit prizes are paid in); chips put in or
    # taken out of play by the director (chip races, disqualifications, corrections), each
    # logged with its "chips_delta"; late registration closed by hand
    smallest_chip = models.PositiveIntegerField(null=True, blank=True)
    chips_adjusted = models.BigIntegerField(default=0)
    late_reg_closed = models.BooleanField(default=False)
    # an unscheduled break: running until break_ends_at, or waiting for the hands in progress
    # (break_pending_minutes); the level's time left resumes after it
    break_ends_at = models.DateTimeField(null=True, blank=True)
    break_pending_minutes = models.PositiveIntegerField(null=True, blank=True)
    break_level_left_ms = models.PositiveBigIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(table_size__gte=2, table_size__lte=8), name="tournament_table_size_2_8"
            ),
            models.CheckConstraint(
                condition=Q(fee__lte=F("buy_in")), name="tournament_fee_in_price"
            ),
            models.CheckConstraint(
                condition=Q(bounty__lte=F("buy_in") - F("fee")),
                name="tournament_bounty_in_price",
            ),
            models.CheckConstraint(
                condition=Q(rebuy_fee__lte=F("rebuy_price")), name="tournament_rebuy_fee"
            ),
            models.CheckConstraint(
                condition=Q(add_on_fee__lte=F("add_on_price")), name="tournament_add_on_fee"
            ),
            models.CheckConstraint(
                condition=Q(starting_stack__gte=1, chip_unit__gte=1, minute_seconds__gte=1),
                name="tournament_positive_amounts",
            ),
        ]

    @property
    def unit_in_play(self) -> int:
        """The smallest chip in play: the chip unit, or the one of the last colour-up."""
        return self.smallest_chip or self.chip_unit

    def __str__(self) -> str:
        return self.name


SETTINGS = (
    "name",
    "club_id",
    "mode",
    "buy_in",
    "fee",
    "bounty",
    "bounty_kind",
    "starting_stack",
    "chip_unit",
    "table_size",
    "schedule_id",
    "late_reg_levels",
    "re_entry_max",
    "re_entry_levels",
    "rebuy_max",
    "rebuy_levels",
    "rebuy_price",
    "rebuy_fee",
    "rebuy_chips",
    "add_on_price",
    "add_on_fee",
    "add_on_chips",
    "add_on_level",
    "scheduled_start",
    "action_seconds",
    "pause_ms",
    "minute_seconds",
    "break_order",
    "balance_threshold",
    "payout_percentages",
)
"""The settings staff choose when creating or configuring a tournament."""


class EntryStatus(models.TextChoices):
    REGISTERED = "registered", _("registered, waiting for the draw")
    PLAYING = "playing", _("seated")
    ELIMINATED = "eliminated", _("eliminated")
    WINNER = "winner", _("winner (the last player left)")
    UNREGISTERED = "unregistered", _("unregistered (refunded)")
    REFUNDED = "refunded", _("refunded (tournament cancelled)")


ACTIVE_ENTRY = Q(status__in=[EntryStatus.REGISTERED, EntryStatus.PLAYING])


PAID = [EntryStatus.REGISTERED, EntryStatus.PLAYING, EntryStatus.ELIMINATED, EntryStatus.WINNER]
"""The entries that paid and were not refunded."""


class Entry(models.Model):
    """One buy-in of a player (``number`` 1, then 2, 3... for re-entries)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="entries")
    number = models.PositiveSmallIntegerField(default=1)
    status = models.CharField(
        max_length=12, choices=EntryStatus.choices, default=EntryStatus.REGISTERED
    )
    rebuys = models.PositiveSmallIntegerField(default=0)
    add_ons = models.PositiveSmallIntegerField(default=0)
    # elimination: its group, chips at the start of the bust hand, shared (hand-for-hand)
    bust_group = models.PositiveIntegerField(null=True, blank=True)
    bust_stack = models.PositiveBigIntegerField(null=True, blank=True)
    bust_shared = models.BooleanField(default=False)
    # the table number: busts of one group at one table were on one hand (ranked by stacks)
    bust_table = models.PositiveSmallIntegerField(null=True, blank=True)
    bust_hand = models.ForeignKey(
        Hand, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    # when the bust happened: the bust hand's end (online), the report (live); busts are
    # placed in this order, whatever order the update passes saw them in
    bust_at = models.DateTimeField(null=True, blank=True)
    place = models.PositiveIntegerField(null=True, blank=True)
    # the place (and prize) logged as final (``places_final``): never changed afterwards
    place_final = models.BooleanField(default=False)
    prize = models.PositiveBigIntegerField(default=0)
    # knockouts: eliminations credited to this entry (shared ones in parts), bounties won,
    # and what progressive knockouts added to its own head
    knockouts = models.DecimalField(max_digits=10, decimal_places=4, default=0)
    bounty_won = models.PositiveBigIntegerField(default=0)
    bounty_gained = models.PositiveBigIntegerField(default=0)
    # chips on top of the starting stack (a league finale's bonus by standing)
    bonus_chips = models.PositiveBigIntegerField(default=0)
    refund = models.PositiveBigIntegerField(default=0)
    # the director's toolkit: balancing never moves a locked seat's player; a disqualified
    # entry is eliminated with its chips removed from play
    seat_locked = models.BooleanField(default=False)
    disqualified = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "player", "number"], name="entry_unique_number"
            ),
            models.UniqueConstraint(
                fields=["tournament", "player"], condition=ACTIVE_ENTRY, name="entry_one_active"
            ),
            models.CheckConstraint(
                condition=Q(place__isnull=True) | Q(place__gte=1), name="entry_place_positive"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} #{self.number} in {self.tournament_id}"


class TournamentTable(models.Model):
    """A table of the tournament: a ``games.Table`` (kind "tournament") and its number.

    Live tournaments have them too, held with the reason "live" so they never deal: their
    seats are the seating chart and their stacks the counts staff report."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="tables")
    table = models.OneToOneField(Table, on_delete=models.PROTECT, related_name="tournament_table")
    number = models.PositiveSmallIntegerField()
    breaking = models.BooleanField(default=False)
    # hands of this table the tournament has looked at (eliminations, hand-for-hand)
    hands_seen = models.PositiveIntegerField(default=0)
    # played its hand of the current hand-for-hand round and waits for the others
    hand_for_hand_done = models.BooleanField(default=False)
    # a balancing move waits for this table's hand to end: the update pass looks at the table
    # after it (tourney.services.steps.hand_end); other hands' ends leave the tournament be
    look_after_hand = models.BooleanField(default=False)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="tournament_table_number")
        ]

    def __str__(self) -> str:
        return f"table {self.number} of {self.tournament_id}"


class MoveStatus(models.TextChoices):
    PENDING = "pending", _("pending (live: waiting for staff)")
    APPLIED = "applied", _("applied online")
    ACKNOWLEDGED = "acknowledged", _("acknowledged by staff")


class Move(models.Model):
    """A seat change instruction: "table 3 seat 5 -> table 1 seat 2".

    Online it is applied at once (between hands); live the seating chart changes at once too,
    and the instruction stays pending until staff acknowledge they carried it out."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="moves")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="moves")
    from_table = models.PositiveSmallIntegerField()
    from_seat = models.PositiveSmallIntegerField()
    to_table = models.PositiveSmallIntegerField()
    to_seat = models.PositiveSmallIntegerField()
    reason = models.CharField(max_length=16)
    status = models.CharField(max_length=14, choices=MoveStatus.choices)
    created_at = models.DateTimeField(auto_now_add=True)
    acknowledged_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "id"]

    def __str__(self) -> str:
        return (
            f"table {self.from_table} seat {self.from_seat} -> "
            f"table {self.to_table} seat {self.to_seat}"
        )


class TournamentEvent(models.Model):
    """The tournament's append-only log: draws with their seeds, levels, eliminations,
    moves, deals, refunds."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="events")
    seq = models.PositiveIntegerField()
    kind = models.CharField(max_length=20)
    data = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "seq"], name="tournament_event_seq")
        ]

    def __str__(self) -> str:
        return f"{self.tournament_id}#{self.seq} {self.kind}"
