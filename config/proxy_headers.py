"""Proxy headers count only from the proxies the deployment named (``TRUSTED_PROXIES``).

Django reads ``X-Forwarded-Proto`` for ``request.is_secure()`` (``SECURE_PROXY_SSL_HEADER``)
whoever sent it, so a client that reaches the server past the proxy could claim HTTPS. This
middleware, first in the chain, drops the forwarding headers of every request whose peer is
not a trusted proxy (``api_conventions.client_address``), before anything reads them.
"""

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

from api_conventions.client_address import is_trusted_proxy

FORWARDING_HEADERS = (
    "HTTP_FORWARDED",
    "HTTP_X_FORWARDED_FOR",
    "HTTP_X_FORWARDED_HOST",
    "HTTP_X_FORWARDED_PORT",
    "HTTP_X_FORWARDED_PROTO",
    "HTTP_X_REAL_IP",
)


class UntrustedProxyHeadersMiddleware:
    """Drop the forwarding headers of a request that did not come through a trusted proxy."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not is_trusted_proxy(request.META.get("REMOTE_ADDR", "")):
            for header in FORWARDING_HEADERS:
                request.META.pop(header, None)
        return self.get_response(request)
