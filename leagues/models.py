"""Leagues, seasons, their events and results, and the standings derived from them.

Models are thin: fields, choices and constraints; the rules live in ``leagues.services``
(formulas in ``leagues.formulas``, the ranking in ``leagues.standings``). Money is in
integer units, points are decimals rounded as the season says.
"""

from __future__ import annotations

from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from games.models import Player
from leagues.standings import DEFAULT_TIE_BREAKS
from tourney.models import Tournament


class League(models.Model):
    """A club's league: a name and its seasons."""

    club = models.ForeignKey("clubs.Club", on_delete=models.PROTECT, related_name="leagues")
    name = models.CharField(max_length=80)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["club", "id"]
        constraints = [
            models.UniqueConstraint(fields=["club", "name"], name="league_name_per_club")
        ]

    def __str__(self) -> str:
        return self.name


def _default_tie_breaks() -> list[str]:
    return list(DEFAULT_TIE_BREAKS)


class Season(models.Model):
    """A season: its dates, how points are made and counted, its pot and finale."""

    league = models.ForeignKey(League, on_delete=models.PROTECT, related_name="seasons")
    name = models.CharField(max_length=80)
    starts_on = models.DateField()
    ends_on = models.DateField()
    # points: a formula (leagues.formulas.PRESETS) and its parameters, rounded to decimals
    formula = models.CharField(max_length=16)
    formula_params = models.JSONField(default=dict)
    decimals = models.PositiveSmallIntegerField(default=2)
    participation_points = models.DecimalField(max_digits=12, decimal_places=4, default=0)
    knockout_points = models.DecimalField(max_digits=12, decimal_places=4, default=0)
    # which results count: the best N of each player (null: all), out of events_planned
    events_planned = models.PositiveSmallIntegerField(null=True, blank=True)
    best_of = models.PositiveSmallIntegerField(null=True, blank=True)
    tie_breaks = models.JSONField(default=_default_tie_breaks)
    final_table_size = models.PositiveSmallIntegerField(default=8)
    # the pot: a fee per entry, paid at the end by percentages by rank (decimal strings)
    league_fee = models.PositiveIntegerField(default=0)
    pot_payout = models.JSONField(default=list)
    # the finale: the top N qualify; chips added to each qualifier's stack by rank
    finale_qualifiers = models.PositiveSmallIntegerField(default=0)
    finale_chip_bonus = models.JSONField(default=list)
    finale_tournament = models.OneToOneField(
        Tournament, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    closed_at = models.DateTimeField(null=True, blank=True)
    pot_payouts = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["league", "starts_on", "id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(ends_on__gte=F("starts_on")), name="season_ends_after_start"
            ),
            models.CheckConstraint(condition=Q(decimals__lte=4), name="season_decimals_0_4"),
            models.CheckConstraint(
                condition=Q(best_of__isnull=True) | Q(best_of__gte=1), name="season_best_of"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.league} {self.name}"


class EventKind(models.TextChoices):
    ONLINE = "online", _("a tournament of the service")
    LIVE = "live", _("a live event entered by hand")


class EventStatus(models.TextChoices):
    WAITING = "waiting", _("waiting for its tournament to finish")
    ENTERED = "entered", _("results entered")


class SeasonEvent(models.Model):
    """One event of a season: a tournament of the service (its results enter by themselves
    when it finishes) or a live event whose results a director entered."""

    season = models.ForeignKey(Season, on_delete=models.PROTECT, related_name="events")
    kind = models.CharField(max_length=8, choices=EventKind.choices)
    status = models.CharField(max_length=8, choices=EventStatus.choices)
    # a tournament is in one season at most, once
    tournament = models.OneToOneField(
        Tournament, on_delete=models.PROTECT, null=True, blank=True, related_name="season_event"
    )
    name = models.CharField(max_length=80)
    played_on = models.DateField()
    entries = models.PositiveIntegerField(default=0)
    buy_in = models.PositiveIntegerField(default=0)
    prize_pool = models.PositiveBigIntegerField(default=0)
    paid_places = models.PositiveIntegerField(default=0)
    # the season pot: the league fee per entry when the event was entered
    pot_contribution = models.PositiveBigIntegerField(default=0)
    # why the results could not enter by themselves (the director sees it and retries)
    error = models.CharField(max_length=300, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    entered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["season", "played_on", "id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(kind="online", tournament__isnull=False)
                | Q(kind="live", tournament__isnull=True),
                name="season_event_online_has_tournament",
            )
        ]

    def __str__(self) -> str:
        return self.name


class EventResult(models.Model):
    """One player's result in one event: what they spent and won, and their points."""

    event = models.ForeignKey(SeasonEvent, on_delete=models.CASCADE, related_name="results")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="league_results")
    place = models.PositiveIntegerField()
    entries = models.PositiveSmallIntegerField(default=1)
    rebuys = models.PositiveSmallIntegerField(default=0)
    add_ons = models.PositiveSmallIntegerField(default=0)
    spent = models.PositiveBigIntegerField(default=0)
    prize = models.PositiveBigIntegerField(default=0)
    bounties = models.PositiveBigIntegerField(default=0)
    knockouts = models.DecimalField(max_digits=10, decimal_places=4, default=0)
    points = models.DecimalField(max_digits=14, decimal_places=4)

    class Meta:
        ordering = ["event", "place", "player"]
        constraints = [
            models.UniqueConstraint(fields=["event", "player"], name="event_result_player"),
            models.CheckConstraint(condition=Q(place__gte=1), name="event_result_place"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} place {self.place} in {self.event_id}"


class Standing(models.Model):
    """A player's line in a season's standings: derived data, rebuilt from the results by
    ``leagues.services.standings.season_recompute`` (``totals``: every event total, best
    first)."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="standings")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    rank = models.PositiveIntegerField()
    previous_rank = models.PositiveIntegerField(null=True, blank=True)
    points = models.DecimalField(max_digits=16, decimal_places=4)
    events_played = models.PositiveIntegerField()
    events_counted = models.PositiveIntegerField()
    wins = models.PositiveIntegerField()
    cashes = models.PositiveIntegerField()
    final_tables = models.PositiveIntegerField()
    knockouts = models.DecimalField(max_digits=12, decimal_places=4)
    best_finish = models.PositiveIntegerField()
    net_winnings = models.BigIntegerField()
    totals = models.JSONField()

    class Meta:
        ordering = ["season", "rank", "player"]
        constraints = [models.UniqueConstraint(fields=["season", "player"], name="standing_player")]

    def __str__(self) -> str:
        return f"{self.rank}. {self.player_id}"
