"""The address of the client a request came from: the one answer the sign-in limits, the logs
and the proxy headers' middleware (``config.proxy_headers``) share.

A proxy header (``X-Forwarded-For``, ``X-Forwarded-Proto``) is anyone's to write, so it counts
only when the peer that sent the request is a proxy the deployment named in
``settings.TRUSTED_PROXIES`` (addresses or networks; empty by default: no header is trusted).
Then ``X-Forwarded-For`` is read from its right end, the part our own proxies wrote, skipping
them: the first address that is not one of them is the client's.

With ``TRUSTED_PROXIES=10.0.0.0/24``: a request from 203.0.113.7 saying
``X-Forwarded-For: 1.2.3.4`` comes from 203.0.113.7; one from 10.0.0.2 saying
``X-Forwarded-For: 1.2.3.4, 198.51.100.9`` comes from 198.51.100.9 (1.2.3.4 is what the
client claimed, written before our proxy's entry).
"""

from __future__ import annotations

import ipaddress
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any, Protocol

from django.conf import settings

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


class HasMeta(Protocol):
    """A request, Django's or DRF's: its WSGI environment in ``META``."""

    @property
    def META(self) -> Mapping[str, Any]: ...


@lru_cache(maxsize=8)
def trusted_networks(proxies: Sequence[str]) -> tuple[Network, ...]:
    """The networks of ``proxies`` (addresses or CIDR networks); ValueError names a bad one."""
    return tuple(ipaddress.ip_network(proxy.strip()) for proxy in proxies)


def is_trusted_proxy(address: str) -> bool:
    """Whether ``address`` is one of the proxies named in ``settings.TRUSTED_PROXIES``."""
    networks = trusted_networks(tuple(settings.TRUSTED_PROXIES))
    if not networks:
        return False
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in network for network in networks)


def client_ip(request: HasMeta) -> str:
    """The client's address: the peer's (``REMOTE_ADDR``), or, when the peer is a trusted
    proxy, the last address in ``X-Forwarded-For`` that is not a trusted proxy. A hop that is
    not an address at all (a forgery past our proxies, or a broken one) stops the walk at the
    last proxy seen."""
    address = str(request.META.get("REMOTE_ADDR", ""))
    if not is_trusted_proxy(address):
        return address
    hops = [hop.strip() for hop in str(request.META.get("HTTP_X_FORWARDED_FOR", "")).split(",")]
    for hop in reversed([hop for hop in hops if hop]):
        try:
            ipaddress.ip_address(hop)
        except ValueError:
            return address
        if not is_trusted_proxy(hop):
            return hop
        address = hop
    return address
