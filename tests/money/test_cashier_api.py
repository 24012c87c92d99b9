"""The cashier and account API: balance, transactions (paginated), deposits and
withdrawals by staff or the club's director, idempotent with an Idempotency-Key."""

from __future__ import annotations

import pytest

from clubs.models import Club, Membership, Role
from money.ledger import balance_of, player_account
from money.models import Posting
from tests.games.factories import make_player
from tests.games.test_api_support import client_for

pytestmark = pytest.mark.django_db


def url(player, action):
    return f"/api/v1/players/{player.id}/{action}/"


def test_staff_deposit_then_the_player_reads_balance_and_transactions():
    staff = client_for(make_player(staff=True))
    player = make_player(funds=0)
    response = staff.post(url(player, "deposit"), {"amount": 300, "memo": "cash"}, format="json")
    assert response.status_code == 201
    assert response.json()["balance"] == 300
    own = client_for(player)
    assert own.get(url(player, "account")).json() == {
        "player": player.id,
        "club": None,
        "balance": 300,
    }
    page = own.get(url(player, "transactions")).json()
    assert page["count"] == 1 and page["next"] is None and page["previous"] is None
    assert page["results"][0]["amount"] == 300
    assert page["results"][0]["reason"] == "deposit"
    assert own.get(url(player, "transactions") + "?reason=withdrawal").json()["count"] == 0


def test_a_player_cannot_read_or_move_another_players_money():
    player, other = make_player(), make_player()
    client = client_for(player)
    assert client.get(url(other, "account")).status_code == 403
    response = client.post(url(other, "deposit"), {"amount": 5}, format="json")
    assert response.status_code == 403
    assert response.json()["error"]["code"] == "forbidden"


def test_a_withdrawal_above_the_balance_is_a_409_that_says_what_to_do():
    staff = client_for(make_player(staff=True))
    player = make_player(funds=10)
    response = staff.post(url(player, "withdraw"), {"amount": 11}, format="json")
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "insufficient_funds"
    assert "deposit" in response.json()["error"]["message"]
    assert balance_of(player_account(player.id)) == 10


def test_a_clubs_director_runs_the_cashier_for_the_clubs_accounts_only():
    director = make_player()
    club = Club.objects.create(name="Card Room")
    Membership.objects.create(club=club, user=director.user, role=Role.DIRECTOR)
    player = make_player(funds=0)
    client = client_for(director)
    deposit = url(player, "deposit") + f"?club={club.id}"
    # issue 34 (10): a club's cashier serves its members only
    outside = client.post(deposit, {"amount": 40}, format="json")
    assert outside.status_code == 403
    assert client.get(url(player, "account") + f"?club={club.id}").status_code == 403
    assert balance_of(player_account(player.id, club.id)) == 0
    Membership.objects.create(club=club, user=player.user, role=Role.MEMBER)
    ok = client.post(deposit, {"amount": 40}, format="json")
    assert ok.status_code == 201
    assert balance_of(player_account(player.id, club.id)) == 40
    assert client.get(url(player, "account") + f"?club={club.id}").json()["balance"] == 40
    assert client.post(url(player, "deposit"), {"amount": 40}, format="json").status_code == 403


def test_the_same_idempotency_key_and_body_deposits_once_and_replays_the_response():
    staff = client_for(make_player(staff=True))
    player = make_player(funds=0)
    first = staff.post(
        url(player, "deposit"), {"amount": 25}, format="json", HTTP_IDEMPOTENCY_KEY="k1"
    )
    again = staff.post(
        url(player, "deposit"), {"amount": 25}, format="json", HTTP_IDEMPOTENCY_KEY="k1"
    )
    assert first.status_code == again.status_code == 201
    assert again.content == first.content
    assert again["Idempotent-Replayed"] == "true"
    assert balance_of(player_account(player.id)) == 25
    assert Posting.objects.filter(account__owner_id=player.id, account__kind="player").count() == 1


def test_the_same_idempotency_key_with_another_body_is_a_422_and_changes_nothing():
    staff = client_for(make_player(staff=True))
    player = make_player(funds=0)
    staff.post(url(player, "deposit"), {"amount": 25}, format="json", HTTP_IDEMPOTENCY_KEY="k2")
    other = staff.post(
        url(player, "deposit"), {"amount": 99}, format="json", HTTP_IDEMPOTENCY_KEY="k2"
    )
    assert other.status_code == 422
    assert other.json()["error"]["code"] == "idempotency_key_reused"
    assert balance_of(player_account(player.id)) == 25


def test_a_refused_request_is_not_kept_so_its_retry_runs_again():
    staff = client_for(make_player(staff=True))
    player = make_player(funds=0)
    refused = staff.post(
        url(player, "withdraw"), {"amount": 5}, format="json", HTTP_IDEMPOTENCY_KEY="k3"
    )
    assert refused.status_code == 409
    staff.post(url(player, "deposit"), {"amount": 5}, format="json")
    retried = staff.post(
        url(player, "withdraw"), {"amount": 5}, format="json", HTTP_IDEMPOTENCY_KEY="k3"
    )
    assert retried.status_code == 201
    assert balance_of(player_account(player.id)) == 0


def test_staff_list_and_search_players_paginated():
    staff = client_for(make_player("boss", staff=True))
    make_player("alice")
    make_player("bob", bot="random")
    page = staff.get("/api/v1/players/?search=ali").json()
    assert page["count"] == 1 and page["results"][0]["username"] == "alice"
    assert staff.get("/api/v1/players/?bot=true").json()["count"] == 1
    assert client_for(make_player()).get("/api/v1/players/").status_code == 403


def test_an_id_too_large_for_the_database_is_a_400_or_404_not_a_500():
    staff = client_for(make_player(staff=True))
    assert staff.get("/api/v1/players/?club=99999999999999999999").status_code == 400
    assert staff.get("/api/v1/webhooks/subscriptions/?club=99999999999999999999").status_code == 400
    assert staff.get("/api/v1/webhooks/subscriptions/99999999999999999999/").status_code == 404


def test_one_key_is_one_deposit_however_the_token_header_is_spelt():
    from rest_framework.authtoken.models import Token
    from rest_framework.test import APIClient

    staff = make_player(staff=True)
    key = Token.objects.create(user=staff.user).key
    player = make_player(funds=0)
    answers = [
        APIClient().post(
            url(player, "deposit"),
            {"amount": 25},
            HTTP_AUTHORIZATION=header,
            HTTP_IDEMPOTENCY_KEY="one-deposit",
        )
        for header in (f"Token {key}", f"token {key}", f"Token  {key}", f"TOKEN {key}")
    ]

    assert [a.status_code for a in answers] == [201] * 4
    assert [a.get("Idempotent-Replayed") for a in answers] == [None, "true", "true", "true"]
    assert balance_of(player_account(player.id)) == 25


def test_an_idempotency_key_is_not_shared_between_two_accounts():
    player = make_player(funds=0)
    first, second = make_player(staff=True), make_player(staff=True)
    for staff in (first, second):
        response = client_for(staff).post(
            url(player, "deposit"), {"amount": 10}, HTTP_IDEMPOTENCY_KEY="shared-key"
        )
        assert response.status_code == 201
        assert response.get("Idempotent-Replayed") is None
    assert balance_of(player_account(player.id)) == 20
