"""The clock screen: anyone may watch it; it shows the level, the countdown's deadline, the
field and the payouts; its live region answers 204 while nothing changed."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tests.games.factories import make_player, make_table
from tests.tourney.tournaments import expire_level, make_tournament, table_of
from tourney.models import Status, Tournament
from tourney.services.commands.clock import tournament_pause, tournament_resume
from tourney.services.commands.draw import tournament_start
from tourney.services.update import tournament_update

pytestmark = pytest.mark.django_db


def _started(players: int = 6, **overrides):
    tournament = make_tournament(players=players, **overrides)
    tournament_start(tournament_id=tournament.id)
    tournament.refresh_from_db()
    return tournament


def test_the_clock_shows_the_level_its_deadline_the_field_and_the_payouts_without_login():
    tournament = _started(players=6)
    response = Client().get(f"/clock/{tournament.id}/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "Seven Card Stud" in html and "Level 1" in html
    assert re.search(r"<dt>Ante</dt><dd>5</dd>", html)
    assert re.search(r"<dt>Small bet</dt><dd>30</dd>", html)
    deadline = int(tournament.level_ends_at.timestamp() * 1000)
    assert f'data-deadline="{deadline}"' in html
    assert "Level 2: Seven Card Stud" in html  # the next level
    assert "6 / 6" in html and "Prize pool" in html and "600" in html
    assert "Chip leader" in html


def test_a_paused_clock_shows_the_pause_and_the_time_it_keeps():
    tournament = _started()
    tournament_pause(tournament_id=tournament.id)
    tournament.refresh_from_db()
    html = Client().get(f"/clock/{tournament.id}/").content.decode()
    assert "Paused by the director" in html
    assert f'data-paused-ms="{tournament.paused_remaining_ms}"' in html
    assert "data-deadline" not in html


def test_the_live_region_is_204_while_unchanged_and_new_after_a_change():
    tournament = _started()
    client = Client()
    first = client.get(f"/clock/{tournament.id}/live/")
    version = re.search(r'data-version="(\w+)"', first.content.decode()).group(1)
    again = client.get(f"/clock/{tournament.id}/live/?v={version}")
    assert again.status_code == 204 and int(again["X-Server-Now"]) > 0
    tournament_pause(tournament_id=tournament.id)
    changed = client.get(f"/clock/{tournament.id}/live/?v={version}")
    assert changed.status_code == 200 and "Paused by the director" in changed.content.decode()
    tournament_resume(tournament_id=tournament.id)
    resumed = client.get(f"/clock/{tournament.id}/live/?v={version}").content.decode()
    tournament.refresh_from_db()
    assert f'data-deadline="{int(tournament.level_ends_at.timestamp() * 1000)}"' in resumed


def test_the_clock_of_a_tournament_that_does_not_exist_is_an_html_404():
    response = Client().get("/clock/999999/")
    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")
    assert "no tournament 999999" in response.content.decode()


def test_pages_carry_a_content_security_policy_and_no_inline_script():
    tournament = _started()
    response = Client().get(f"/clock/{tournament.id}/")
    policy = response["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "unsafe-inline" not in policy
    assert "frame-ancestors 'none'" in policy
    html = response.content.decode()
    scripts = re.findall(r"<script([^>]*)>(.*?)</script>", html, re.S)
    assert scripts and all(
        'src="/static/web/' in attrs and not body.strip() for attrs, body in scripts
    )
    assert " style=" not in html and "<style" not in html
    for attrs, _ in scripts:
        path = re.search(r'src="([^"]+)"', attrs).group(1)
        assert Client().get(path).status_code == 200  # served by the app itself (no CDN)


def test_the_break_screen_says_when_play_resumes_and_what_comes_next():
    tournament = _started()
    for _ in range(2):  # levels 1 and 2 end: the break of LEVELS starts
        expire_level(tournament)
        tournament_update(tournament_id=tournament.id)
    tournament.refresh_from_db()
    html = Client().get(f"/clock/{tournament.id}/").content.decode()
    assert 'class="break-title">Break<' in html and "Play resumes in" in html
    assert "Level 3: Razz" in html  # the level after the break
    assert "<dt>Ante</dt>" not in html


def test_hand_for_hand_is_a_banner_on_the_clock_and_at_every_table_while_it_lasts():
    tournament = _started(players=12)
    watcher = Client()
    watcher.force_login(make_player("rail").user)
    tables = [table_of(tournament, number).id for number in (1, 2)]
    assert "Hand for hand" not in Client().get(f"/clock/{tournament.id}/").content.decode()

    Tournament.objects.filter(pk=tournament.pk).update(hand_for_hand=True)

    assert "Hand for hand" in Client().get(f"/clock/{tournament.id}/").content.decode()
    for table_id in tables:
        assert "Hand for hand" in watcher.get(f"/play/tables/{table_id}/").content.decode()
    ring = make_table(name="Ring")
    assert "Hand for hand" not in watcher.get(f"/play/tables/{ring.id}/").content.decode()


def test_a_finished_tournament_shows_no_next_level():
    tournament = _started()
    Tournament.objects.filter(pk=tournament.pk).update(status=Status.FINISHED)
    html = Client().get(f"/clock/{tournament.id}/").content.decode()
    assert "Finished" in html
    assert "Next level" not in html and "Level 2:" not in html
