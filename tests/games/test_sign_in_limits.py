"""Guessing passwords (issue 34, defects 1 and 2): failures count per client address and per
username from that address, a forged X-Forwarded-For moves nothing, repeated failures wait
twice as long each time, and nobody can lock an owner out from elsewhere."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from django.http import HttpResponse

from api_conventions.client_address import client_ip
from config.proxy_headers import UntrustedProxyHeadersMiddleware
from games.services import sign_in
from tests.games.factories import make_player
from tests.games.test_api_support import client_for

pytestmark = pytest.mark.django_db

TOKEN_URL = "/api/v1/auth/token/"


class Clock:
    """The sign-in limits' clock, moved by hand (``time.time`` for ``games.services.sign_in``)."""

    def __init__(self) -> None:
        self.now = 1_000_000.0

    def time(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch) -> Clock:
    clock = Clock()
    monkeypatch.setattr(sign_in, "time", clock)
    return clock


@pytest.fixture
def limits(settings):
    def set_limits(**limits: int) -> None:
        settings.SIGN_IN_LIMITS = {**settings.SIGN_IN_LIMITS, **limits}

    return set_limits


def _sign_in(password: str, username: str = "alice", **headers: str):
    return client_for(None).post(
        TOKEN_URL, {"username": username, "password": password}, format="json", **headers
    )


# --- defect 1: no proxy header is trusted unless the deployment names its proxies -------------


def test_a_forged_x_forwarded_for_does_not_reset_the_count(limits):
    limits(free_failures=3)
    make_player("alice")

    forged = [_sign_in("guess", HTTP_X_FORWARDED_FOR=f"198.51.100.{n}") for n in range(3)]
    fourth = _sign_in("guess", HTTP_X_FORWARDED_FOR="198.51.100.99")

    assert [r.status_code for r in forged] == [400, 400, 400]
    assert fourth.status_code == 429


def test_behind_a_named_proxy_each_client_is_counted_by_its_forwarded_address(limits, settings):
    settings.TRUSTED_PROXIES = ["10.0.0.2"]
    limits(free_failures=2)
    make_player("alice")
    proxied = {"REMOTE_ADDR": "10.0.0.2"}

    for _ in range(2):
        _sign_in("guess", HTTP_X_FORWARDED_FOR="198.51.100.1", **proxied)
    guesser = _sign_in("guess", HTTP_X_FORWARDED_FOR="198.51.100.1", **proxied)
    # What the client wrote before our proxy's entry is not its address.
    owner = _sign_in("pw", HTTP_X_FORWARDED_FOR="198.51.100.1, 203.0.113.5", **proxied)

    assert guesser.status_code == 429
    assert owner.status_code == 200


@pytest.mark.parametrize(
    ("trusted", "meta", "address"),
    [
        ([], {"REMOTE_ADDR": "203.0.113.7", "HTTP_X_FORWARDED_FOR": "1.2.3.4"}, "203.0.113.7"),
        (
            ["10.0.0.0/24"],
            {"REMOTE_ADDR": "203.0.113.7", "HTTP_X_FORWARDED_FOR": "1.2.3.4"},
            "203.0.113.7",
        ),
        (
            ["10.0.0.0/24"],
            {"REMOTE_ADDR": "10.0.0.2", "HTTP_X_FORWARDED_FOR": "1.2.3.4, 198.51.100.9"},
            "198.51.100.9",
        ),
        (
            ["10.0.0.0/24", "2001:db8::/32"],
            {"REMOTE_ADDR": "10.0.0.2", "HTTP_X_FORWARDED_FOR": "1.2.3.4,2001:db8::1, 10.0.0.9"},
            "1.2.3.4",
        ),
        (["10.0.0.2"], {"REMOTE_ADDR": "10.0.0.2"}, "10.0.0.2"),
        (["10.0.0.2"], {"REMOTE_ADDR": "10.0.0.2", "HTTP_X_FORWARDED_FOR": "junk"}, "10.0.0.2"),
    ],
)
def test_the_client_address(settings, trusted, meta, address):
    settings.TRUSTED_PROXIES = trusted

    assert client_ip(SimpleNamespace(META=meta)) == address


def test_https_is_claimed_only_through_a_named_proxy(settings, rf):
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    settings.TRUSTED_PROXIES = ["10.0.0.2"]
    seen = {}

    def view(request):
        seen[request.META["REMOTE_ADDR"]] = request.is_secure()
        return HttpResponse()

    middleware = UntrustedProxyHeadersMiddleware(view)
    for peer in ("203.0.113.7", "10.0.0.2"):
        middleware(rf.get("/", REMOTE_ADDR=peer, HTTP_X_FORWARDED_PROTO="https"))

    assert seen == {"203.0.113.7": False, "10.0.0.2": True}
    assert settings.MIDDLEWARE[0] == "config.proxy_headers.UntrustedProxyHeadersMiddleware"


# --- defect 2: failures slow the guesser down, never lock the owner out -----------------------


def test_failures_from_other_addresses_do_not_stop_the_owner_signing_in():
    make_player("alice")

    for n in range(40):
        _sign_in("guess", REMOTE_ADDR=f"10.0.{n}.1")
    owner = _sign_in("pw", REMOTE_ADDR="192.0.2.10")

    assert owner.status_code == 200


def test_repeated_failures_wait_twice_as_long_each_time(limits, clock):
    limits(free_failures=2, max_wait_seconds=8)
    make_player("alice")
    waits = []

    for _ in range(7):
        response = _sign_in("guess")
        while response.status_code == 429:
            waits.append(int(response["Retry-After"]))
            clock.now += int(response["Retry-After"])
            response = _sign_in("guess")
        assert response.status_code == 400

    assert waits == [1, 2, 4, 8, 8]


def test_a_guesser_waits_while_the_owner_elsewhere_signs_in_and_clears_only_its_own_count(
    limits, clock
):
    limits(free_failures=2)
    make_player("alice")
    for _ in range(2):
        _sign_in("guess", REMOTE_ADDR="203.0.113.66")

    guesser = _sign_in("pw", REMOTE_ADDR="203.0.113.66")
    owner = _sign_in("pw", REMOTE_ADDR="192.0.2.10")

    assert guesser.status_code == 429  # even with the right password: it must wait first
    assert owner.status_code == 200
    clock.now += 1
    assert _sign_in("pw", REMOTE_ADDR="203.0.113.66").status_code == 200
    # A success clears that address's count for alice: two more failures are free again.
    assert [_sign_in("guess", REMOTE_ADDR="203.0.113.66").status_code for _ in range(2)] == [
        400,
        400,
    ]


def test_one_address_guessing_many_usernames_is_slowed_down(limits):
    limits(free_failures_per_address=3)
    for name in ("ann", "ben", "cat", "dan"):
        make_player(name)

    statuses = [_sign_in("guess", username=name).status_code for name in ("ann", "ben", "cat")]
    fourth = _sign_in("pw", username="dan")
    elsewhere = _sign_in("pw", username="dan", REMOTE_ADDR="192.0.2.10")

    assert statuses == [400, 400, 400]
    assert fourth.status_code == 429
    assert elsewhere.status_code == 200


def test_the_same_username_in_other_letters_is_no_fresh_count(limits):
    limits(free_failures=2)
    make_player("alice")

    for username in ("alice", "ALICE"):
        _sign_in("guess", username=username)

    assert _sign_in("pw", username="Alice").status_code == 429
