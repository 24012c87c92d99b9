"""The director's console: staff or the club's director only; start, pause, resume, live
reports and move acknowledgements, deal quotes; ring tables paused and resumed by staff."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.utils.html import escape

from clubs.models import Club, Membership, Role
from games.models import Table
from tests.games.factories import make_player, make_table
from tests.tourney.tournaments import make_tournament, seats_of, table_of
from tourney.models import Entry, Move, Tournament
from tourney.services.commands.draw import tournament_start

pytestmark = pytest.mark.django_db


def _client(player) -> Client:
    client = Client()
    client.force_login(player.user)
    return client


def _staff() -> Client:
    return _client(make_player("boss", staff=True))


def test_the_console_is_for_staff_and_directors_only():
    assert Client().get("/console/").status_code == 302  # to the login page
    player = _client(make_player("alice"))
    refused = player.get("/console/")
    assert refused.status_code == 403 and "club directors" in refused.content.decode()
    tournament = make_tournament(name="Staff event")
    assert player.post(f"/console/tournaments/{tournament.id}/start/").status_code == 403
    assert Tournament.objects.get(pk=tournament.pk).status == "registering"
    assert "Staff event" in _staff().get("/console/").content.decode()


def test_a_club_director_directs_only_the_club_s_tournaments():
    ours, theirs = Club.objects.create(name="Ours"), Club.objects.create(name="Theirs")
    director = make_player("dana")
    Membership.objects.create(club=ours, user=director.user, role=Role.DIRECTOR)
    mine = make_tournament(name="Ours weekly", players=4)
    other = make_tournament(name="Theirs weekly", players=4)
    Tournament.objects.filter(pk=mine.pk).update(club=ours)  # no service sets a club yet
    Tournament.objects.filter(pk=other.pk).update(club=theirs)
    client = _client(director)
    home = client.get("/console/").content.decode()
    assert "Ours weekly" in home and "Theirs weekly" not in home
    assert client.post(f"/console/tournaments/{mine.id}/start/").status_code == 302
    assert Tournament.objects.get(pk=mine.pk).status == "running"
    # the other club is members-only (the default): its tournament is not there for dana
    assert client.get(f"/console/tournaments/{other.id}/").status_code == 404
    assert client.post(f"/console/tournaments/{other.id}/start/").status_code == 404
    Club.objects.filter(pk=theirs.pk).update(visibility="public")  # seen, not directed
    assert client.get(f"/console/tournaments/{other.id}/").status_code == 403
    assert client.post(f"/console/tournaments/{other.id}/start/").status_code == 403
    assert Tournament.objects.get(pk=other.pk).status == "registering"


def test_start_pause_and_resume_with_htmx_answer_with_the_live_region():
    tournament = make_tournament(players=4)
    staff = _staff()
    started = staff.post(f"/console/tournaments/{tournament.id}/start/", HTTP_HX_REQUEST="true")
    assert started.status_code == 200 and 'id="console-live"' in started.content.decode()
    paused = staff.post(f"/console/tournaments/{tournament.id}/pause/", HTTP_HX_REQUEST="true")
    assert "Pause" in paused.content.decode()
    assert Tournament.objects.get(pk=tournament.pk).status == "paused"
    twice = staff.post(f"/console/tournaments/{tournament.id}/pause/", HTTP_HX_REQUEST="true")
    assert twice.status_code == 409 and "not running" in twice.content.decode()
    staff.post(f"/console/tournaments/{tournament.id}/resume/", HTTP_HX_REQUEST="true")
    assert Tournament.objects.get(pk=tournament.pk).status == "running"


def _entry_at(tournament, table_number: int, seat: int) -> Entry:
    player_id = seats_of(table_of(tournament, table_number).id)[seat][0]
    return Entry.objects.get(tournament=tournament, player_id=player_id, status="playing")


def test_live_bust_outs_and_chip_counts_are_reported_and_moves_acknowledged():
    tournament = make_tournament(players=7, mode="live", table_size=4)
    tournament_start(tournament_id=tournament.id)
    staff = _staff()
    page = staff.get(f"/console/tournaments/{tournament.id}/").content.decode()
    assert "Report bust-outs" in page
    seats = sorted(seats_of(table_of(tournament, 2).id))
    out = [_entry_at(tournament, 2, seats[0]), _entry_at(tournament, 2, seats[1])]
    winner = _entry_at(tournament, 1, sorted(seats_of(table_of(tournament, 1).id))[0])
    missing = staff.post(
        f"/console/tournaments/{tournament.id}/report/",
        {"bust": [out[0].id]},
        follow=True,
    )
    assert "give the chips at the start of the hand" in missing.content.decode()
    assert Entry.objects.get(pk=out[0].pk).status == "playing"
    staff.post(
        f"/console/tournaments/{tournament.id}/report/",
        {
            "bust": [out[0].id, out[1].id],
            f"start_{out[0].id}": "1000",
            f"start_{out[1].id}": "1000",
            f"count_{winner.id}": "3000",
        },
    )
    assert {Entry.objects.get(pk=e.pk).status for e in out} == {"eliminated"}
    move = Move.objects.get(tournament=tournament, status="pending")
    html = staff.get(f"/console/tournaments/{tournament.id}/").content.decode()
    assert escape(str(move)) in html and f"Acknowledge move {move.id}" in html
    staff.post(
        f"/console/tournaments/{tournament.id}/moves/{move.id}/acknowledge/",
        HTTP_HX_REQUEST="true",
    )
    assert Move.objects.get(pk=move.pk).status == "acknowledged"
    assert "None pending." in staff.get(f"/console/tournaments/{tournament.id}/").content.decode()


def test_deal_quotes_show_or_say_why_not():
    tournament = make_tournament(players=4, payout_percentages=["70", "30"])
    tournament_start(tournament_id=tournament.id)
    staff = _staff()
    staff.post(f"/console/tournaments/{tournament.id}/pause/")
    html = staff.get(f"/console/tournaments/{tournament.id}/?quote=icm").content.decode()
    amounts = [int(a) for a in re.findall(r'<td class="num">(\d+)</td></tr>', html)]
    assert "ICM deal" in html and sum(amounts[-4:]) == 400
    bad = staff.get(f"/console/tournaments/{tournament.id}/?quote=coin").content.decode()
    assert "unknown deal method" in bad


def test_a_chip_chop_quote_says_the_guarantee_and_keeps_its_method_chosen():
    tournament = make_tournament(players=4, payout_percentages=["50", "30", "20"])
    tournament_start(tournament_id=tournament.id)
    staff = _staff()
    staff.post(f"/console/tournaments/{tournament.id}/pause/")
    html = staff.get(f"/console/tournaments/{tournament.id}/?quote=chip_chop").content.decode()
    assert "Chip chop deal" in html
    assert '<option value="chip_chop" selected>' in html
    assert "locked in at the next payout" in html


def test_staff_pause_and_resume_ring_tables_from_the_console():
    table = make_table(name="Ring one")
    staff = _staff()
    assert "Pause Ring one" in staff.get("/console/").content.decode()
    staff.post(f"/console/tables/{table.id}/pause/")
    assert Table.objects.get(pk=table.pk).status == "paused"
    staff.post(f"/console/tables/{table.id}/resume/")
    assert Table.objects.get(pk=table.pk).status == "open"
    player = _client(make_player("alice"))
    assert player.post(f"/console/tables/{table.id}/pause/").status_code == 403
    assert Table.objects.get(pk=table.pk).status == "open"


def test_the_clock_controls_add_time_jump_levels_and_call_a_break_the_clock_shows():
    tournament = make_tournament(players=4)
    tournament_start(tournament_id=tournament.id)
    staff = _staff()
    url = f"/console/tournaments/{tournament.id}/clock"
    before = Tournament.objects.get(pk=tournament.pk).level_ends_at
    staff.post(f"{url}/add-time/", {"seconds": "60"}, HTTP_HX_REQUEST="true")
    after = Tournament.objects.get(pk=tournament.pk).level_ends_at
    assert (after - before).total_seconds() == 60
    bad = staff.post(f"{url}/add-time/", {"seconds": "lots"}, HTTP_HX_REQUEST="true")
    assert bad.status_code == 400 and "whole number" in bad.content.decode()
    staff.post(f"{url}/next-level/", HTTP_HX_REQUEST="true")
    assert Tournament.objects.get(pk=tournament.pk).level_index == 1
    staff.post(f"{url}/break/", {"minutes": "5"}, HTTP_HX_REQUEST="true")
    clock = Client().get(f"/clock/{tournament.id}/").content.decode()
    ends = Tournament.objects.get(pk=tournament.pk).break_ends_at
    assert "Play resumes in" in clock and f'data-deadline="{int(ends.timestamp() * 1000)}"' in clock
    staff.post(f"{url}/end-break/", HTTP_HX_REQUEST="true")
    assert Tournament.objects.get(pk=tournament.pk).break_ends_at is None
    assert "Break in" in Client().get(f"/clock/{tournament.id}/").content.decode()  # level 2
    player = _client(make_player("alice"))
    assert player.post(f"{url}/next-level/").status_code == 403
    assert Tournament.objects.get(pk=tournament.pk).level_index == 1


def test_a_live_report_with_odd_fields_is_refused_with_a_message_and_changes_nothing():
    # Found by tests/web/test_pages_fuzz.py: each of these was a 500 (ValueError, or
    # OverflowError when a huge count reached the seat's column).
    tournament = make_tournament(players=5, mode="live", table_size=4)
    tournament_start(tournament_id=tournament.id)
    staff = _staff()
    entry = _entry_at(tournament, 1, sorted(seats_of(table_of(tournament, 1).id))[0])
    before = seats_of(table_of(tournament, 1).id)
    for form, message in [
        ({"count_": "3000"}, "the entry in &#x27;count_&#x27; must be a whole number"),
        ({"start_x": "10", "bust": "x"}, "a ticked bust-out must be a whole number"),
        ({"bust": "\u00b2", f"start_{entry.id}": "10"}, "a ticked bust-out must be a whole number"),
        ({f"count_{10**30}": "3000"}, f"must be from 1 to {2**63 - 1}"),
        ({f"count_{entry.id}": str(10**30)}, f"chips must be from 0 to {2**63 - 1}"),
    ]:
        response = staff.post(f"/console/tournaments/{tournament.id}/report/", form, follow=True)
        assert response.status_code == 200 and message in response.content.decode(), form
    assert seats_of(table_of(tournament, 1).id) == before
    assert Entry.objects.get(pk=entry.pk).status == "playing"


def test_time_beyond_the_api_s_bounds_is_refused_by_the_clock_form_and_changes_nothing():
    # Found by tests/web/test_pages_fuzz.py: 10**30 seconds was a 500 (OverflowError in
    # timedelta); the form takes what the director's API takes (-10**6..10**6 s, 1..1440 min).
    tournament = make_tournament(players=4)
    tournament_start(tournament_id=tournament.id)
    staff = _staff()
    url = f"/console/tournaments/{tournament.id}/clock"
    before = Tournament.objects.get(pk=tournament.pk).level_ends_at
    for seconds in (str(10**30), str(2**63), "-1000001"):
        refused = staff.post(f"{url}/add-time/", {"seconds": seconds}, HTTP_HX_REQUEST="true")
        assert refused.status_code == 400
        assert "the seconds to add must be from -1000000 to 1000000" in refused.content.decode()
    refused = staff.post(f"{url}/break/", {"minutes": str(10**30)}, HTTP_HX_REQUEST="true")
    assert refused.status_code == 400 and "must be from 1 to 1440" in refused.content.decode()
    after = Tournament.objects.get(pk=tournament.pk)
    assert after.level_ends_at == before and after.break_ends_at is None


def test_a_quoted_deal_is_recorded_from_the_console_and_shows_on_the_console_and_clock():
    tournament = make_tournament(players=4, payout_percentages=["50", "30", "20"])
    tournament_start(tournament_id=tournament.id)
    staff = _staff()
    staff.post(f"/console/tournaments/{tournament.id}/pause/")
    html = staff.get(f"/console/tournaments/{tournament.id}/?quote=icm").content.decode()
    amounts = dict(re.findall(r'name="amount_(\d+)" value="(\d+)"', html))
    assert len(amounts) == 4 and "Record this deal" in html

    response = staff.post(
        f"/console/tournaments/{tournament.id}/deal/",
        {"method": "icm", **{f"amount_{e}": a for e, a in amounts.items()}},
    )

    assert response.status_code == 302
    deal = Tournament.objects.get(pk=tournament.pk).deal
    assert deal == {"method": "icm", "entries": {e: int(a) for e, a in amounts.items()}}
    console = staff.get(f"/console/tournaments/{tournament.id}/").content.decode()
    clock = Client().get(f"/clock/{tournament.id}/").content.decode()
    for page in (console, clock):
        assert "Deal (ICM)" in page and 'id="deal"' in page


def test_a_deal_that_cannot_be_recorded_yet_says_when_it_can():
    tournament = make_tournament(players=4, payout_percentages=["70", "30"], late_reg_levels=2)
    tournament_start(tournament_id=tournament.id)
    staff = _staff()
    staff.post(f"/console/tournaments/{tournament.id}/pause/")
    html = staff.get(f"/console/tournaments/{tournament.id}/?quote=icm").content.decode()
    assert "it can be recorded once these close: late registration" in html
    assert "Record this deal" not in html


def test_a_deal_with_wrong_amounts_is_refused_and_records_nothing():
    tournament = make_tournament(players=4, payout_percentages=["70", "30"])
    tournament_start(tournament_id=tournament.id)
    staff = _staff()
    staff.post(f"/console/tournaments/{tournament.id}/pause/")
    entries = Entry.objects.filter(tournament=tournament).values_list("id", flat=True)
    staff.post(
        f"/console/tournaments/{tournament.id}/deal/",
        {"method": "icm", **{f"amount_{e}": 1 for e in entries}},
    )
    assert Tournament.objects.get(pk=tournament.pk).deal in (None, {})


def test_a_live_count_that_does_not_add_up_shows_on_the_console_and_the_winner_s_is_taken():
    tournament = make_tournament(players=3, mode="live", payout_percentages=["100"])
    tournament_start(tournament_id=tournament.id)
    staff = _staff()
    url = f"/console/tournaments/{tournament.id}/"
    a, b, c = (_entry_at(tournament, 1, s) for s in sorted(seats_of(table_of(tournament, 1).id)))
    staff.post(url + "report/", {"bust": [a.id], f"start_{a.id}": "1000"})
    left = ", ".join(str(e.id) for e in sorted([b, c], key=lambda e: e.id))
    assert f"Count these entries for the next check (each bust moves chips): {left}." in (
        staff.get(url).content.decode()
    )
    staff.post(url + "report/", {f"count_{b.id}": "1500", f"count_{c.id}": "1000"})
    page = staff.get(url).content.decode()
    assert "The count does not add up: 2,500 chips counted, 3,000 in play (-500)." in page
    staff.post(url + "report/", {"bust": [b.id], f"start_{b.id}": "1500"})
    assert f'name="count_{c.id}"' in staff.get(url).content.decode()  # the closing count
    staff.post(url + "report/", {f"count_{c.id}": "3000"})
    page = staff.get(url).content.decode()
    assert "Last full count: 3,000 chips, as many as are in play." in page
