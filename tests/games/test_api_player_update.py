"""Staff change a player's display name (PATCH /players/{id}/); nobody else may."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from games.models import Player
from tests.games.factories import make_player

pytestmark = pytest.mark.django_db


def _client(player=None) -> APIClient:
    client = APIClient()
    if player is not None:
        client.force_authenticate(player.user)
    return client


def test_staff_rename_a_player_and_read_them():
    alice = make_player("alice", funds=0)
    staff = _client(make_player("boss", staff=True, funds=0))
    renamed = staff.patch(f"/api/v1/players/{alice.id}/", {"display_name": " Al "}, format="json")
    assert renamed.status_code == 200 and renamed.json()["display_name"] == "Al"
    assert staff.get(f"/api/v1/players/{alice.id}/").json()["username"] == "alice"


@pytest.mark.parametrize(
    ("body", "status"), [({"display_name": ""}, 400), ({"display_name": "x" * 41}, 400)]
)
def test_a_bad_name_is_a_400_and_nothing_changes(body, status):
    alice = make_player("alice", funds=0)
    staff = _client(make_player("boss", staff=True, funds=0))
    assert staff.patch(f"/api/v1/players/{alice.id}/", body, format="json").status_code == status
    assert Player.objects.get(pk=alice.pk).display_name == "Alice"


def test_only_staff_rename_players():
    alice = make_player("alice", funds=0)
    bob = make_player("bob", funds=0)
    response = _client(bob).patch(
        f"/api/v1/players/{alice.id}/", {"display_name": "Mallory"}, format="json"
    )
    assert response.status_code == 403
    assert _client().patch(f"/api/v1/players/{alice.id}/", {}, format="json").status_code == 401
    assert Player.objects.get(pk=alice.pk).display_name == "Alice"
    staff = _client(make_player("boss", staff=True, funds=0))
    assert (
        staff.patch("/api/v1/players/999999/", {"display_name": "X"}, format="json").status_code
        == 404
    )
