"""Where webhooks may go (integrations.webhooks.targets): every IPv6 form that carries a
private or special IPv4 address is refused like the address itself, a port out of range is
a bad url, and a delivery connects to the address that was checked, never to a second DNS
answer (rebinding), with the URL's host in the Host header."""

from __future__ import annotations

import socket
from typing import Any

import pytest

from integrations.models import Subscription
from integrations.webhooks.delivery import http_send
from integrations.webhooks.targets import url_refusal
from tests.games.factories import make_player
from tests.games.test_api_support import client_for
from tests.integrations.receiver import Receiver

PUBLIC = "93.184.215.14"
"""A global address (what a rebinding name answers first)."""

EMBEDDED = [
    # the metadata address 169.254.169.254 (a9fe:a9fe) in each IPv6 form
    "[64:ff9b::a9fe:a9fe]",  # NAT64
    "[2002:a9fe:a9fe::1]",  # 6to4
    "[::ffff:169.254.169.254]",  # IPv4-mapped
    "[::a9fe:a9fe]",  # IPv4-compatible
    "[64:ff9b:1::a9fe:a9fe]",  # local-use NAT64
    "[2001:0:a9fe:a9fe::5601:5601]",  # Teredo, its server
    # loopback and private ones
    "[64:ff9b::7f00:1]",
    "[2002:7f00:1::]",
    "[2002:a00:1::1]",
    "[64:ff9b::c0a8:101]",
]


@pytest.mark.parametrize("host", EMBEDDED)
def test_an_ipv6_form_of_a_private_address_is_refused(settings: Any, host: str) -> None:
    settings.WEBHOOK_ALLOW_PRIVATE_HOSTS = False

    refusal = url_refusal(f"https://{host}/hooks")

    assert refusal is not None and "private address" in refusal


@pytest.mark.parametrize(
    "host", ["[2606:4700:4700::1111]", "[2002:808:808::1]", "[64:ff9b::808:808]", "8.8.8.8"]
)
def test_a_global_address_in_any_form_is_accepted(settings: Any, host: str) -> None:
    settings.WEBHOOK_ALLOW_PRIVATE_HOSTS = False

    assert url_refusal(f"https://{host}/hooks") is None


@pytest.mark.django_db
def test_the_api_refuses_the_nat64_form_of_the_metadata_address(settings: Any) -> None:
    settings.WEBHOOK_ALLOW_PRIVATE_HOSTS = False
    url = "http://[64:ff9b::a9fe:a9fe]/latest/meta-data/"

    response = client_for(make_player(staff=True)).post(
        "/api/v1/webhooks/subscriptions/", {"url": url, "event_types": ["payout"]}
    )

    assert response.status_code == 400
    assert response.json()["error"]["code"] == "bad_url"
    assert not Subscription.objects.exists()


@pytest.mark.parametrize("port", ["99999", "0", "65536"])
def test_a_port_out_of_range_is_refused_not_a_crash(port: str) -> None:
    assert url_refusal(f"https://example.org:{port}/hooks") == (
        "the url's port must be a number from 1 to 65535"
    )
    assert http_send(f"https://example.org:{port}/hooks", {}, b"{}").status is None


def _rebinding(monkeypatch: pytest.MonkeyPatch, second: str) -> list[str]:
    """``hooks.example`` answers ``PUBLIC`` first, then ``second``; returns the look-ups."""
    real = socket.getaddrinfo
    lookups: list[str] = []

    def getaddrinfo(host: str, port: Any, *args: Any, **kwargs: Any) -> Any:
        if host != "hooks.example":
            return real(host, port, *args, **kwargs)
        lookups.append(host)
        address = PUBLIC if len(lookups) == 1 else second
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (address, int(port)))]

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    return lookups


def test_a_delivery_connects_to_the_checked_address_not_a_second_answer(
    settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.WEBHOOK_ALLOW_PRIVATE_HOSTS = False
    lookups = _rebinding(monkeypatch, second="127.0.0.1")
    connected: list[tuple[str, int]] = []

    def create_connection(address: tuple[str, int], *args: Any, **kwargs: Any) -> Any:
        connected.append(address)
        raise ConnectionRefusedError("not in the test")

    monkeypatch.setattr(socket, "create_connection", create_connection)
    with Receiver("whsec_x") as receiver:
        answer = http_send(f"http://hooks.example:{receiver.port}/hooks", {}, b"{}")

    assert receiver.hosts == []  # the rebound address (127.0.0.1) was never reached
    assert lookups == ["hooks.example"]
    assert connected == [(PUBLIC, receiver.port)]
    assert answer.status is None


def test_the_host_header_is_the_urls_host_at_the_pinned_address(
    settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.WEBHOOK_ALLOW_PRIVATE_HOSTS = True
    real = socket.getaddrinfo

    def getaddrinfo(host: str, port: Any, *args: Any, **kwargs: Any) -> Any:
        return real("127.0.0.1" if host == "hooks.example" else host, port, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    with Receiver("whsec_x") as receiver:
        answer = http_send(f"http://hooks.example:{receiver.port}/hooks", {}, b"{}")

    assert answer.status == 400  # the receiver refused the unsigned body: it was reached
    assert receiver.hosts == [f"hooks.example:{receiver.port}"]
