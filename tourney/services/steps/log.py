"""The tournament's append-only event log; the events admin tools subscribe to also go to
the webhooks outbox, in the same transaction."""

from __future__ import annotations

from itertools import groupby
from operator import itemgetter
from typing import Any

from integrations.webhooks.outbox import events_emit
from tourney.models import Tournament, TournamentEvent

WEBHOOK_TYPES = {
    "registered": "tournament.registered",
    "re_entry": "tournament.registered",
    "draw": "tournament.started",
    "level": "tournament.level",
    "break": "tournament.break",
    "eliminated": "tournament.bust",
    "places_final": "tournament.places",
    "moves": "tournament.move",
    "finished": "tournament.finished",
}
"""Log kinds that are webhook events, and their event types."""


def event_append(tournament: Tournament, kind: str, data: dict[str, Any]) -> TournamentEvent:
    """Append one event (under the tournament lock); ``seq`` counts from 1."""
    return events_append(tournament, [(kind, data)])[0]


def events_append(
    tournament: Tournament, logged: list[tuple[str, dict[str, Any]]]
) -> list[TournamentEvent]:
    """Append events (kind, data) in order (under the tournament lock), in a few statements
    however many; the webhook ones go to the outbox in the same order."""
    last = (
        TournamentEvent.objects.filter(tournament=tournament)
        .order_by("-seq")
        .values_list("seq", flat=True)
        .first()
    )
    events = TournamentEvent.objects.bulk_create(
        TournamentEvent(tournament=tournament, seq=(last or 0) + n, kind=kind, data=data)
        for n, (kind, data) in enumerate(logged, start=1)
    )
    hooks = [hook for event in events for hook in _webhooks(tournament, event)]
    for event_type, run in groupby(hooks, key=itemgetter(0)):
        events_emit(event_type, [payload for _, payload in run], club_id=tournament.club_id)
    return events


def _webhooks(tournament: Tournament, event: TournamentEvent) -> list[tuple[str, dict[str, Any]]]:
    """The webhook events (type, payload) a log event makes: none, one, or a move that
    breaks a table two."""
    if event.kind not in WEBHOOK_TYPES:
        return []
    payload = {
        "tournament": tournament.id,
        "seq": event.seq,
        "kind": event.kind,
        "data": event.data,
    }
    hooks = [(WEBHOOK_TYPES[event.kind], payload)]
    moves = event.data.get("moves", []) if event.kind == "moves" else []
    if any(move.get("reason") == "break" for move in moves):
        hooks.append(("tournament.table_broken", payload))
    return hooks
