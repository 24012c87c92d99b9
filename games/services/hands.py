"""The hand's life at a table: start, player decisions, advancing, the clock, settling.

Every function here runs inside one transaction that holds the table's row lock, so one
table is never advanced by two processes at once. Work that needs a worker (dealing the next
street, bots, the next hand, timers) is enqueued only after commit.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import rows
from games.codes import Code
from games.engine.cards import Card
from games.engine.fairness import SCHEME, commit_deck, commitment, deck_for_hand
from games.engine.play import deal_pending
from games.engine.rake import hand_rake
from games.engine.replay import header, to_dict
from games.engine.state import HandState, IllegalAction, Option
from games.errors import Conflict, Forbidden, Invalid
from games.locks import table_read_for_update
from games.models import (
    Hand,
    HandStatus,
    Player,
    Seat,
    Table,
    TableEvent,
    TableKind,
    TableStatus,
    new_server_seed,
)
from games.poker_words import refusal_message
from games.selectors import hand_state, running_hand, seat_index
from games.services import bots, chips, schedule
from games.services.client_seeds import hand_client_seeds
from games.services.table_writes import TableWrites
from games.signals import hand_finished
from integrations.webhooks.outbox import event_emit
from observability import context, metrics

WORKER_GRACE = timedelta(seconds=5)
"""How long a hand may wait for a worker to deal or settle before the sweep steps in."""

NO_CLOCK = 0
"""``Hand.clock_decision`` when no decision's clock is running (a hand's log is never empty)."""


@dataclass(frozen=True)
class ActResult:
    """What a player's accepted decision did."""

    seq: int
    option: Option


# ------------------------------------------------------------------------- writing events


def append_event(table: Table, kind: str, data: dict[str, Any], hand: Hand | None = None) -> int:
    """Append one event to the table's log (under the table lock); returns its seq."""
    table.seq += 1
    TableEvent.objects.create(table=table, seq=table.seq, hand=hand, kind=kind, data=data)
    Table.objects.filter(pk=table.pk).update(seq=table.seq)
    return table.seq


def _persist(writes: TableWrites, hand: Hand, state: HandState, start: int) -> None:
    """Write the engine events from ``state.log[start:]`` and refresh the snapshot."""
    writes.engine_events(hand, state, start)
    hand.snapshot = to_dict(state)
    writes.hand_changed(hand, "snapshot", "cards_used", "deadline")


# ------------------------------------------------------------------------- starting a hand


def _dealt_in(table: Table, seats: dict[int, Seat]) -> list[Seat]:
    dealt = [s for s in seats.values() if s.player is not None and s.stack > 0]
    if table.kind == TableKind.RING:
        # Ring games deal in only those not sitting out; a tournament deals everyone with chips
        # (away players post antes and are folded at their first decision, TDA 30).
        dealt = [s for s in dealt if not s.sitting_out and not s.leaving]
    return dealt


@dataclass
class _Started:
    """A hand just started in this transaction: its state and its deck, in memory."""

    hand: Hand
    state: HandState
    deck: list[Card]


def _start_hand(writes: TableWrites, seats: dict[int, Seat], key: int | None) -> _Started | None:
    """Start the table's next hand if two players can be dealt in; ``key``: the hand's, if
    reserved (it is then inserted with the transaction's other writes)."""
    table = writes.table
    dealt = _dealt_in(table, seats)
    if len(dealt) < 2:
        return None
    # The seed was drawn (and its commitment public) before these client seeds were sent,
    # each naming that commitment (games.services.client_seeds).
    seed = bytes(table.next_seed)
    client_seeds = hand_client_seeds([s.player for s in dealt if s.player], table.next_client_seeds)
    deck = commit_deck(seed, client_seeds)
    state = HandState(table.engine_rules(), table.engine_stakes(), [s.stack for s in dealt])
    table.hands_played += 1
    table.next_hand_at = None
    table.next_seed = new_server_seed()
    writes.table_changed("hands_played", "next_hand_at", "next_seed")
    if table.next_client_seeds:  # they were for this hand; a bot table never sends any
        table.next_client_seeds = {}
        writes.table_changed("next_client_seeds")
    hand = Hand(
        table=table,
        number=table.hands_played,
        lineup=[
            {
                "seat": s.number,
                "player": s.player_id,
                "name": s.player.display_name,
                "bot": s.player.is_bot,
            }
            for s in dealt
            if s.player is not None
        ],
        header=header(state),
        snapshot=to_dict(state),
        seed=seed,
        commitment=commitment(seed),
        client_seeds=client_seeds,
        card_root=deck.root.hex(),
        # auto_now_add sets it again when the row is written (at the transaction's end); set
        # now, a hand dealt and settled in one transaction has its duration (_settle)
        started_at=timezone.now(),
    )
    metrics.hand_dealt(table.variant)
    if key is None:
        rows.insert(hand)  # the database gives its key, which the log needs now
    else:
        hand.pk = key
        writes.hand_started(hand)
    writes.event(
        "hand_start",
        {
            "hand": hand.id,
            "number": hand.number,
            "commitment": hand.commitment,
            "scheme": SCHEME,
            "client_seeds": client_seeds,
            "card_root": hand.card_root,
            "next_commitment": commitment(bytes(table.next_seed)),
            "lineup": hand.lineup,
            "stakes": table.engine_stakes().to_dict(),
            "variant": table.variant,
        },
        hand,
    )
    return _Started(hand, state, list(reversed(deck.order)))


# ------------------------------------------------------------------------- advancing


def table_wake(table: Table) -> None:
    """Something changed that may let a hand start: advance the table after commit.

    A due time is also written (the next hand's, or the running hand's grace), so the beat
    sweep moves the table on even if the advance task is lost with a worker.
    """
    hand = running_hand(table)
    if hand is None and table.next_hand_at is None:
        table.next_hand_at = timezone.now()
        table.save(update_fields=["next_hand_at"])
    elif hand is not None and hand.deadline is None:
        hand.deadline = timezone.now() + WORKER_GRACE
        hand.save(update_fields=["deadline"])
    schedule.advance_now(table.id)


def table_advance(table_id: int) -> str:
    """Do everything at the table that is not a human decision; returns what it did.

    Deals the cards the hand needs, lets bots and away players act, settles a finished hand
    and starts the next one when its pause is over. Safe to run twice or late: it only acts
    on the state it finds under the lock.
    """
    with transaction.atomic():
        read = table_read_for_update(table_id, with_hand_key=True)
        table, hand = read.table, read.hand
        if table.status != TableStatus.OPEN:
            return "table not open"
        if hand is None:
            if table.hold_reason:
                return f"held: {table.hold_reason}"
            now = timezone.now()
            if table.next_hand_at and table.next_hand_at > now:
                schedule.advance_at(table.id, table.next_hand_at)
                return "waiting for the pause between hands"
            writes = TableWrites(table)
            started = _start_hand(writes, read.seats, read.hand_key)
            if started is None:
                table.next_hand_at = None
                table.save(update_fields=["next_hand_at"])
                return "waiting for players"
            return _run(writes, started.hand, read, started.state, 0, started.deck)
        state = hand_state(hand)
        return _run(TableWrites(table), hand, read, state, len(state.log))


PLAY_ON_SECONDS = 0.05
"""How long one task plays on at a table whose next hand is due at once, before it leaves the
worker to the other tables' tasks (about five bot hands on a quiet machine)."""


def table_play_on(table_id: int, *, seconds: float = PLAY_ON_SECONDS) -> str:
    """``table_advance``, and again while its hand ended and the next one is due at once (a
    table without a pause between hands: bots in a simulated tournament or league), for up
    to ``seconds``: each hand in its own transaction as before, without a task sent, received
    and acknowledged for each. Returns what the last advance did.

    A table held after its hand (its tournament must look), waiting for a person, or whose
    pause has not passed stops at once; the next advance is then sent as always, and so it is
    when a hand played on fails (a first advance that fails sends none: no loop of failures).
    Killed between two hands, the table's next hand is due in the database and the sweep
    deals it.
    """
    until = time.monotonic() + seconds
    with schedule.playing_on(table_id) as playing:
        did = table_advance(table_id)
        while playing.kept and time.monotonic() < until:
            playing.kept = False  # its hand is dealt here
            try:
                did = table_advance(table_id)
            except Exception:
                playing.kept = True  # that hand is still due: its advance goes out
                raise
        return did


def _run(
    writes: TableWrites,
    hand: Hand,
    read: rows.TableRead,
    state: HandState,
    start: int,
    deck: list[Card] | None = None,
) -> str:
    """Play the hand on from ``state`` (whose events from ``start`` on are not written yet)
    at the table ``read`` under its lock, until a human decides or it ends; write it all.
    ``deck``: the hand's, if known."""
    lineup, seats = hand.lineup, read.seats
    context.bind(hand=hand.id)
    while not state.is_over:
        if state.next_deal is not None:
            deck = deck or deck_for_hand(bytes(hand.seed), hand.client_seeds)
            _deal(hand, state, deck)
            continue
        i = state.candidates[0]
        seat = seats[lineup[i]["seat"]]
        player = seat.player
        if player is not None and player.is_bot:
            option = bots.choose(player.bot, state, state.legal_actions(), hand.id)
        elif seat.sitting_out or seat.leaving or player is None:
            option = automatic_option(state)
        else:
            break  # a human decides: start the clock
        state.act(option.action, option.to, player=i)
    if state.is_over:
        hand.deadline = None
        _persist(writes, hand, state, start)
        _settle(writes, hand, state, read)
        return "hand finished"
    _persist(writes, hand, state, start)
    _start_clock(writes, hand, len(state.log))
    writes.flush()
    return "waiting for a player"


def _deal(hand: Hand, state: HandState, deck: list[Card]) -> None:
    """Deal what the hand needs from its committed deck (dealt from the end, see verify)."""
    stub = deck[: len(deck) - hand.cards_used]
    before = len(stub)
    deal_pending(state, stub)
    hand.cards_used += before - len(stub)


AUTOMATIC_CHOICES = ("bring_in", "check", "fold", "muck")
"""What the service decides for an away, leaving or timed-out player, best first: a forced
bring-in is posted, a free check is taken, a bet is folded to, a losing hand is mucked."""


def automatic_option(state: HandState) -> Option:
    """The decision the service takes for a player who is away, leaving or out of time
    (docs/rules.md 9): post a forced bring-in, check if free, else fold; muck at showdown.

    Total: every decision the engine offers includes one of ``AUTOMATIC_CHOICES`` (the
    property test plays random hands to prove it); should a future rule offer none, the
    cheapest legal option is taken rather than the table stopping.
    """
    options = state.legal_actions()
    if not options:
        raise ValueError("no decision is pending: nothing to decide for the player")
    for preferred in AUTOMATIC_CHOICES:
        for option in options:
            if option.action == preferred:
                return option
    return min(options, key=lambda option: option.chips)


def _start_clock(writes: TableWrites, hand: Hand, decision: int) -> None:
    """Give the player to act their full time, unless this decision's clock already runs.

    ``decision`` identifies the decision by the length of the hand's log when it arose.
    """
    if hand.deadline is not None and hand.clock_decision == decision:
        return
    table = writes.table
    hand.deadline = timezone.now() + timedelta(seconds=table.action_seconds)
    hand.clock_decision = decision
    writes.hand_changed(hand, "deadline", "clock_decision")
    schedule.expire_later(table.id, hand.id, table.seq, table.action_seconds)


# ------------------------------------------------------------------------- human decisions


def hand_act(
    *, table_id: int, player: Player, action: str, amount: int | None, seq: int | None
) -> ActResult:
    """Apply a player's decision at once if it is legal and theirs to make.

    ``seq`` is the table's sequence number the client last saw; a stale one is refused (409)
    so that a decision is never applied to a situation the player did not see.
    """
    with transaction.atomic():
        read = table_read_for_update(table_id, with_seats=False)
        table, hand = read.table, read.hand
        if seq is not None and seq != table.seq:
            raise Conflict(
                _(
                    "stale seq %(seq)s: the table is at seq %(seq2)s; fetch the table and "
                    "decide again"
                )
                % {"seq": seq, "seq2": table.seq},
                code=Code.STALE_SEQ,
                detail={"seq": table.seq},
            )
        if table.status != TableStatus.OPEN:
            raise Conflict(
                _("the table is %(status)s: wait for staff to resume it")
                % {"status": table.get_status_display()},
                code=Code.PAUSED,
            )
        if hand is None:
            raise Conflict(_("no hand is in progress at this table"), code=Code.NO_HAND)
        index = seat_index(hand, player)
        if index is None:
            raise Forbidden(_("you are not dealt in this hand"), code=Code.NOT_IN_HAND)
        state = hand_state(hand)
        if index not in state.candidates:
            raise Forbidden(_("it is not your turn"), code=Code.NOT_YOUR_TURN)
        start = len(state.log)
        try:
            option = state.act(action, amount, player=index)
        except IllegalAction as error:
            raise Invalid(refusal_message(error), code=Code(error.code)) from error
        # The worker takes it from here; should it die first, the sweep finds this deadline.
        hand.deadline = timezone.now() + WORKER_GRACE
        writes = TableWrites(table)
        _persist(writes, hand, state, start)
        writes.flush()
        schedule.advance_now(table.id)
        return ActResult(seq=table.seq, option=option)


def hand_expire(*, hand_id: int, seq: int | None) -> str:
    """The hand is overdue: act for a player whose clock ran out, then move the hand on.

    ``seq`` is the table's seq when the clock started (the countdown task); None means the
    sweep, which moves on any overdue hand, including one whose worker died before it dealt
    the next card. A late or duplicate run finds the seq moved on or the deadline not yet
    due and does nothing.
    """
    with transaction.atomic():
        hand = Hand.objects.filter(pk=hand_id).only("table_id").first()
        if hand is None:
            return "no such hand"
        read = table_read_for_update(hand.table_id)
        table, hand = read.table, read.hand
        if hand is None or hand.pk != hand_id or table.status != TableStatus.OPEN:
            return "hand not running"  # a table runs one hand at a time
        if seq is not None and seq != table.seq:
            return "stale timer"
        if hand.deadline is None or hand.deadline > timezone.now():
            return "not due"
        state = hand_state(hand)
        writes = TableWrites(table)
        # Only a clock started for this very decision can time the player out; any other
        # deadline is the worker's grace after the previous decision (the next player's clock
        # has not started yet), so the hand is just moved on.
        clock_ran_out = hand.clock_decision == len(state.log)
        if clock_ran_out and state.next_deal is None and state.candidates:
            i = state.candidates[0]
            start = len(state.log)
            option = automatic_option(state)
            state.act(option.action, option.to, player=i)
            # Timed out: away from now on, at every kind of table. A ring player is not dealt
            # in from the next hand; a tournament player stays dealt in and is folded (checked
            # when free) at once at each decision; both until they come back (docs/rules.md 9).
            seat = read.seats[hand.lineup[i]["seat"]]
            seat.sitting_out = True  # the rest of this hand plays on from these seats
            Seat.objects.filter(pk=seat.pk).update(sitting_out=True)
            writes.event("timeout", {"hand": hand.id, "player": i}, hand)
            hand.deadline = None
            _persist(writes, hand, state, start)
        return _run(writes, hand, read, state, len(state.log))


# ------------------------------------------------------------------------- settling


def _settle(writes: TableWrites, hand: Hand, state: HandState, read: rows.TableRead) -> None:
    """Take the rake, pay the final stacks into the seats, free leaving and busted ring
    seats (cashing them out), finish; write it all, then tell the receivers."""
    table, seats = writes.table, read.seats
    rake = hand_rake(table.engine_rake(), state)
    final = [p.stack - taken for p, taken in zip(state.players, rake, strict=True)]
    for entry, stack in zip(hand.lineup, final, strict=True):
        seat = seats[entry["seat"]]
        seat.stack = stack
        writes.stack_changed(seat)
    if table.kind == TableKind.RING:
        gone = [s for s in seats.values() if s.player_id and (s.leaving or not s.stack)]
        if gone or sum(rake):  # only then does the ledger move
            chips.settle_lock(table, [s.player_id for s in gone if s.player_id])
        if sum(rake):
            hand.rake = sum(rake)
            chips.rake_take(table=table, hand_id=hand.id, amount=hand.rake)
            writes.event("rake", {"hand": hand.id, "amount": hand.rake, "shares": rake}, hand)
        for seat in gone:
            if seat.player_id is not None:
                writes.event(
                    "leave",
                    {"seat": seat.number, "player": seat.player_id, "cash_out": seat.stack},
                )
                chips.chips_cash_out(table=table, player_id=seat.player_id, amount=seat.stack)
                seat.player = None
                seat.stack = 0
                seat.leaving = False
                seat.sitting_out = False
                seat.save(update_fields=["player", "stack", "leaving", "sitting_out"])
    hand.status = HandStatus.FINISHED
    hand.finished_at = timezone.now()
    hand.deadline = None
    metrics.hand_finished(table.variant, (hand.finished_at - hand.started_at).total_seconds())
    writes.hand_changed(hand, "status", "finished_at", "deadline", "rake")
    writes.event("hand_end", {"hand": hand.id, "number": hand.number, "stacks": final}, hand)
    table.next_hand_at = hand.finished_at + timedelta(milliseconds=table.pause_ms)
    writes.table_changed("next_hand_at")
    with rows.pipelined():  # the writes travel with the webhooks' read of its subscriptions
        writes.flush()  # the receivers read (and write) the table's rows and log
        event_emit(
            "hand.finished",
            {"table": table.id, "hand": hand.id, "number": hand.number, "stacks": final},
            club_id=table.club_id,
        )
    busted = any(s.player_id is not None and not s.stack for s in seats.values())
    answers = hand_finished.send(
        sender=Table,
        table_id=table.id,
        hand_id=hand.id,
        kind=table.kind,
        busted=busted,
        in_game=read.in_game,
    )
    if not any(held for _receiver, held in answers):  # a held table waits for its release
        schedule.advance_at(table.id, table.next_hand_at)
