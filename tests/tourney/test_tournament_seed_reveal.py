"""A tournament hand's server seed stays secret while the tournament runs, even after its
table closes (it would show the mucked cards of players still in the event)."""

from __future__ import annotations

import pytest

from games.fair_dealing import seed_is_public
from games.models import Hand, HandStatus, Table, TableStatus
from tests.tourney.tournaments import make_tournament, play_to_the_end
from tourney.models import Status, Tournament
from tourney.services.commands.draw import tournament_start

pytestmark = pytest.mark.django_db


def test_a_tournament_hands_seed_waits_for_the_end_of_the_tournament(settings):
    settings.STUD_SEED_REVEAL = "0"  # at once, as far as the delay goes
    tournament = make_tournament(players=3)
    tournament_start(tournament_id=tournament.id)
    play_to_the_end(tournament)
    hand = Hand.objects.filter(status=HandStatus.FINISHED).order_by("id").first()
    assert hand is not None and hand.card_root
    Tournament.objects.filter(pk=tournament.pk).update(status=Status.RUNNING)

    assert not seed_is_public(hand)

    Tournament.objects.filter(pk=tournament.pk).update(status=Status.FINISHED)
    assert seed_is_public(hand)
    settings.STUD_SEED_REVEAL = "table_closed"
    assert Table.objects.get(pk=hand.table_id).status == TableStatus.CLOSED
    assert seed_is_public(Hand.objects.get(pk=hand.pk))
