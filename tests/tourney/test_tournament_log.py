"""The tournament's log: events appended together keep their order and their seqs, and
their webhooks reach the outbox in the same order, one event each (a pass's eliminations
are appended at once)."""

from __future__ import annotations

import pytest

from integrations.models import Delivery, OutboxEvent, Subscription
from tests.tourney.tournaments import make_tournament
from tourney.models import TournamentEvent
from tourney.services.steps.log import events_append

pytestmark = pytest.mark.django_db


def test_events_appended_together_keep_their_order_and_each_reach_the_outbox():
    tournament = make_tournament()
    wanted = ["tournament.bust", "tournament.move", "tournament.table_broken"]
    hook = Subscription.objects.create(url="http://127.0.0.1:9/x", secret="s", event_types=wanted)
    before = TournamentEvent.objects.filter(tournament=tournament).count()
    moves = {"moves": [{"player": 3, "reason": "break"}]}

    events_append(
        tournament,
        [
            ("eliminated", {"group": 1, "busts": []}),
            ("places", {"which": "group 1"}),  # not a webhook event
            ("eliminated", {"group": 2, "busts": []}),
            ("moves", moves),
        ],
    )

    log = TournamentEvent.objects.filter(tournament=tournament, seq__gt=before).order_by("seq")
    assert [(e.seq, e.kind) for e in log] == [
        (before + 1, "eliminated"),
        (before + 2, "places"),
        (before + 3, "eliminated"),
        (before + 4, "moves"),
    ]
    outbox = OutboxEvent.objects.order_by("id")
    assert [(e.type, e.payload["seq"]) for e in outbox] == [
        ("tournament.bust", before + 1),
        ("tournament.bust", before + 3),
        ("tournament.move", before + 4),
        ("tournament.table_broken", before + 4),
    ]
    assert Delivery.objects.filter(subscription=hook).count() == 4
