"""Where a webhook may go: a URL's host resolved once, every address it has checked, and a
connection to the address that was checked (never a second look-up a DNS server could
answer differently: no rebinding).

Refused (unless ``WEBHOOK_ALLOW_PRIVATE_HOSTS``, for tests and development): any address that
is not global (loopback, private, link-local such as 169.254.169.254, shared, reserved,
multicast), and any IPv6 address that carries such an IPv4 address inside it: IPv4-mapped
``::ffff:a.b.c.d``, NAT64 ``64:ff9b::/96`` (judged by its IPv4 address alone: DNS64 answers
it for any IPv4 host), 6to4 ``2002::/16`` and Teredo ``2001::/32`` (its server and its
client). IPv4-compatible ``::a.b.c.d`` is refused with the rest of the reserved ``::/8``, and
the local-use NAT64 prefix ``64:ff9b:1::/48`` whole: where it carries the IPv4 address
depends on the network's own prefix length.
"""

from __future__ import annotations

import http.client
import ipaddress
import socket
from dataclasses import dataclass
from urllib.parse import SplitResult, urlsplit

from django.conf import settings

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

_NAT64 = ipaddress.IPv6Network("64:ff9b::/96")
_LOCAL_NAT64 = ipaddress.IPv6Network("64:ff9b:1::/48")
_DEFAULT_PORTS = {"http": 80, "https": 443}


class UnsafeURL(ValueError):
    """A URL that may not receive webhooks; the message says why."""


def _not_global(address: IPAddress) -> bool:
    return (
        not address.is_global
        or address.is_multicast
        or address.is_reserved
        or address.is_unspecified
    )


def _embedded_ipv4(address: ipaddress.IPv6Address) -> list[ipaddress.IPv4Address]:
    """The IPv4 addresses an IPv6 address carries inside it (none for a plain one)."""
    embedded = [address.ipv4_mapped, address.sixtofour, *(address.teredo or ())]
    return [ipv4 for ipv4 in embedded if ipv4 is not None]


def special_address(address: IPAddress) -> IPAddress | None:
    """The private or special address ``address`` is or carries, or None if it is global.

    >>> special_address(ipaddress.ip_address("2002:a9fe:a9fe::1"))
    IPv4Address('169.254.169.254')
    >>> special_address(ipaddress.ip_address("2606:4700::1111")) is None
    True
    """
    if isinstance(address, ipaddress.IPv6Address):
        if address in _NAT64:  # DNS64's answer for an IPv4 host: that host decides
            ipv4 = ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
            return ipv4 if _not_global(ipv4) else None
        if address in _LOCAL_NAT64:
            return address
    if _not_global(address):
        return address
    if isinstance(address, ipaddress.IPv6Address):
        return next((ipv4 for ipv4 in _embedded_ipv4(address) if _not_global(ipv4)), None)
    return None


@dataclass(frozen=True)
class Target:
    """A webhook URL's parts and the one address of its host that was checked."""

    scheme: str
    host: str
    port: int
    path: str
    address: str

    def connection(self, timeout: float) -> http.client.HTTPConnection:
        """An HTTP(S) connection to ``address``: the Host header, TLS's server name and its
        certificate check are the URL's host."""
        if self.scheme == "https":
            connection: http.client.HTTPConnection = http.client.HTTPSConnection(
                self.host, self.port, timeout=timeout
            )
        else:
            connection = http.client.HTTPConnection(self.host, self.port, timeout=timeout)
        connection._create_connection = self._connect  # type: ignore[attr-defined]
        return connection

    def _connect(
        self, host_and_port: tuple[str, int], timeout: float, source: object = None
    ) -> socket.socket:
        return socket.create_connection((self.address, self.port), timeout)


def _host_and_port(url: str) -> tuple[SplitResult, int]:
    parts = urlsplit(url)
    if parts.scheme not in _DEFAULT_PORTS or not parts.hostname:
        raise UnsafeURL("the url must be http:// or https:// with a host name")
    try:
        port = parts.port
    except ValueError:
        port = 0
    if port == 0:
        raise UnsafeURL("the url's port must be a number from 1 to 65535")
    return parts, port or _DEFAULT_PORTS[parts.scheme]


def webhook_target(url: str) -> Target:
    """``url``'s target, its host resolved once and every address checked, or ``UnsafeURL``."""
    parts, port = _host_and_port(url)
    host = str(parts.hostname)
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError):
        raise UnsafeURL(f"the host {host} does not resolve") from None
    addresses = [ipaddress.ip_address(str(info[4][0]).partition("%")[0]) for info in infos]
    if not addresses:
        raise UnsafeURL(f"the host {host} does not resolve")
    if not settings.WEBHOOK_ALLOW_PRIVATE_HOSTS:
        for address in addresses:
            special = special_address(address)
            if special is not None:
                shown = address if special == address else f"{address}, which carries {special}"
                raise UnsafeURL(f"the host {host} is a private address ({shown})")
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return Target(parts.scheme, host, port, path, str(addresses[0]))


def url_refusal(url: str) -> str | None:
    """Why ``url`` may not receive webhooks, or None (with ``WEBHOOK_ALLOW_PRIVATE_HOSTS``
    its host is not looked up: there is no address to refuse)."""
    try:
        if settings.WEBHOOK_ALLOW_PRIVATE_HOSTS:
            _host_and_port(url)
        else:
            webhook_target(url)
    except UnsafeURL as refusal:
        return str(refusal)
    return None
