"""The cashier's pages: a player's account (balance, transactions, deposit, withdraw) and
the club's day from the ledger. Staff serve every account; a club's director their club's
members only; a player gets the 403 page. A refused form shows the error beside the amount
and posts nothing; the ledger balances after every deposit and withdrawal."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from clubs.models import Club, Membership, Role
from money.ledger import balance_of, player_account
from money.models import Transaction
from money.reconciliation import ledger_check
from tests.games.factories import FUNDS, make_player
from tests.leagues.world import make_world
from tests.web.desk_world import desk_client, error_beside

pytestmark = pytest.mark.django_db


def _member(world):
    member = world.players["member_a"]
    return member, player_account(member.id, world.club_a.id)


@pytest.mark.parametrize(
    ("role", "status"),
    [
        ("anonymous", 302),
        ("member_a", 403),
        ("director_b", 404),
        ("director_a", 200),
        ("staff", 200),
    ],
)
def test_who_opens_a_member_s_account_in_club_a(role, status):
    world = make_world()
    member, _ = _member(world)
    response = desk_client(world, role).get(
        f"/desk/cashier/players/{member.id}/?club={world.club_a.id}"
    )
    assert response.status_code == status


@pytest.mark.parametrize(("role", "status"), [("director_b", 404), ("member_a", 403)])
def test_others_cannot_deposit_and_nothing_is_posted(role, status):
    world = make_world()
    member, key = _member(world)
    before = (Transaction.objects.count(), balance_of(key))
    response = desk_client(world, role).post(
        f"/desk/cashier/players/{member.id}/deposit/?club={world.club_a.id}",
        {"deposit-amount": "500"},
    )
    assert response.status_code == status
    assert (Transaction.objects.count(), balance_of(key)) == before


def test_a_director_cannot_serve_a_site_wide_account_or_another_club():
    world = make_world()
    member, _ = _member(world)
    client = desk_client(world, "director_a")
    # no club named: the director's own club is served
    page = client.get(f"/desk/cashier/players/{member.id}/")
    assert page.status_code == 200 and "Balance in Club A" in page.content.decode()
    assert (
        client.get(f"/desk/cashier/players/{member.id}/?club={world.club_b.id}").status_code == 404
    )
    # a director of two clubs, the player in the second only: that club's account is served
    second = Club.objects.create(name="Club A2")
    Membership.objects.create(
        club=second, user=world.players["director_a"].user, role=Role.DIRECTOR
    )
    newbie = make_player("newbie", funds=0)
    Membership.objects.create(club=second, user=newbie.user, role=Role.MEMBER)
    assert (
        "Balance in Club A2" in client.get(f"/desk/cashier/players/{newbie.id}/").content.decode()
    )
    for odd in ("abc", "²", "9" * 30):
        assert client.get(f"/desk/cashier/?club={odd}").status_code == 404


def test_a_deposit_and_a_withdrawal_post_as_the_api_would_and_the_ledger_balances():
    world = make_world()
    member, key = _member(world)
    start = balance_of(key)
    client = desk_client(world, "director_a")
    url = f"/desk/cashier/players/{member.id}"
    query = f"?club={world.club_a.id}"
    deposited = client.post(
        f"{url}/deposit/{query}", {"deposit-amount": "500", "deposit-memo": "r1"}
    )
    assert deposited.status_code == 302 and deposited["Location"] == f"{url}/{query}"
    assert balance_of(key) == start + 500
    record = Transaction.objects.latest("id")
    # as POST /api/v1/players/{id}/deposit/ posts it (money.cashier.deposit)
    assert (record.reason, record.ref_kind, record.ref_id, record.memo, record.created_by_id) == (
        "deposit",
        "player",
        member.id,
        "r1",
        world.players["director_a"].user_id,
    )
    client.post(f"{url}/withdraw/{query}", {"withdraw-amount": "200"})
    assert balance_of(key) == start + 300
    page = client.get(f"{url}/{query}").content.decode()
    assert f'<strong id="balance">{start + 300:,}</strong>' in page
    assert "Deposit at the cashier" in page and "Withdrawal at the cashier" in page
    assert ledger_check().ok


@pytest.mark.parametrize(
    ("form", "error"),
    [
        ({"deposit-amount": "0"}, "greater than or equal to 1"),
        ({"deposit-amount": "ten"}, "whole number"),
        ({"deposit-amount": ""}, "required"),
        ({"deposit-amount": str(10**16)}, "less than or equal to"),
    ],
)
def test_a_bad_deposit_shows_beside_the_amount_and_posts_nothing(form, error):
    world = make_world()
    member, key = _member(world)
    before = (Transaction.objects.count(), balance_of(key))
    refused = desk_client(world, "staff").post(
        f"/desk/cashier/players/{member.id}/deposit/?club={world.club_a.id}", form
    )
    assert refused.status_code == 400
    assert error in error_beside(refused.content.decode(), "id_deposit-amount")
    assert (Transaction.objects.count(), balance_of(key)) == before


def test_withdrawing_more_than_the_balance_shows_beside_the_amount():
    world = make_world()
    member, key = _member(world)
    held = balance_of(key)
    refused = desk_client(world, "staff").post(
        f"/desk/cashier/players/{member.id}/withdraw/?club={world.club_a.id}",
        {"withdraw-amount": str(held + 1)},
    )
    assert refused.status_code == 400
    assert "deposit at the cashier first" in error_beside(
        refused.content.decode(), "id_withdraw-amount"
    )
    assert balance_of(key) == held


def test_staff_serve_a_site_wide_account():
    world = make_world()
    member = world.players["member_a"]
    key = player_account(member.id)
    start = balance_of(key)
    staff = desk_client(world, "staff")
    assert (
        staff.post(
            f"/desk/cashier/players/{member.id}/deposit/", {"deposit-amount": "7"}
        ).status_code
        == 302
    )
    assert balance_of(key) == start + 7


@pytest.mark.parametrize(
    ("role", "status"),
    [
        ("anonymous", 302),
        ("member_a", 403),
        ("director_b", 404),
        ("director_a", 200),
        ("staff", 200),
    ],
)
def test_who_opens_club_a_s_day(role, status):
    world = make_world()
    response = desk_client(world, role).get(f"/desk/cashier/?club={world.club_a.id}")
    assert response.status_code == status


def test_the_club_s_day_sums_the_ledger():
    world = make_world()
    newbie = make_player("newbie", funds=0)
    Membership.objects.create(club=world.club_a, user=newbie.user, role=Role.MEMBER)
    client = desk_client(world, "director_a")
    url = f"/desk/cashier/players/{newbie.id}"
    query = f"?club={world.club_a.id}"
    client.post(f"{url}/deposit/{query}", {"deposit-amount": "900"})
    client.post(f"{url}/withdraw/{query}", {"withdraw-amount": "150"})
    page = client.get(f"/desk/cashier/{query}")
    day = page.context["day"]
    funded_at_start = 4 * FUNDS  # make_world's four players, funded in club A today
    assert day.deposits == funded_at_start + 900 and day.withdrawals == 150
    assert day.cash_desk == day.deposits - day.withdrawals
    html = page.content.decode()
    assert "newbie" in html and "750" in html
    other_day = client.get(f"/desk/cashier/{query}&day=2001-01-01")
    assert (
        other_day.context["day"].lines == ()
        and "Nothing moved that day" in other_day.content.decode()
    )
    bad_day = client.get(f"/desk/cashier/{query}&day=soon")
    assert bad_day.status_code == 400 and error_beside(bad_day.content.decode(), "id_day")


def _last_postings() -> list[tuple[str, str, int, str, int]]:
    record = Transaction.objects.latest("id")
    return sorted(
        (record.reason, record.ref_kind, p.account.club_id, p.account.kind, p.amount)
        for p in record.postings.select_related("account")
    )


def test_the_desk_and_the_api_post_the_same_rows_for_a_deposit_and_a_withdrawal():
    world = make_world()
    member, _ = _member(world)
    api = APIClient()
    api.force_authenticate(world.players["director_a"].user)
    desk = desk_client(world, "director_a")
    club = world.club_a.id
    for move in ("deposit", "withdraw"):
        sent = api.post(
            f"/api/v1/players/{member.id}/{move}/?club={club}", {"amount": 40}, format="json"
        )
        assert sent.status_code == 201
        by_api = _last_postings()
        desk.post(f"/desk/cashier/players/{member.id}/{move}/?club={club}", {f"{move}-amount": 40})
        assert _last_postings() == by_api
    assert ledger_check().ok
