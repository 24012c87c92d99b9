"""Read paths: tables, hands and events as a given player may see them.

Visibility is decided in one place, the engine's view builder (``games.engine.views``); this
module only maps users to their seat in a hand and never serializes raw engine state.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Count, Q, QuerySet

from games.engine.fairness import deck_from_seed, verify_commitment
from games.engine.state import HandState
from games.engine.views import event_for, log_for, view_for
from games.errors import Conflict, NotFound
from games.models import Hand, HandStatus, Player, Table, TableEvent
from games.services.hands import ENGINE_KINDS, hand_state, running_hand


def get_table(table_id: int) -> Table:
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        raise NotFound(f"no table {table_id}: list the tables at /api/v1/tables/")
    return table


def table_list() -> QuerySet[Table]:
    """Every table with the number of seats taken (``seated``), oldest first."""
    seated = Count("seats", filter=Q(seats__player__isnull=False))
    return Table.objects.annotate(seated=seated).order_by("id")


def get_hand(hand_id: int) -> Hand:
    hand = Hand.objects.filter(pk=hand_id).first()
    if hand is None:
        raise NotFound(f"no hand {hand_id}")
    return hand


def seat_index(hand: Hand, player: Player | None) -> int | None:
    """The viewer's index in the hand, or None for an observer."""
    if player is None:
        return None
    return next((i for i, p in enumerate(hand.lineup) if p["player"] == player.id), None)


def table_detail(table: Table, viewer: Player | None) -> dict[str, Any]:
    """The table, its seats and the current hand as ``viewer`` may see it."""
    hand = running_hand(table)
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
        for s in table.seats.select_related("player")
    ]
    return {
        "seq": table.seq,
        "seats": seats,
        "hand": hand_public(hand, state, viewer)
        if hand is not None and state is not None
        else None,
    }


def hand_public(hand: Hand, state: HandState, viewer: Player | None) -> dict[str, Any]:
    """A hand's header and engine view for ``viewer``; the seed only once the hand is over."""
    index = seat_index(hand, viewer)
    view = view_for(state, index)
    seats = [e["seat"] for e in hand.lineup]
    view["to_act_seats"] = [seats[i] for i in view["to_act"]]
    return {
        "id": hand.id,
        "number": hand.number,
        "status": hand.status,
        "lineup": hand.lineup,
        "commitment": hand.commitment,
        "seed": bytes(hand.seed).hex() if hand.status == HandStatus.FINISHED else None,
        "deadline": hand.deadline.isoformat() if hand.deadline else None,
        "you": index,
        "view": view,
    }


def recent_hands(table: Table, viewer: Player | None, limit: int = 3) -> list[dict[str, Any]]:
    """The table's last finished hands, newest first, as ``viewer`` may see them (winners,
    the hands shown, and the viewer's own cards)."""
    finished = table.hands.filter(status=HandStatus.FINISHED).order_by("-number")[:limit]
    return [hand_public(hand, hand_state(hand), viewer) for hand in finished]


def table_events(
    table: Table, viewer: Player | None, after: int, limit: int = 500
) -> list[dict[str, Any]]:
    """The table's events after ``after`` as ``viewer`` may see them."""
    events = list(table.events.filter(seq__gt=after).order_by("seq")[:limit])
    states: dict[int, tuple[HandState, int | None]] = {}
    out = []
    for event in events:
        data = event.data
        if event.kind in ENGINE_KINDS and event.hand_id is not None:
            if event.hand_id not in states:
                hand = event.hand
                assert hand is not None
                states[event.hand_id] = (hand_state(hand), seat_index(hand, viewer))
            state, index = states[event.hand_id]
            data = event_for(data, index, state)
        out.append({"seq": event.seq, "hand": event.hand_id, "kind": event.kind, "data": data})
    return out


def hand_history(hand: Hand, viewer: Player | None) -> dict[str, Any]:
    """A finished hand's full log as ``viewer`` may see it."""
    if hand.status != HandStatus.FINISHED:
        raise Conflict("the hand is still being played: its history is ready when it ends")
    state = hand_state(hand)
    return {
        "hand": hand.id,
        "table": hand.table_id,
        "number": hand.number,
        "lineup": hand.lineup,
        "header": hand.header,
        "commitment": hand.commitment,
        "seed": bytes(hand.seed).hex(),
        "log": log_for(state, seat_index(hand, viewer)),
    }


def hand_verify(hand: Hand) -> dict[str, Any]:
    """Rebuild the deck from the revealed seed and check every dealt card against it."""
    if hand.status != HandStatus.FINISHED:
        raise Conflict("the seed is revealed when the hand ends: verify it then")
    seed = bytes(hand.seed)
    deck = deck_from_seed(seed)
    checked = 0
    mismatches = []
    deals = TableEvent.objects.filter(hand=hand, kind__in=("deal", "burn")).order_by("seq")
    for event in deals:
        expected = deck.pop() if deck else None
        if repr(expected) != event.data["card"]:
            mismatches.append(
                {"seq": event.seq, "dealt": event.data["card"], "deck": repr(expected)}
            )
        checked += 1
    return {
        "hand": hand.id,
        "seed": seed.hex(),
        "commitment": hand.commitment,
        "commitment_ok": verify_commitment(seed, hand.commitment),
        "cards_checked": checked,
        "mismatches": mismatches,
        "ok": verify_commitment(seed, hand.commitment) and not mismatches,
    }
