"""The desk's tournaments: who may run them, create and configure with errors beside the
fields and nothing changed, walk-ins, rebuys, add-ons and re-entries at the desk, settings
in play and late registration, all through the API's own services."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from clubs.models import Club, Membership, Role
from tests.games.factories import make_player
from tests.tourney.tournaments import make_tournament, seats_of, table_of
from tourney.models import Entry, Tournament
from tourney.services.commands.draw import tournament_start
from tourney.services.commands.schedules import schedule_create

pytestmark = pytest.mark.django_db

LEVELS = [
    {"game": "stud_hi", "ante": 5, "bring_in": 10, "small_bet": 20, "big_bet": 40, "minutes": 20},
    {"game": "stud_hi", "ante": 10, "bring_in": 15, "small_bet": 40, "big_bet": 80, "minutes": 20},
]
REBUYS = {
    "rebuy_max": 1,
    "rebuy_levels": 1,
    "rebuy_price": 55,
    "rebuy_fee": 5,
    "rebuy_chips": 1000,
}


def _client(player) -> Client:
    client = Client()
    client.force_login(player.user)
    return client


def _staff() -> Client:
    return _client(make_player("boss", staff=True))


def _form(schedule_id: int, **changes) -> dict[str, str]:
    form = {
        "name": "Friday",
        "mode": "online",
        "buy_in": "110",
        "fee": "10",
        "starting_stack": "1000",
        "chip_unit": "5",
        "table_size": "8",
        "schedule_id": str(schedule_id),
        "late_reg_levels": "1",
        **{k: str(v) for k, v in REBUYS.items()},
    }
    form.update({k: str(v) for k, v in changes.items()})
    return {k: v for k, v in form.items() if v != "None"}


def test_the_tournament_desk_is_for_those_who_run_it():
    ours, theirs = Club.objects.create(name="Ours"), Club.objects.create(name="Theirs")
    director = make_player("dana")
    Membership.objects.create(club=ours, user=director.user, role=Role.DIRECTOR)
    mine = make_tournament(name="Ours weekly", club_id=ours.id)
    other = make_tournament(name="Theirs weekly", club_id=theirs.id)
    anonymous = Client().get(f"/desk/tournaments/{mine.id}/")
    assert anonymous.status_code == 302
    assert _client(make_player("alice")).get("/desk/tournaments/").status_code == 403
    client = _client(director)
    listed = client.get("/desk/tournaments/").content.decode()
    assert "Ours weekly" in listed and "Theirs weekly" not in listed
    assert client.get(f"/desk/tournaments/{mine.id}/").status_code == 200
    assert client.get(f"/desk/tournaments/{other.id}/").status_code == 404
    Club.objects.filter(pk=theirs.pk).update(visibility="public")  # seen, not directed
    assert client.get(f"/desk/tournaments/{other.id}/").status_code == 403
    refused = client.post(f"/desk/tournaments/{other.id}/settings/", {"name": "Mine"})
    assert refused.status_code == 403
    assert Tournament.objects.get(pk=other.pk).name == "Theirs weekly"
    assert _staff().get(f"/desk/tournaments/{other.id}/").status_code == 200


def test_a_director_creates_only_for_their_club():
    ours, theirs = Club.objects.create(name="Ours"), Club.objects.create(name="Theirs")
    director = make_player("dana")
    Membership.objects.create(club=ours, user=director.user, role=Role.DIRECTOR)
    schedule = schedule_create(name="House", chip_unit=5, entries=LEVELS)
    client = _client(director)
    page = client.post("/desk/tournaments/new/", _form(schedule.id, club_id=theirs.id))
    assert page.status_code == 400 and 'id="f-club_id-error"' in page.content.decode()
    page = client.post("/desk/tournaments/new/", _form(schedule.id))
    assert page.status_code == 400 and 'id="f-club_id-error"' in page.content.decode()
    assert not Tournament.objects.exists()
    made = client.post("/desk/tournaments/new/", _form(schedule.id, club_id=ours.id))
    assert made.status_code == 302
    assert Tournament.objects.get().club_id == ours.id


def test_bad_settings_show_beside_their_fields_and_create_nothing():
    schedule = schedule_create(name="House", chip_unit=5, entries=LEVELS)
    staff = _staff()
    page = staff.post("/desk/tournaments/new/", _form(schedule.id, buy_in="lots", table_size=9))
    html = page.content.decode()
    assert page.status_code == 400
    assert 'id="f-buy_in-error"' in html and "Enter a whole number" in html
    assert 'id="f-table_size-error"' in html  # the API serializer's bound, 2 to 8
    page = staff.post("/desk/tournaments/new/", _form(schedule.id, fee=200))  # the service's
    html = page.content.decode()
    assert page.status_code == 400 and 'id="f-fee-error"' in html
    assert "fee is part of buy_in" in html
    assert not Tournament.objects.exists()


def test_a_tournament_made_at_the_desk_is_the_one_the_api_makes():
    schedule = schedule_create(name="House", chip_unit=5, entries=LEVELS)
    boss = make_player("boss", staff=True)
    client = _client(boss)
    response = client.post(
        "/desk/tournaments/new/", _form(schedule.id, payout_percentages="60, 40")
    )
    desk = Tournament.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"/desk/tournaments/{desk.id}/"
    api = APIClient()
    api.force_authenticate(boss.user)
    body = {k: int(v) if v.isdigit() else v for k, v in _form(schedule.id).items()}
    made = api.post(
        "/api/v1/tournaments/", {**body, "payout_percentages": ["60", "40"]}, format="json"
    )
    assert made.status_code == 201, made.json()
    by_api = Tournament.objects.get(pk=made.json()["id"])
    fields = [
        "name",
        "buy_in",
        "fee",
        "starting_stack",
        "chip_unit",
        "schedule_id",
        "late_reg_levels",
        "rebuy_max",
        "rebuy_price",
        "rebuy_chips",
        "payout_percentages",
    ]
    assert {f: getattr(desk, f) for f in fields} == {f: getattr(by_api, f) for f in fields}


def test_settings_change_while_registering_and_prices_stay_once_paid():
    tournament = make_tournament(players=2)
    staff = _staff()
    form = _form(tournament.schedule_id, name="Renamed", buy_in=220, fee=20)
    page = staff.post(f"/desk/tournaments/{tournament.id}/settings/", form)
    assert page.status_code == 409 and "entries have paid already" in page.content.decode()
    assert Tournament.objects.get(pk=tournament.pk).name == "Test event"
    form = _form(tournament.schedule_id, name="Renamed", **{k: "0" for k in REBUYS})
    saved = staff.post(f"/desk/tournaments/{tournament.id}/settings/", form)
    assert saved.status_code == 302
    assert Tournament.objects.get(pk=tournament.pk).name == "Renamed"


def test_a_walk_in_registers_and_rebuys_at_the_desk():
    tournament = make_tournament(players=2, late_reg_levels=1, **REBUYS)
    walker = make_player("walker")
    staff = _staff()
    empty = staff.post(f"/desk/tournaments/{tournament.id}/walk-in/", {"player": ""})
    assert empty.status_code == 400 and 'id="f-player-error"' in empty.content.decode()
    done = staff.post(f"/desk/tournaments/{tournament.id}/walk-in/", {"player": walker.id})
    assert done.status_code == 302
    entry = Entry.objects.get(tournament=tournament, player=walker)
    assert entry.status == "registered"
    again = staff.post(f"/desk/tournaments/{tournament.id}/walk-in/", {"player": walker.id})
    assert again.status_code == 400  # already in: the service's refusal beside the field
    tournament_start(tournament_id=tournament.id)
    player_id = next(iter(seats_of(table_of(tournament, 1).id).values()))[0]
    staff.post(f"/desk/tournaments/{tournament.id}/rebuy/", {"player": player_id})
    entry = Entry.objects.get(tournament=tournament, player_id=player_id)
    assert entry.rebuys == 1
    refused = staff.post(f"/desk/tournaments/{tournament.id}/rebuy/", {"player": player_id})
    assert refused.status_code == 302
    assert Entry.objects.get(pk=entry.pk).rebuys == 1
    page = staff.get(f"/desk/tournaments/{tournament.id}/").content.decode()
    assert "no rebuy left" in page


def test_in_play_settings_and_late_registration():
    tournament = make_tournament(players=2, late_reg_levels=1)
    tournament_start(tournament_id=tournament.id)
    staff = _staff()
    bad = staff.post(f"/desk/tournaments/{tournament.id}/settings/", {"level_minutes": "0"})
    assert bad.status_code == 400 and 'id="f-level_minutes-error"' in bad.content.decode()
    saved = staff.post(f"/desk/tournaments/{tournament.id}/settings/", {"action_seconds": "45"})
    assert saved.status_code == 302
    assert Tournament.objects.get(pk=tournament.pk).action_seconds == 45
    closed = staff.post(f"/desk/tournaments/{tournament.id}/late-registration/", {"close": ""})
    assert closed.status_code == 302
    assert Tournament.objects.get(pk=tournament.pk).late_reg_closed
    again = staff.post(f"/desk/tournaments/{tournament.id}/late-registration/", {"close": ""})
    assert again.status_code == 400 and "closed already" in again.content.decode()
