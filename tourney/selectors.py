"""Read paths of the tournament side: state, payouts, results, moves (no writes)."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, TypeVar, cast

from django.db.models import Case, F, QuerySet, Value, When
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs.access import sees_club_q
from clubs.models import Visibility
from games.errors import NotFound
from games.models import Seat, TableStatus
from tourney.codes import Code
from tourney.models import (
    PAID,
    AnteSchedule,
    Entry,
    EntryStatus,
    Move,
    ScheduleEntry,
    Tournament,
    TournamentEvent,
)
from tourney.plan_messages import plan_message
from tourney.planning.levels import level_number, playing_level
from tourney.planning.payouts import (
    PayoutStructure,
    default_structure,
    payouts,
    structure_from_percentages,
)
from tourney.planning.schedules import stakes_warnings

LEFT = [EntryStatus.PLAYING, EntryStatus.WINNER]
"""The players left: still playing, or the winner once the tournament is over."""

T = TypeVar("T")
_read: ContextVar[dict[Hashable, Any] | None] = ContextVar("tourney_read_once", default=None)


@contextmanager
def read_once() -> Iterator[None]:
    """Inside, a schedule's entries, the number of a tournament's paid entries and its players
    with a locked seat are read at most once each. For an update pass, which asks for them up
    to five, four and four times (the clock, the stakes, the standings, the payouts, the
    holds, each balancing plan) while it holds the tournament's lock: no pass changes which
    entries paid or which seats are locked (a player it eliminates no longer has a seat to
    lock), and one reading of the schedule is also one consistent view of it, should a
    director edit it meanwhile."""
    token = _read.set({})
    try:
        yield
    finally:
        _read.reset(token)


def _once(key: Hashable, read: Callable[[], T]) -> T:
    memo = _read.get()
    if memo is None:
        return read()
    if key not in memo:
        memo[key] = read()
    return cast(T, memo[key])


def schedule_entries(schedule_id: int) -> list[ScheduleEntry]:
    """The schedule's levels and breaks in playing order."""
    entries = _once(
        ("schedule", schedule_id),
        lambda: list(ScheduleEntry.objects.filter(schedule_id=schedule_id).order_by("position")),
    )
    return list(entries)


def unscheduled_break_on(tournament: Tournament) -> bool:
    """Whether an unscheduled break runs or waits for the hands in progress (the tables deal
    no new hand in both cases)."""
    return tournament.break_ends_at is not None or tournament.break_pending_minutes is not None


def payout_structure(tournament: Tournament) -> PayoutStructure:
    """The custom structure, or the default one for the number of paid entries."""
    if tournament.payout_percentages is not None:
        return structure_from_percentages(tournament.payout_percentages)
    paid = _once(("paid", tournament.id), tournament.entries.filter(status__in=PAID).count)
    return default_structure(max(1, paid))


def locked_players(tournament: Tournament) -> set[int]:
    """The players still playing whose seat the director locked (balancing never moves them)."""
    locked = tournament.entries.filter(status=EntryStatus.PLAYING, seat_locked=True)
    return _once(("locked", tournament.id), lambda: set(locked.values_list("player_id", flat=True)))


def prizes_by_place(tournament: Tournament) -> list[int]:
    """Each paid place's prize (place 1 first), summing exactly to the prize pool."""
    return payouts(tournament.prize_pool, payout_structure(tournament), tournament.chip_unit)


def get_schedule(schedule_id: int) -> AnteSchedule:
    """The ante schedule, or a 404."""
    schedule = AnteSchedule.objects.filter(pk=schedule_id).first()
    if schedule is None:
        raise NotFound(
            _("no schedule %(schedule_id)s") % {"schedule_id": schedule_id}, code=Code.NO_SCHEDULE
        )
    return schedule


def schedule_warnings(schedule: AnteSchedule) -> list[str]:
    """What the schedule has that is allowed but unusual, level by level ("level 2: ...")."""
    levels = [entry for entry in schedule_entries(schedule.id) if not entry.is_break]
    return [
        _("level %(number)s: %(warning)s") % {"number": number, "warning": plan_message(warning)}
        for number, level in enumerate(levels, start=1)
        for warning in stakes_warnings(level.small_bet, level.big_bet)
    ]


def get_tournament(tournament_id: int) -> Tournament:
    """The tournament, or a 404."""
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        raise _no_tournament(tournament_id)
    return tournament


def _no_tournament(tournament_id: int) -> NotFound:
    return NotFound(
        _("no tournament %(tournament_id)s: list them at /api/v1/tournaments/")
        % {"tournament_id": tournament_id},
        code=Code.NO_TOURNAMENT,
    )


def tournaments_seen(user: Any) -> QuerySet[Tournament]:
    """The tournaments ``user`` sees: the house's, and those of the clubs they see
    (``clubs.access``)."""
    return Tournament.objects.filter(sees_club_q(user))


def tournament_seen_get(user: Any, tournament_id: int) -> Tournament:
    """The tournament if ``user`` sees it; a 404 otherwise, as for one that does not exist."""
    tournament = tournaments_seen(user).filter(pk=tournament_id).first()
    if tournament is None:
        raise _no_tournament(tournament_id)
    return tournament


def tournament_public(tournament: Tournament) -> bool:
    """Whether every signed-in player sees ``tournament`` (the house's, or a public club's)."""
    return tournament.club_id is None or tournament.club.visibility == Visibility.PUBLIC


def schedule_seen_get(user: Any, schedule_id: int) -> AnteSchedule:
    """The ante schedule if ``user`` sees it (the house's, or one of a club they see); a
    404 otherwise."""
    schedule = AnteSchedule.objects.filter(sees_club_q(user), pk=schedule_id).first()
    if schedule is None:
        raise NotFound(
            _("no schedule %(schedule_id)s") % {"schedule_id": schedule_id}, code=Code.NO_SCHEDULE
        )
    return schedule


def _time_left_ms(tournament: Tournament) -> int | None:
    if tournament.paused_remaining_ms is not None:
        return tournament.paused_remaining_ms
    if tournament.level_ends_at is None:
        return None
    return max(0, int((tournament.level_ends_at - timezone.now()).total_seconds() * 1000))


def tournament_state(tournament: Tournament) -> dict[str, Any]:
    """The clock, the players left, the average stack, the tables and their seats."""
    entries_list = schedule_entries(tournament.schedule_id)
    current = entries_list[tournament.level_index]
    level = playing_level(entries_list, tournament.level_index)
    entry_of = {e.player_id: e.id for e in tournament.entries.filter(status__in=LEFT)}
    tables = []
    chips = 0
    for tt in tournament.tables.select_related("table").order_by("number"):
        seats = [
            {
                "seat": s.number,
                "entry": entry_of.get(s.player_id),
                "player": s.player_id,
                "name": s.player.display_name if s.player else "",
                "chips": s.stack,
            }
            for s in Seat.objects.filter(table=tt.table, player__isnull=False).select_related(
                "player"
            )
        ]
        chips += sum(s["chips"] for s in seats)
        if tt.table.status != TableStatus.CLOSED:
            tables.append(
                {
                    "number": tt.number,
                    "table_id": tt.table_id,
                    "status": tt.table.status,
                    "hold_reason": tt.table.hold_reason,
                    "breaking": tt.breaking,
                    "hands_played": tt.table.hands_played,
                    "seats": seats,
                }
            )
    left = len(entry_of)
    return {
        "id": tournament.id,
        "name": tournament.name,
        "mode": tournament.mode,
        "status": tournament.get_status_display(),
        "level": {
            "index": tournament.level_index,
            "number": level_number(entries_list, tournament.level_index),
            "is_break": current.is_break,
            "game": level.game,
            "ante": level.ante,
            "bring_in": level.bring_in,
            "small_bet": level.small_bet,
            "big_bet": level.big_bet,
        },
        "time_left_ms": _time_left_ms(tournament),
        "entries": tournament.entries.filter(status__in=PAID).count(),
        "players_left": left,
        "average_stack": chips // left if left else 0,
        "prize_pool": tournament.prize_pool,
        "hand_for_hand": tournament.hand_for_hand,
        "tables": tables,
    }


def hand_for_hand_at(table_id: int) -> bool:
    """True while the tournament the table belongs to plays hand-for-hand (False for a
    table of no tournament)."""
    return Tournament.objects.filter(tables__table_id=table_id, hand_for_hand=True).exists()


def payouts_list(tournament: Tournament) -> list[dict[str, int]]:
    """The prize of each paid place as things stand (the pool grows until registration ends)."""
    return [{"place": n, "prize": p} for n, p in enumerate(prizes_by_place(tournament), start=1)]


def results_list(tournament: Tournament) -> list[dict[str, Any]]:
    """Every entry with its place and prize: places ascending, then the entries with no place
    yet (still playing, or eliminated while the field is open), then the unregistered and
    refunded ones; ties by entry id. Explicit, so every database orders alike."""
    refunded = Case(
        When(status__in=[EntryStatus.UNREGISTERED, EntryStatus.REFUNDED], then=Value(1)),
        default=Value(0),
    )
    entries = (
        Entry.objects.filter(tournament=tournament)
        .select_related("player")
        .order_by(refunded, F("place").asc(nulls_last=True), "id")
    )
    return [
        {
            "entry": e.id,
            "player": e.player_id,
            "name": e.player.display_name,
            "number": e.number,
            "status": e.status,
            "place": e.place,
            "prize": e.prize,
            "refund": e.refund,
            "knockouts": e.knockouts,
            "bounty_won": e.bounty_won,
        }
        for e in entries
    ]


def deal_summary(tournament: Tournament) -> dict[str, Any] | None:
    """The deal the players left agreed to (``deals.deal_record``), if any: its method and
    each player's amount, most first. It replaces the prizes of the places still to be won."""
    if not tournament.deal:
        return None
    amounts = {int(entry): amount for entry, amount in tournament.deal["entries"].items()}
    names = dict(Entry.objects.filter(id__in=amounts).values_list("id", "player__display_name"))
    return {
        "method": tournament.deal["method"],
        "amounts": [
            {"entry": entry, "name": names.get(entry, ""), "amount": amount}
            for entry, amount in sorted(amounts.items(), key=lambda item: (-item[1], item[0]))
        ],
    }


def moves_list(tournament: Tournament, status: str | None) -> list[Move]:
    """The tournament's move instructions, oldest first, optionally of one status."""
    moves = Move.objects.filter(tournament=tournament).order_by("id")
    return list(moves.filter(status=status) if status else moves)


EVENTS_PAGE = 500
"""The most events one request returns (ask again ``after`` the last ``seq``)."""


def events_list(tournament: Tournament, after: int) -> list[TournamentEvent]:
    """The tournament's log from ``seq`` ``after`` + 1, oldest first, at most a page."""
    events = TournamentEvent.objects.filter(tournament=tournament, seq__gt=after)
    return list(events.order_by("seq")[:EVENTS_PAGE])


def player_entries(player_id: int) -> QuerySet[Entry]:
    """A player's tournament entries, newest first, with their tournament."""
    return Entry.objects.filter(player_id=player_id).select_related("tournament").order_by("-id")


LIVE_COUNT_RESETS = ("eliminated", "bust_undone")
"""Log kinds after which a live tournament's seats no longer add up until recounted: a bust's
chips went to players at its table, who must be counted again."""


def live_uncounted(tournament: Tournament) -> list[int]:
    """Live: the entries left still to count before the seats hold a full count (every player
    left counted since the last bust, or no bust and no count yet: the draw's stacks)."""
    events = TournamentEvent.objects.filter(tournament=tournament)
    last_reset = (
        events.filter(kind__in=LIVE_COUNT_RESETS)
        .order_by("-seq")
        .values_list("seq", flat=True)
        .first()
    )
    counted = {
        line["entry"]
        for data in events.filter(kind="chip_count", seq__gt=last_reset or 0).values_list(
            "data", flat=True
        )
        for line in data["counts"]
    }
    if last_reset is None and not counted:
        return []
    left = tournament.entries.filter(status__in=LEFT).values_list("id", flat=True)
    return sorted(set(left) - counted)


def last_chips_check(tournament: Tournament) -> dict[str, Any] | None:
    """The latest chip check (``chips`` event): level, in play, expected, ok, or None."""
    event = TournamentEvent.objects.filter(tournament=tournament, kind="chips").order_by("-seq")
    data = event.values_list("data", flat=True).first()
    return cast("dict[str, Any] | None", data)
