"""The tournament's append-only event log; the events admin tools subscribe to also go to
the webhooks outbox, in the same transaction."""

from __future__ import annotations

from typing import Any

from integrations.webhooks.outbox import event_emit
from tourney.models import Tournament, TournamentEvent

WEBHOOK_TYPES = {
    "registered": "tournament.registered",
    "re_entry": "tournament.registered",
    "draw": "tournament.started",
    "level": "tournament.level",
    "break": "tournament.break",
    "eliminated": "tournament.bust",
    "moves": "tournament.move",
    "finished": "tournament.finished",
}
"""Log kinds that are webhook events, and their event types."""


def event_append(tournament: Tournament, kind: str, data: dict[str, Any]) -> TournamentEvent:
    """Append one event (under the tournament lock); ``seq`` counts from 1."""
    last = (
        TournamentEvent.objects.filter(tournament=tournament)
        .order_by("-seq")
        .values_list("seq", flat=True)
        .first()
    )
    event = TournamentEvent.objects.create(
        tournament=tournament, seq=(last or 0) + 1, kind=kind, data=data
    )
    if kind in WEBHOOK_TYPES:
        payload = {"tournament": tournament.id, "seq": event.seq, "kind": kind, "data": data}
        event_emit(WEBHOOK_TYPES[kind], payload, club_id=tournament.club_id)
        moves = data.get("moves", []) if kind == "moves" else []
        if any(move.get("reason") == "break" for move in moves):
            event_emit("tournament.table_broken", payload, club_id=tournament.club_id)
    return event
