"""The tournament's append-only event log."""

from __future__ import annotations

from typing import Any

from tourney.models import Tournament, TournamentEvent


def event_append(tournament: Tournament, kind: str, data: dict[str, Any]) -> TournamentEvent:
    """Append one event (under the tournament lock); ``seq`` counts from 1."""
    last = (
        TournamentEvent.objects.filter(tournament=tournament)
        .order_by("-seq")
        .values_list("seq", flat=True)
        .first()
    )
    return TournamentEvent.objects.create(
        tournament=tournament, seq=(last or 0) + 1, kind=kind, data=data
    )
