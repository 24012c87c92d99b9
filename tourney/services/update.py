"""The tournament's update pass: clock, eliminations, hand-for-hand, balancing, holds, end.

``tournament_update`` runs after every hand at a tournament table (the receiver enqueues it)
and on every beat tick; the other services run ``tournament_refresh`` inside their own lock.
It acts only on what it finds under the locks, so it is safe to run twice or late.

Holds: a table deals no new hand while its ``hold_reason`` is set; the reasons are worked
out here, every pass, for every open table (live, paused, break, breaking, waiting for a
move, out of balance while a move waits for a hand, hand-for-hand); a released table is
advanced at once.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime
from functools import partial

from django.db import transaction
from django.utils import timezone

from games import rows
from games.models import HoldReason, Seat, Table, TableStatus
from games.services import schedule
from integrations.webhooks.outbox import event_emit
from tourney.models import EntryStatus, Mode, Status, Tournament
from tourney.planning.balancing import Plan, hand_for_hand_needed
from tourney.selectors import payout_structure, read_once
from tourney.services.steps.balance import tables_balance, tables_balancing_waits_for
from tourney.services.steps.chips import chips_check
from tourney.services.steps.clock import clock_advance, on_break, stakes_apply
from tourney.services.steps.eliminations import (
    BustHand,
    Eliminations,
    bust_hands,
    busts_known_until,
    next_bust_group,
)
from tourney.services.steps.knockouts import bounty_collect
from tourney.services.steps.locks import (
    LockedTable,
    busy_tables_for_update,
    busy_tables_wait_for_update,
    open_tables_for_update,
    tournament_for_update,
    tournament_for_update_unless_busy,
)
from tourney.services.steps.log import event_append
from tourney.services.steps.payments import prizes_pay
from tourney.services.steps.results import (
    places_assign,
    places_finalize,
    places_provisional,
    winner_assign,
)
from tourney.services.steps.seating import SeatsByTable, seats_by_table, table_close
from tourney.signals import tournament_finished
from tourney.windows import pool_final, standings_final


def tournament_update(*, tournament_id: int, unless_busy: bool = False) -> str | None:
    """Lock the tournament and its tables and bring them up to date; returns its status.
    A table whose hand is being played is not waited for (``LockedTable.busy``): what the
    pass leaves to do there is done after that hand. A routine pass (``_routine``) locks only
    the tables held for it, so the others deal on however long it takes, and eliminates the
    busts of at most ``BUST_HANDS_PER_PASS`` hands: after a wave of busts the tables are
    released a few at a time, each pass its own transaction, not all at the end of one.

    Each pass reads the schedule, the paid entries' count and the locked seats once
    (``read_once``).

    ``unless_busy``: None at once if another transaction holds the tournament (an update
    pass is running): a worker does not sit waiting for it while tables wait to be dealt;
    the caller asks again later."""
    lock = tournament_for_update_unless_busy if unless_busy else tournament_for_update
    while True:
        with transaction.atomic(), read_once():
            tournament = lock(tournament_id)
            if tournament is None:
                return None
            now = timezone.now()
            running = tournament.status == Status.RUNNING
            more = tournament_refresh(
                tournament,
                now=now,
                skip_busy=running,
                held_only=running and _routine(tournament, now),
            )
        if not more:
            return tournament.status


def _routine(tournament: Tournament, now: datetime) -> bool:
    """Nothing for the pass to do at a table that is not held for it: an online tournament in
    the middle of a level, not on or near a break, not hand-for-hand, and not on the bubble
    even if every player now without chips is eliminated in this pass (which could start
    hand-for-hand, which stops the tables between hands)."""
    quiet = (
        tournament.mode == Mode.ONLINE
        and not tournament.hand_for_hand
        and tournament.break_pending_minutes is None
        and tournament.break_ends_at is None
        and tournament.level_ends_at is not None
        and tournament.level_ends_at > now
    )
    if not quiet:
        return False
    players_left = tournament.entries.filter(status=EntryStatus.PLAYING).count()
    without_chips = Seat.objects.filter(
        table__tournament_table__tournament=tournament, player__isnull=False, stack=0
    ).count()
    places = payout_structure(tournament).places
    return players_left - without_chips > places + 1 or players_left <= places


BUST_HANDS_PER_PASS = 24
"""How many tables' busts a routine pass eliminates (about a fifth of a second of work at
1,000 players). In the first seconds of ``bench tournament``, where nearly every hand busts
someone, 24 gave 91.0, 94.9, 104.7 and 112.0 hands/s against 86.2, 88.4, 86.3 and 93.8 for
12, run alternately (2026-12-02): fewer passes, each one's fixed reads shared by more busts."""


def tournament_refresh(
    tournament: Tournament,
    *,
    now: datetime | None = None,
    skip_busy: bool = False,
    held_only: bool = False,
) -> bool:
    """The update pass, for a tournament already locked by the caller; ``skip_busy`` and
    ``held_only``: see ``open_tables_for_update``. Returns whether busts were left for
    another pass (a routine pass only)."""
    now = now or timezone.now()
    if tournament.status == Status.REGISTERING:
        return False
    tables = open_tables_for_update(tournament, skip_busy=skip_busy, held_only=held_only)
    if tournament.status in (Status.FINISHED, Status.CANCELLED):
        _close_idle(tables)
        return False
    standings = standings_final(tournament)
    level_changed = clock_advance(tournament, now)
    if level_changed and standings_final(tournament) != standings:
        places_assign(tournament)  # the field (or the pool) just became final
    stakes_apply(tournament, tables)
    _hands_seen(tournament, tables)
    seats = seats_by_table(tables)
    players_left = tournament.entries.filter(status=EntryStatus.PLAYING).count()
    later: list[BustHand] = []
    known_until = None
    if tournament.mode == Mode.ONLINE:
        known_until = partial(busts_known_until, tables, now)
        busts = bust_hands(tables, seats)
        if held_only:
            busts, later = busts[:BUST_HANDS_PER_PASS], busts[BUST_HANDS_PER_PASS:]
            _leave_for_the_next_pass(later, seats)
        players_left = _busts(tournament, busts, tables, seats, players_left)
    if level_changed:
        chips_check(tournament)
    if players_left <= 1:
        _finish(tournament, tables)
        return False
    _hand_for_hand(tournament, tables, seats, players_left)
    places_provisional(tournament)
    places_finalize(tournament, known_until=known_until)
    if skip_busy:
        _lock_what_balancing_waits_for(tournament, tables, seats)
    plan, changed = tables_balance(tournament, tables, seats)
    tables = [locked for locked in tables if locked.table.status != TableStatus.CLOSED]
    _holds(tournament, tables, plan, changed)
    _looks(tables, plan)
    tournament.save()
    return bool(later)


def _leave_for_the_next_pass(later: list[BustHand], seats: SeatsByTable) -> None:
    """Tables whose busts wait for the next pass: read as busy by this one (never written,
    held as they are), their players without chips already out of its balancing."""
    for bust in later:
        bust.locked.busy = bust.locked.in_hand = True
        for seat in bust.busted:
            del seats[bust.locked.table.id][seat.number]


def _lock_what_balancing_waits_for(
    tournament: Tournament, tables: list[LockedTable], seats: SeatsByTable
) -> None:
    """A pass that skipped the busy tables (a routine one locked only the tables held for
    it): lock as well those balancing would act on (break, move players from or to, stop)
    that are between hands, so it acts on them now, as a full pass would, and not after one
    more hand there. A table to break, or any before the final table's redraw, is waited for
    if its hand is being played: its hand's end would read the tournament as it was before
    this pass, and deal once more. The others are not (a routine pass would wait for every
    table a move could come from, one hand each, while the tables held for it wait too): a
    table whose hand ends meanwhile is seen after its next one (``look_after_hand``)."""
    tried: set[int] = set()
    while True:
        wanted, stopping = tables_balancing_waits_for(tournament, tables, seats)
        wanted = [locked for locked in wanted if locked.table.id not in tried]
        if not wanted:
            return
        now = {locked.table.id for locked in wanted}
        tried |= now
        waited = [locked for locked in stopping if locked.table.id in now]
        others = [locked for locked in wanted if locked not in waited]
        got = busy_tables_for_update(others, wait=False)
        if not busy_tables_for_update(waited, wait=True) and not got:
            return


def _hands_seen(tournament: Tournament, tables: list[LockedTable]) -> None:
    """Note the hands that ended since the last pass (a hand-for-hand table has then played
    its hand of the round)."""
    seen = []
    for locked in tables:
        if locked.busy:
            continue
        played = locked.table.hands_played - (1 if locked.in_hand else 0)
        if played > locked.tt.hands_seen:
            locked.tt.hands_seen = played
            if tournament.hand_for_hand:
                locked.tt.hand_for_hand_done = True
            seen.append(locked.tt)
    rows.update_each(seen, ["hands_seen", "hand_for_hand_done"])


def _busts(
    tournament: Tournament,
    busts: list[BustHand],
    tables: list[LockedTable],
    seats: SeatsByTable,
    players_left: int,
) -> int:
    """Eliminate the players of ``busts`` (since the last pass), hand by hand in the order
    the hands ended, and free their seats in ``seats``; returns the players left. Reaching
    the bubble on one of them starts hand-for-hand at that moment (TDA): the hands then in
    progress, those ending later in this pass among them, are its first round, and their
    busts share."""
    places = payout_structure(tournament).places
    eliminations = Eliminations(tournament)
    for bust in busts:
        eliminations.add(bust.busts())
        for seat in bust.busted:
            del seats[bust.locked.table.id][seat.number]
        players_left -= len(bust.busted)
        if tournament.hand_for_hand:
            continue
        if _bubble(tournament, players_left, places, tables, seats):
            eliminations.write()
            _hand_for_hand_start(tournament, tables, players_left, mid_pass=True)
    eliminations.write()
    return players_left


def _bubble(
    tournament: Tournament,
    players_left: int,
    places: int,
    tables: list[LockedTable],
    seats: SeatsByTable,
) -> bool:
    """On the money bubble with players at more than one table, and the field final: no
    late registration, re-entry, rebuy or add-on can still add an entry, change the paid
    places or the prizes (``pool_final``). While one can, the bubble is played like any
    other hand, the busts placed in the order their hands ended; hand-for-hand starts if the
    bubble is still on when the last window closes."""
    return (
        _tables_in_play(tables, seats) > 1
        and hand_for_hand_needed(players_left, places)
        and pool_final(tournament)
    )


def _tables_in_play(tables: list[LockedTable], seats: SeatsByTable) -> int:
    """The tables with players: at one, hand-for-hand is meaningless (its hands are played
    one at a time anyway)."""
    return sum(1 for locked in tables if seats[locked.table.id])


def _hand_for_hand_start(
    tournament: Tournament, tables: list[LockedTable], players_left: int, *, mid_pass: bool
) -> None:
    """Start hand-for-hand and its first round. Reached between hands, every table plays the
    round's hand; reached by a bust in this pass (``mid_pass``), the round is the hands that
    were in progress then: the tables no longer in a hand have played theirs (it ended in
    this pass) or had none in progress, and wait for the others.

    A table another transaction holds (its hand ending, say) is waited for first: that hand
    read hand-for-hand as off and its table would deal on unheld, starting the next round
    before the others finished this one."""
    waited = busy_tables_wait_for_update(tables)
    _hands_seen(tournament, waited)  # before hand-for-hand: the hands ended before it
    tournament.hand_for_hand = True
    tournament.hand_for_hand_group = next_bust_group(tournament)
    for locked in tables:
        done = mid_pass and not locked.in_hand
        if locked.tt.hand_for_hand_done != done:
            locked.tt.hand_for_hand_done = done
            locked.tt.save(update_fields=["hand_for_hand_done"])
    event_append(tournament, "hand_for_hand", {"players_left": players_left})


def _hand_for_hand(
    tournament: Tournament,
    tables: list[LockedTable],
    seats: SeatsByTable,
    players_left: int,
) -> None:
    """Start hand-for-hand on the bubble; when every dealing table played its hand of the
    round, start the next round (its busts share) or stop once the bubble burst. With one
    table left it stops at once."""
    needed = _bubble(tournament, players_left, payout_structure(tournament).places, tables, seats)
    if not tournament.hand_for_hand:
        if needed:
            _hand_for_hand_start(tournament, tables, players_left, mid_pass=False)
        return
    if tournament.mode == Mode.LIVE:
        tournament.hand_for_hand = needed
        return
    dealing = [t for t in tables if len(seats[t.table.id]) >= 2 and not t.tt.breaking]
    single = _tables_in_play(tables, seats) <= 1
    if single or all(locked.tt.hand_for_hand_done for locked in dealing):
        _round_reset(tables)
        if needed:
            tournament.hand_for_hand_group = next_bust_group(tournament)
            event_append(tournament, "hand_for_hand_round", {"players_left": players_left})
        else:
            tournament.hand_for_hand = False
            event_append(tournament, "hand_for_hand_over", {"players_left": players_left})


def _round_reset(tables: list[LockedTable]) -> None:
    for locked in tables:
        if locked.tt.hand_for_hand_done:
            locked.tt.hand_for_hand_done = False
            locked.tt.save(update_fields=["hand_for_hand_done"])


def _hold_reason(
    tournament: Tournament, locked: LockedTable, plan: Plan, at_break: bool
) -> HoldReason:
    if tournament.mode == Mode.LIVE:
        return HoldReason.LIVE
    if tournament.status == Status.PAUSED:
        return HoldReason.TOURNAMENT_PAUSED
    if at_break:
        return HoldReason.BREAK
    if locked.tt.breaking:
        return HoldReason.TABLE_BREAKING
    if locked.tt.number in plan.waiting:
        incoming = any(deferred.to_table == locked.tt.number for deferred in plan.deferred)
        if locked.tt.number in plan.unbalanced and not incoming:
            return HoldReason.BALANCING
        return HoldReason.WAITING_FOR_PLAYERS
    if tournament.hand_for_hand and locked.tt.hand_for_hand_done:
        return HoldReason.HAND_FOR_HAND
    return HoldReason.NONE


def _holds(
    tournament: Tournament, tables: list[LockedTable], plan: Plan, changed: set[int]
) -> None:
    """Set every table's hold; advance the tables released or given new players."""
    at_break = on_break(tournament)
    held: dict[HoldReason, list[int]] = defaultdict(list)
    for locked in tables:
        reason = _hold_reason(tournament, locked, plan, at_break)
        if locked.busy:
            locked.look = locked.look or reason != locked.table.hold_reason
        elif reason != locked.table.hold_reason:
            held[reason].append(locked.table.pk)
            locked.table.hold_reason = reason
            if not reason:
                schedule.advance_now(locked.table.id)
        elif not reason and locked.table.id in changed and not locked.in_hand:
            schedule.advance_now(locked.table.id)
    for reason, ids in held.items():
        Table.objects.filter(pk__in=ids).update(hold_reason=reason)


def _looks(tables: list[LockedTable], plan: Plan) -> None:
    """Ask to see after their hand the tables a deferred move waits for, those in a hand that
    must wait after it (a move waits for another table), and the busy tables this pass left
    something to do at: the other tables' hands end without the update pass
    (``tourney.services.steps.hand_end``)."""
    blocking = {number for deferred in plan.deferred for number in deferred.blocked_by}
    changed = []
    for locked in tables:
        waits = locked.in_hand and locked.tt.number in plan.waiting
        wanted = locked.tt.number in blocking or waits or locked.look
        if locked.tt.look_after_hand != wanted:
            locked.tt.look_after_hand = wanted
            changed.append(locked.tt)
    rows.update_each(changed, ["look_after_hand"])


def _close_idle(tables: list[LockedTable]) -> None:
    """Close the tables of a finished or cancelled tournament once their hand is over."""
    for locked in tables:
        if locked.in_hand:
            Table.objects.filter(pk=locked.table.pk).update(hold_reason=HoldReason.TOURNAMENT_OVER)
        else:
            table_close(locked)


def _finish(tournament: Tournament, tables: list[LockedTable]) -> None:
    """The last player left wins; the others are placed and paid now if they were not yet
    (the field or the pool was still open)."""
    winner = tournament.entries.filter(status=EntryStatus.PLAYING).first()
    if winner is None:  # nobody left (a live report cannot bust everyone): nothing to end
        return
    chips_check(tournament)
    placed_and_paid = standings_final(tournament) == (True, True)
    tournament.status = Status.FINISHED
    tournament.hand_for_hand = False
    if placed_and_paid:
        places_provisional(tournament)  # this pass's busts
    else:
        places_assign(tournament)
    places_finalize(tournament, known_until=None)  # every hand is over
    winner_assign(tournament, winner)
    bounty_collect(tournament, winner)
    event_emit(
        "payout",
        {"tournament": tournament.id, "prizes": prizes_pay(tournament)},
        club_id=tournament.club_id,
    )
    tournament.finished_at = timezone.now()
    tournament.level_ends_at = None
    tournament.save()
    event_append(tournament, "finished", {"winner": winner.id, "player": winner.player_id})
    tournament_finished.send(sender=Tournament, tournament_id=tournament.id)
    _close_idle(tables)
