"""Read paths: tables, hands and events as a given player may see them.

Visibility is decided in one place, the engine's view builder (``games.engine.views``); this
module only maps users to their seat in a hand and never serializes raw engine state.
"""

from __future__ import annotations

import hashlib
import json
from datetime import datetime
from typing import Any

from django.db import connection, transaction
from django.db.models import Count, Q, QuerySet
from django.utils.translation import gettext

from clubs.access import can_direct, sees_club_q
from games import fair_dealing, rows
from games.codes import Code
from games.engine.events import event_from_dict, to_dicts
from games.engine.fairness import commitment
from games.engine.phh import dump_phh
from games.engine.replay import EVENT_TYPES, from_dict, replay
from games.engine.state import HandState
from games.engine.views import event_for, log_for, view_for
from games.errors import Conflict, Forbidden, NotFound
from games.hand_names import named_event, named_view
from games.locks import no_table, table_read_for_update
from games.models import (
    Hand,
    HandAudit,
    HandStatus,
    HoldReason,
    Player,
    Table,
    TableStatus,
)
from games.rows import TableRead


def get_table(table_id: int) -> Table:
    table = rows.table(table_id)
    if table is None:
        raise no_table(table_id)
    return table


def tables_seen(user: Any) -> QuerySet[Table]:
    """The tables ``user`` sees: the house's, and those of the clubs they see
    (``clubs.access``)."""
    return Table.objects.filter(sees_club_q(user))


def table_seen_check(user: Any, table_id: int) -> None:
    """A 404 for a table ``user`` does not see, as for one that does not exist."""
    if not tables_seen(user).filter(pk=table_id).exists():
        raise no_table(table_id)


def table_list(user: Any) -> QuerySet[Table]:
    """The tables ``user`` sees with the number of seats taken (``seated``), oldest first."""
    seated = Count("seats", filter=Q(seats__player__isnull=False))
    return tables_seen(user).annotate(seated=seated).order_by("id")


def running_hand(table: Table) -> Hand | None:
    """The table's hand in progress, if any (SQL built once: every advance and poll asks)."""
    return rows.running_hand(table)


def hand_state(hand: Hand) -> HandState:
    """The engine state of a hand, from its cached snapshot (replayed and checked)."""
    return from_dict(hand.snapshot)


def hand_state_from_events(hand: Hand) -> HandState:
    """The engine state rebuilt from the hand's events alone (the source of truth)."""
    log = [e.data for e in hand.events.order_by("seq") if e.kind in EVENT_TYPES]
    return replay(hand.header, log)


def hands_overdue(now: datetime) -> list[tuple[int, int]]:
    """Running hands whose decision is past its deadline, as (hand id, table id), oldest
    deadline first (the sweep expires them)."""
    overdue = Hand.objects.filter(status=HandStatus.RUNNING, deadline__lt=now)
    return list(overdue.order_by("deadline").values_list("id", "table_id"))


def tables_due(now: datetime) -> list[int]:
    """Open tables, not held, with no hand running and their next hand due (the sweep wakes
    them)."""
    due = Table.objects.filter(
        status=TableStatus.OPEN, next_hand_at__lt=now, hold_reason=HoldReason.NONE
    )
    return list(due.exclude(hands__status=HandStatus.RUNNING).values_list("id", flat=True))


def get_hand(hand_id: int) -> Hand:
    hand = Hand.objects.filter(pk=hand_id).first()
    if hand is None:
        raise NotFound(gettext("no hand %(hand_id)s") % {"hand_id": hand_id})
    return hand


def club_non_members(club_id: int, player_ids: list[int]) -> list[int]:
    """Those of ``player_ids`` whose account is not a member of ``club_id``, in order."""
    members = set(
        Player.objects.filter(
            pk__in=player_ids, user__club_memberships__club_id=club_id
        ).values_list("id", flat=True)
    )
    return sorted(set(player_ids) - members)


def hand_seen_check(user: Any, hand_id: int) -> None:
    """A 404 for a hand at a table ``user`` does not see, as for one that does not exist."""
    if not Hand.objects.filter(pk=hand_id, table__in=tables_seen(user)).exists():
        raise NotFound(gettext("no hand %(hand_id)s") % {"hand_id": hand_id})


def hand_record_check(user: Any, hand_id: int) -> None:
    """A hand's history and proofs go to the players dealt in, the directors of the table's
    club and staff: a 403 for anyone else who sees the table (a 404 for those who do not)."""
    hand_seen_check(user, hand_id)
    hand = Hand.objects.select_related("table").get(pk=hand_id)
    dealt_in = {entry["player"] for entry in hand.lineup}
    player_id = Player.objects.filter(user_id=user.pk).values_list("id", flat=True).first()
    if player_id in dealt_in or can_direct(user, hand.table.club_id):
        return
    raise Forbidden(
        gettext(
            "hand %(hand_id)s's history is for the players dealt in, the table's "
            "club's directors and staff"
        )
        % {"hand_id": hand_id},
        code=Code.NOT_DEALT_IN,
    )


def seat_index(hand: Hand, player: Player | None) -> int | None:
    """The viewer's index in the hand, or None for an observer."""
    if player is None:
        return None
    return next((i for i, p in enumerate(hand.lineup) if p["player"] == player.id), None)


SNAPSHOT_ATTEMPTS = 3

_RUNNING_HAND_FIELDS = ("id", "status", "deadline", "clock_decision", "cards_used")
"""What of the running hand's row a table's answer shows beyond what moves with the table's
seq (the hand's state moves only with an event, and every event bumps the seq)."""


def table_read(table_id: int) -> TableRead:
    """The table with its running hand and seats, as they are now (one round trip)."""
    return table_rows(table_id).read()


def table_rows(table_id: int) -> rows.TableRows:
    """``table_read``'s rows, not yet made into model instances (``rows.TableRows``)."""
    found = rows.table_rows(table_id)
    if found is None:
        raise no_table(table_id)
    return found


def table_version(table_id: int, viewer: Player | None) -> str:
    """``rows_version`` of the table as it is now."""
    return rows_version(table_rows(table_id), viewer)


def rows_version(found: rows.TableRows, viewer: Player | None) -> str:
    """A digest that changes whenever what ``table_detail`` shows ``viewer`` would: every
    field of the table's row, every seat with its player's name, the running hand's row
    (``_RUNNING_HAND_FIELDS``) and the viewer, as the rows hold them: no model instance made,
    no hand rebuilt, the cost of a poll that finds nothing new (the table API's ETag, the table
    page's 204).

    Of the rows the answer is made from (``found.read()``), or of rows read before them, never
    after: an answer newer than its version costs one more full answer, an older one would
    hide a change."""
    parts = (viewer.id if viewer is not None else None, found.shown(_RUNNING_HAND_FIELDS))
    text = json.dumps(parts, sort_keys=True, default=_plain)
    return hashlib.blake2b(text.encode(), digest_size=12).hexdigest()


def _plain(value: Any) -> str:
    """Dates, decimals and binary fields (``memoryview`` on PostgreSQL) as text."""
    return bytes(value).hex() if isinstance(value, memoryview | bytes) else str(value)


def table_snapshot(
    table_id: int, viewer: Player | None, first: TableRead | None = None
) -> tuple[Table, dict[str, Any]]:
    """The table and its detail (``table_detail``) as of one ``seq``; ``first``: a read of
    the table just made (its version answered a poll), tried first.

    Every change at a table bumps its seq in the same transaction, so a read that finds the
    same seq before and after it saw no change in between: that read is one snapshot. Reads
    are tried that way without a lock; under a burst of changes the last try takes the
    table's row lock, so the answer is always consistent and never refused.
    """
    read = first
    for _ in range(SNAPSHOT_ATTEMPTS):
        read = read or table_read(table_id)
        detail = table_detail(read, viewer)
        if rows.table_seq(table_id) == read.table.seq:
            return read.table, detail
        read = None
    with transaction.atomic():
        locked = table_read_for_update(table_id)
        return locked.table, table_detail(locked, viewer)


def table_detail(read: TableRead, viewer: Player | None) -> dict[str, Any]:
    """The table, its seats and the current hand as ``viewer`` may see it."""
    table, hand = read.table, read.hand
    state = hand_state(hand) if hand is not None else None
    live_stacks: dict[int, int] = {}
    if hand is not None and state is not None:
        live_stacks = {e["seat"]: p.stack for e, p in zip(hand.lineup, state.players, strict=True)}
    seats = [
        {
            "number": s.number,
            "player": s.player_id,
            "name": s.player.display_name if s.player else None,
            "bot": bool(s.player and s.player.is_bot),
            "stack": live_stacks.get(s.number, s.stack),
            "sitting_out": s.sitting_out,
            "leaving": s.leaving,
        }
        for s in read.seats.values()
    ]
    return {
        "seq": table.seq,
        "next_commitment": commitment(bytes(table.next_seed)),
        "seats": seats,
        "hand": hand_public(hand, state, viewer)
        if hand is not None and state is not None
        else None,
    }


def hand_public(hand: Hand, state: HandState, viewer: Player | None) -> dict[str, Any]:
    """A hand's header, what was published at its start and the engine view for ``viewer``;
    the server seed only when the reveal policy makes it public."""
    index = seat_index(hand, viewer)
    view = named_view(view_for(state, index), state)
    seats = [e["seat"] for e in hand.lineup]
    view["to_act_seats"] = [seats[i] for i in view["to_act"]]
    return {
        "id": hand.id,
        "number": hand.number,
        "status": hand.status,
        "lineup": hand.lineup,
        **fair_dealing.scheme_fields(hand),
        **fair_dealing.seed_disclosure(hand),
        "deadline": hand.deadline.isoformat() if hand.deadline else None,
        "you": index,
        "view": view,
    }


def recent_hands(table: Table, viewer: Player | None, limit: int = 3) -> list[dict[str, Any]]:
    """The table's last finished hands, newest first, as ``viewer`` may see them (winners,
    the hands shown, and the viewer's own cards)."""
    finished = table.hands.filter(status=HandStatus.FINISHED).order_by("-number")[:limit]
    return [hand_public(hand, hand_state(hand), viewer) for hand in finished]


EVENTS_PAGE = 500


def table_events(
    table: Table, viewer: Player | None, after: int, limit: int = EVENTS_PAGE
) -> dict[str, Any]:
    """One page of the table's events after ``after`` as ``viewer`` may see them.

    The page stops at the table's ``seq`` as read first (every event up to it is committed),
    so ``seq`` and the events agree. ``has_more`` says whether more events up to ``seq``
    follow this page; ``next_after`` is the ``after`` of the next request.
    """
    seq = rows.table_seq(table.pk) or 0
    page = list(table.events.filter(seq__gt=after, seq__lte=seq).order_by("seq")[: limit + 1])
    has_more = len(page) > limit
    events = page[:limit]
    states: dict[int, tuple[HandState, int | None]] = {}
    out = []
    for event in events:
        data = event.data
        if event.kind in EVENT_TYPES and event.hand_id is not None:
            if event.hand_id not in states:
                hand = event.hand
                assert hand is not None
                states[event.hand_id] = (hand_state(hand), seat_index(hand, viewer))
            state, index = states[event.hand_id]
            data = named_event(event_for(event_from_dict(data), index, state), state)
        out.append({"seq": event.seq, "hand": event.hand_id, "kind": event.kind, "data": data})
    return {
        "seq": seq,
        "events": out,
        "has_more": has_more,
        "next_after": events[-1].seq if events else max(after, 0),
    }


def _finished(hand: Hand, what: str) -> HandState:
    if hand.status != HandStatus.FINISHED:
        raise Conflict(
            gettext("hand %(id)s is still being played: %(what)s when it ends")
            % {"id": hand.id, "what": what}
        )
    return hand_state(hand)


def hand_history(hand: Hand, viewer: Player | None) -> dict[str, Any]:
    """A finished hand's full log as ``viewer`` may see it."""
    state = _finished(hand, "its history is ready")
    return {
        "hand": hand.id,
        "table": hand.table_id,
        "number": hand.number,
        "lineup": hand.lineup,
        "header": hand.header,
        **fair_dealing.scheme_fields(hand),
        **fair_dealing.seed_disclosure(hand),
        "log": [named_event(e, state) for e in log_for(state, seat_index(hand, viewer))],
    }


def hand_phh(hand: Hand, viewer: Player | None, *, every_card: bool = False) -> str:
    """A finished hand as PHH text: down cards only where shown or the viewer's own
    (``every_card``: all of them, for staff)."""
    state = _finished(hand, "its history is ready")
    return dump_phh(
        state,
        players=[entry["name"] for entry in hand.lineup],
        show_all_cards=every_card,
        known_to=seat_index(hand, viewer),
        rake=hand.rake,
        table=hand.table_id,
        hand=hand.number,
    )


def hand_verify(hand: Hand, viewer: Player | None) -> dict[str, Any]:
    """Proofs of every card ``viewer`` may see against the card root published at the
    hand's start, and the full check with the server seed once it is public."""
    state = _finished(hand, "verify its cards")
    if not hand.card_root:
        raise Conflict(
            gettext(
                "hand %(id)s was dealt before per-card commitments: staff can check it "
                "with its seed on the audit endpoint"
            )
            % {"id": hand.id},
            code=Code.NO_CARD_COMMITMENTS,
        )
    you = seat_index(hand, viewer)
    cards = fair_dealing.card_proofs(hand, state, you)
    disclosure = fair_dealing.seed_disclosure(hand)
    check = fair_dealing.seed_check(hand, state) if disclosure["seed"] is not None else None
    cards_ok = all(card["ok"] for card in cards)
    return {
        "hand": hand.id,
        **_dealing_record(hand),
        "you": you,
        "log": log_for(state, you),
        **fair_dealing.scheme_fields(hand),
        "cards": cards,
        "cards_ok": cards_ok,
        **disclosure,
        "seed_check": check,
        "ok": cards_ok and (check is None or check["ok"]),
    }


def _dealing_record(hand: Hand) -> dict[str, Any]:
    """What ``stud verify file`` replays the dealing order from (the lineup, header and log
    beside it) and where the table's log holds the hand's start (``start_seq``), whose card
    root it checks against."""
    start = hand.events.filter(kind="hand_start").values_list("seq", flat=True).first()
    return {
        "table": hand.table_id,
        "number": hand.number,
        "start_seq": start,
        "lineup": hand.lineup,
        "header": hand.header,
    }


def hand_audit(hand: Hand) -> dict[str, Any]:
    """Staff: a finished hand in full (every card, the seed, every proof) for a dispute.
    The caller logs the access (``games.services.audits``)."""
    state = _finished(hand, "audit it")
    committed = bool(hand.card_root)
    return {
        "hand": hand.id,
        **_dealing_record(hand),
        "started_at": hand.started_at,
        "finished_at": hand.finished_at,
        **fair_dealing.scheme_fields(hand),
        "seed": bytes(hand.seed).hex(),
        "log": to_dicts(state.log),
        "cards": fair_dealing.card_proofs(hand, state, None, every_card=True) if committed else [],
        "seed_check": fair_dealing.seed_check(hand, state) if committed else None,
    }


def hand_audits(hand_id: int | None) -> QuerySet[HandAudit]:
    """Staff: the log of audit accesses, newest first (one hand's, or all)."""
    audits = HandAudit.objects.select_related("user")
    return audits.filter(hand_id=hand_id) if hand_id is not None else audits


PLAYER_HANDS_SCAN = 2000
"""Without a JSON containment lookup (the embedded SQLite), how many newest hands are scanned."""


def player_hands(player: Player, *, limit: int = 50) -> list[Hand]:
    """The newest ``limit`` finished hands ``player`` was dealt in (their lineup names them)."""
    finished = (
        Hand.objects.filter(status=HandStatus.FINISHED)
        .select_related("table")
        .order_by("-finished_at", "-id")
    )
    if connection.features.supports_json_field_contains:
        return list(finished.filter(lineup__contains=[{"player": player.id}])[:limit])
    dealt_in = (
        hand
        for hand in finished[:PLAYER_HANDS_SCAN]
        if any(entry["player"] == player.id for entry in hand.lineup)
    )
    return [hand for hand, _ in zip(dealt_in, range(limit), strict=False)]
