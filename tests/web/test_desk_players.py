"""The desk's players pages: staff find, create (bots too), rename and make set-password
links; a director finds their clubs' members; a player gets the 403 page. Forms show their
errors beside the fields and change nothing then."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from games.models import Player
from tests.games.factories import make_player
from tests.leagues.world import make_world
from tests.web.desk_world import desk_client, error_beside

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("role", "status"),
    [("anonymous", 302), ("member_a", 403), ("director_a", 200), ("staff", 200)],
)
def test_who_opens_the_players_page(role, status):
    world = make_world()
    response = desk_client(world, role).get("/desk/players/")
    assert response.status_code == status
    if role == "anonymous":
        assert response["Location"].startswith("/accounts/login/?next=/desk/players/")
    if role == "member_a":
        assert "club directors" in response.content.decode()


def test_a_director_sees_only_their_clubs_members_and_cannot_create():
    world = make_world()
    client = desk_client(world, "director_a")
    page = client.get("/desk/players/").content.decode()
    assert world.players["member_a"].user.username in page
    assert world.players["director_b"].user.username not in page
    assert "Create a player" not in page
    other = world.players["director_b"]
    assert client.get(f"/desk/players/{other.id}/").status_code == 404
    created = client.post("/desk/players/", {"username": "eve", "display_name": "Eve"})
    assert created.status_code == 403
    assert not get_user_model().objects.filter(username="eve").exists()


def test_staff_create_a_person_with_no_password_and_a_bot():
    world = make_world()
    staff = desk_client(world, "staff")
    made = staff.post("/desk/players/", {"username": "carol", "display_name": "Carol", "bot": ""})
    carol = Player.objects.get(user__username="carol")
    assert made.status_code == 302 and made["Location"] == f"/desk/players/{carol.id}/"
    assert not carol.user.has_usable_password() and carol.bot == ""
    staff.post("/desk/players/", {"username": "robo", "display_name": "Robo", "bot": "rules"})
    assert Player.objects.get(user__username="robo").bot == "rules"
    assert "Robo" in staff.get("/desk/players/?q=rob").content.decode()


def test_create_errors_are_beside_their_fields_and_nothing_is_created():
    world = make_world()
    staff = desk_client(world, "staff")
    before = Player.objects.count()
    taken = staff.post(
        "/desk/players/", {"username": world.players["member_a"].user.username, "display_name": "X"}
    )
    html = taken.content.decode()
    assert taken.status_code == 400 and "is taken" in error_beside(html, "id_username")
    assert 'aria-describedby="id_username-error"' in html
    bad = staff.post("/desk/players/", {"username": "a b", "display_name": ""}).content.decode()
    assert error_beside(bad, "id_username") and error_beside(bad, "id_display_name")
    assert Player.objects.count() == before


def test_staff_rename_a_player_and_a_bad_name_shows_beside_the_field():
    world = make_world()
    staff = desk_client(world, "staff")
    member = world.players["member_a"]
    refused = staff.post(f"/desk/players/{member.id}/", {"display_name": ""})
    assert refused.status_code == 400
    assert error_beside(refused.content.decode(), "id_display_name")
    assert Player.objects.get(pk=member.pk).display_name == member.display_name
    assert staff.post(f"/desk/players/{member.id}/", {"display_name": "Mia"}).status_code == 302
    assert Player.objects.get(pk=member.pk).display_name == "Mia"
    director = desk_client(world, "director_a")
    assert director.post(f"/desk/players/{member.id}/", {"display_name": "Z"}).status_code == 403
    assert Player.objects.get(pk=member.pk).display_name == "Mia"


def test_a_set_password_link_for_an_account_without_one_and_not_for_one_with_one():
    world = make_world()
    staff = desk_client(world, "staff")
    staff.post("/desk/players/", {"username": "carol", "display_name": "Carol"})
    carol = Player.objects.get(user__username="carol")
    page = staff.post(f"/desk/players/{carol.id}/password-link/").content.decode()
    assert "http://testserver/accounts/set-password/" in page
    link = page.split('value="http://testserver', 1)[1].split('"', 1)[0]
    set_page = desk_client(world, "anonymous").post(
        link, {"password": "a-long-horse-battery", "password_again": "a-long-horse-battery"}
    )
    assert set_page.status_code == 302
    assert get_user_model().objects.get(pk=carol.user_id).check_password("a-long-horse-battery")
    refused = staff.post(f"/desk/players/{carol.id}/password-link/")
    assert refused.status_code == 409 and "only its owner" in refused.content.decode()
    director = desk_client(world, "director_a")
    assert director.post(f"/desk/players/{carol.id}/password-link/").status_code == 403


def test_an_unknown_player_is_the_404_page():
    world = make_world()
    make_player("zed", funds=0)
    assert desk_client(world, "staff").get("/desk/players/99999999/").status_code == 404


@pytest.mark.parametrize(
    ("role", "status", "linked"),
    [
        ("anonymous", 302, False),
        ("member_a", 403, False),
        ("director_a", 200, True),
        ("staff", 200, True),
    ],
)
def test_the_desk_home_and_its_nav_link_are_for_staff_and_directors(role, status, linked):
    world = make_world()
    client = desk_client(world, role)
    home = client.get("/desk/")
    assert home.status_code == status
    if status == 200:
        html = home.content.decode()
        for page in ("/desk/players/", "/desk/clubs/", "/desk/cashier/"):
            assert f'href="{page}"' in html
    lobby = client.get("/play/")
    assert ('href="/desk/"' in lobby.content.decode()) == linked


def test_a_search_the_database_cannot_hold_is_refused_beside_the_box():
    """A NUL in the search box was a 500 on PostgreSQL (the pages' fuzz found it)."""
    world = make_world()
    response = desk_client(world, "staff").get("/desk/players/", {"q": "a\x00b"})
    assert response.status_code == 400
    assert 'aria-invalid="true"' in response.content.decode()
