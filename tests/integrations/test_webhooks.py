"""Webhooks: signed deliveries checked by a receiver on 127.0.0.1; a receiver that is down
loses nothing and then gets every event once, in order; replays; the outbox commits with
what it reports."""

from __future__ import annotations

import time

import pytest
from django.db import transaction

from integrations.models import Delivery, DeliveryAttempt, DeliveryStatus, OutboxEvent
from integrations.webhooks.delivery import subscription_deliver
from integrations.webhooks.signing import signature_header, verify
from money import cashier
from tests.games.factories import make_player
from tests.games.test_api_support import client_for
from tests.integrations.receiver import Receiver, free_port

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _quick_retries(settings):
    settings.WEBHOOK_RETRY_BASE_SECONDS = 0
    settings.WEBHOOK_ALLOW_PRIVATE_HOSTS = True


def _subscribe(staff_client, url, types=("ledger.transaction",)):
    response = staff_client.post(
        "/api/v1/webhooks/subscriptions/",
        {"url": url, "event_types": list(types)},
        format="json",
    )
    assert response.status_code == 201, response.json()
    return response.json()


def test_the_signature_covers_timestamp_and_body_and_expires():
    header = signature_header("whsec_x", b'{"a":1}', timestamp=1_000_000)
    assert verify("whsec_x", header, b'{"a":1}', now=1_000_100)
    assert not verify("whsec_x", header, b'{"a":2}', now=1_000_100)
    assert not verify("whsec_y", header, b'{"a":1}', now=1_000_100)
    assert not verify("whsec_x", header, b'{"a":1}', now=1_000_000 + 301)
    assert not verify("whsec_x", "t=1000000", b'{"a":1}', now=1_000_000)


def test_a_receiver_checks_the_signature_of_every_delivery():
    staff = make_player(staff=True)
    client = client_for(staff)
    port = free_port()
    subscription = _subscribe(client, f"http://127.0.0.1:{port}/hooks/stud")
    player = make_player(funds=0)
    cashier.deposit(player_id=player.id, amount=7, by=staff.user)
    with Receiver(subscription["secret"], port) as receiver:
        subscription_deliver(subscription["id"])
    assert receiver.refused == 0
    assert [e["type"] for e in receiver.events] == ["ledger.transaction"]
    assert receiver.events[0]["data"]["reason"] == "deposit"
    with Receiver("whsec_wrong", port) as impostor:
        client.post(f"/api/v1/webhooks/deliveries/{Delivery.objects.get().id}/replay/")
        subscription_deliver(subscription["id"])
    assert impostor.refused == 1 and impostor.events == []


def test_a_receiver_that_is_down_gets_every_event_once_in_order_when_it_is_up():
    staff = make_player(staff=True)
    client = client_for(staff)
    port = free_port()
    subscription = _subscribe(client, f"http://127.0.0.1:{port}/hooks/stud")
    player = make_player(funds=0)
    for amount in (1, 2, 3, 4, 5):
        cashier.deposit(player_id=player.id, amount=amount, by=staff.user)
    # down: the first delivery fails and holds back the others
    for _ in range(3):
        subscription_deliver(subscription["id"])
    first = Delivery.objects.order_by("id").first()
    assert first.attempts == 3 and first.last_status_code is None and first.last_error
    assert Delivery.objects.filter(attempts=0).count() == 4
    assert not Delivery.objects.filter(status=DeliveryStatus.DELIVERED).exists()
    # up again
    with Receiver(subscription["secret"], port) as receiver:
        assert subscription_deliver(subscription["id"]) == "sent 5; nothing pending"
        assert subscription_deliver(subscription["id"]) == "sent 0; nothing pending"
    amounts = [e["data"]["postings"][1]["amount"] for e in receiver.events]
    assert amounts == [1, 2, 3, 4, 5]
    assert len({e["id"] for e in receiver.events}) == 5
    log = client.get(f"/api/v1/webhooks/deliveries/?subscription={subscription['id']}").json()
    assert log["count"] == 5
    assert all(d["status"] == "delivered" for d in log["results"])
    assert DeliveryAttempt.objects.count() == 3 + 5


def test_a_failed_delivery_waits_for_its_back_off(settings):
    settings.WEBHOOK_RETRY_BASE_SECONDS = 60
    staff = make_player(staff=True)
    subscription = _subscribe(client_for(staff), f"http://127.0.0.1:{free_port()}/x")
    cashier.deposit(player_id=make_player(funds=0).id, amount=1, by=staff.user)
    subscription_deliver(subscription["id"])
    started = time.monotonic()
    assert "retry due" in subscription_deliver(subscription["id"])
    assert time.monotonic() - started < 1
    assert Delivery.objects.get().attempts == 1


def test_an_event_is_written_only_if_what_it_reports_commits():
    staff = make_player(staff=True)
    _subscribe(client_for(staff), "http://127.0.0.1:8799/x")
    player = make_player(funds=0)
    before = OutboxEvent.objects.count()
    with pytest.raises(RuntimeError), transaction.atomic():
        cashier.deposit(player_id=player.id, amount=5, by=staff.user)
        raise RuntimeError("the change rolls back")
    assert OutboxEvent.objects.count() == before


def test_hand_and_tournament_events_reach_their_subscribers():
    from tests.tourney.tournaments import make_tournament

    staff = make_player(staff=True)
    subscription = _subscribe(
        client_for(staff), "http://127.0.0.1:8799/x", ("tournament.registered", "payout")
    )
    make_tournament(players=2)
    types = list(
        Delivery.objects.filter(subscription_id=subscription["id"]).values_list(
            "event__type", flat=True
        )
    )
    assert types == ["tournament.registered", "tournament.registered"]


def test_only_staff_subscribe_site_wide_and_a_private_address_is_refused_in_production(
    settings,
):
    player = make_player()
    response = client_for(player).post(
        "/api/v1/webhooks/subscriptions/",
        {"url": "https://example.org/x", "event_types": ["payout"]},
        format="json",
    )
    assert response.status_code == 403
    settings.WEBHOOK_ALLOW_PRIVATE_HOSTS = False
    response = client_for(make_player(staff=True)).post(
        "/api/v1/webhooks/subscriptions/",
        {"url": "http://127.0.0.1:8700/x", "event_types": ["payout"]},
        format="json",
    )
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "bad_url"


def test_old_idempotency_records_expire(settings):
    from datetime import timedelta

    from django.utils import timezone

    from integrations.models import IdempotentRequest
    from integrations.tasks import idempotency_expire

    old = IdempotentRequest.objects.create(
        scope="s", key="old", fingerprint="f", status=201, body=b""
    )
    IdempotentRequest.objects.filter(pk=old.pk).update(
        created_at=timezone.now() - timedelta(hours=25)
    )
    IdempotentRequest.objects.create(scope="s", key="new", fingerprint="f", status=201, body=b"")
    assert idempotency_expire() == 1
    assert list(IdempotentRequest.objects.values_list("key", flat=True)) == ["new"]


def test_a_clubs_subscription_hears_the_hands_of_its_tables_only():
    from clubs.models import Club
    from games.models import Hand, HandStatus, Table
    from games.services import hands
    from games.services.seating import seat_sit
    from integrations.models import Subscription
    from tests.tourney.tournaments import make_tournament, open_table_ids
    from tourney.services.commands.draw import tournament_start

    ours, theirs = Club.objects.create(name="Ours"), Club.objects.create(name="Theirs")
    subscriptions = {
        club.id: Subscription.objects.create(
            club=club, url="http://127.0.0.1:8799/x", secret="s", event_types=["hand.finished"]
        )
        for club in (ours, theirs)
    }
    staff = client_for(make_player(staff=True))
    stakes = {"variant": "stud_hi", "ante": 1, "bring_in": 2, "small_bet": 5, "big_bet": 10}
    created = staff.post(
        "/api/v1/tables/",
        {"name": "Club table", **stakes, "buy_in_max": 500, "allow_bots": True, "club_id": ours.id},
        format="json",
    )
    assert created.status_code == 201 and created.json()["club_id"] == ours.id
    table = Table.objects.get(pk=created.json()["id"])
    for number in (1, 2):
        bot = make_player(bot="rules")
        seat_sit(table_id=table.id, player=bot, seat_number=number, buy_in=300, by_staff=True)
    while not Hand.objects.filter(table=table, status=HandStatus.FINISHED).exists():
        hands.table_advance(table.id)
    heard = Delivery.objects.filter(event__type="hand.finished").values_list(
        "subscription_id", "event__club_id", "event__payload__table"
    )
    assert list(heard) == [(subscriptions[ours.id].id, ours.id, table.id)]
    unknown = staff.post(
        "/api/v1/tables/", {"name": "Nowhere", **stakes, "club_id": 10**9}, format="json"
    )
    assert unknown.status_code == 404 and unknown.json()["error"]["code"] == "no_club"
    assert not Table.objects.filter(name="Nowhere").exists()
    tournament = make_tournament(players=2, club_id=theirs.id)
    tournament_start(tournament_id=tournament.id)
    tables = Table.objects.filter(pk__in=open_table_ids(tournament))
    assert tables and {t.club_id for t in tables} == {theirs.id}
