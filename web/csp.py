"""The Content-Security-Policy of the web pages: scripts, styles and requests only from our
own origin, no inline script or style, no framing.

Applied to the pages of the ``web`` namespace (the API's Swagger page and Django's admin
bring their own inline scripts and keep their own rules).
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

POLICY = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "font-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    )
)


class ContentSecurityPolicyMiddleware:
    """Add the policy to every response of a ``web`` page."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        match = getattr(request, "resolver_match", None)
        if match is not None and "web" in match.namespaces:
            response.headers.setdefault("Content-Security-Policy", POLICY)
            response.headers.setdefault("Referrer-Policy", "same-origin")
        return response
