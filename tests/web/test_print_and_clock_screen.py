"""The print sheets (seat cards of the draw, payouts, results) for the tournament's directors,
and the clock screen's finished board, colour-up and chips in play."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.games.factories import make_player
from tests.tourney.director import started
from tests.tourney.tournaments import make_tournament
from tourney.models import Entry, Status
from tourney.services.commands.draw import tournament_start

pytestmark = pytest.mark.django_db


def _client(player) -> Client:
    client = Client()
    client.force_login(player.user)
    return client


def test_seat_cards_payouts_and_results_print_for_directors_only():
    tournament = started(4)
    staff = make_player("desk", staff=True)
    cards = _client(staff).get(f"/console/tournaments/{tournament.id}/print/seats/")
    html = cards.content.decode()
    assert cards.status_code == 200 and html.count('class="seat-card"') == 4
    assert "Table 1" in html and "1,000 chips" in html
    for sheet in ("payouts", "results"):
        page = _client(staff).get(f"/console/tournaments/{tournament.id}/print/{sheet}/")
        assert page.status_code == 200
    console = _client(staff).get(f"/console/tournaments/{tournament.id}/").content.decode()
    assert f"/console/tournaments/{tournament.id}/print/seats/" in console
    player = Entry.objects.filter(tournament=tournament).first().player
    refused = _client(player).get(f"/console/tournaments/{tournament.id}/print/seats/")
    assert refused.status_code == 403


def test_a_finished_clock_shows_results_and_the_deal_and_no_next_level():
    tournament = started(3)
    entries = list(Entry.objects.filter(tournament=tournament).order_by("id"))
    for place, entry in enumerate(entries, start=1):
        Entry.objects.filter(pk=entry.pk).update(place=place, prize=100 * (4 - place))
    tournament.status = Status.FINISHED
    tournament.deal = {"method": "chip_chop", "entries": {str(entries[0].id): 300}}
    tournament.save()
    html = Client().get(f"/clock/{tournament.id}/").content.decode()
    assert "Next" not in html and "countdown" not in html
    assert "Results" in html and "Deal (Chip chop)" in html and 'id="payouts"' not in html
    assert html.count("<li>") >= 3


def test_the_clock_shows_the_chips_in_play_and_the_sound_switch():
    tournament = make_tournament(players=3)
    tournament_start(tournament_id=tournament.id)
    html = Client().get(f"/clock/{tournament.id}/").content.decode()
    assert 'id="chips-in-play">3,000<' in html
    assert 'id="sound-switch"' in html and "<script>" not in html
