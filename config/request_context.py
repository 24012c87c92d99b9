"""Each request's log context: a request id (the client's or proxy's ``X-Request-ID`` if it is
a plain token, else a new one, sent back in the response's ``X-Request-ID``), the user once
authenticated, and the table, hand or tournament its URL names. One line a request is logged
(``stud.requests``) with its method, path, status, time and client address.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

from django.core.signals import request_finished
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse
from django.utils.functional import SimpleLazyObject, empty

from api_conventions.client_address import client_ip
from observability import context

logger = logging.getLogger("stud.requests")

REQUEST_ID_HEADER = "X-Request-ID"


def known_user(request: HttpRequest) -> int | None:
    """The request's user id if authentication has run already (Django's session middleware
    evaluated its lazy user, or DRF set the user it authenticated); never a query."""
    user = request.__dict__.get("user")
    if isinstance(user, SimpleLazyObject):
        user = None if user._wrapped is empty else user._wrapped
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    return int(user.pk)


class RequestContextMiddleware:
    """Binds the request's context for every line logged while it is served, Django's own
    lines after the middleware included (its "Not Found: ..." warning): the context is
    cleared when the request is over (``request_finished``), not when this middleware
    returns."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        request_id = context.request_id_or_new(request.headers.get(REQUEST_ID_HEADER))
        started = time.perf_counter()
        context.start(request_id=request_id, user=lambda: known_user(request))
        response = self.get_response(request)
        logger.info(
            "%s %s %s",
            request.method,
            request.path,
            response.status_code,
            extra={
                "method": request.method,
                "path": request.path,
                "status": response.status_code,
                "duration_ms": round((time.perf_counter() - started) * 1000, 1),
                "client": client_ip(request),
            },
        )
        response[REQUEST_ID_HEADER] = request_id
        return response

    def process_view(
        self, request: HttpRequest, view: Any, args: Any, kwargs: dict[str, Any]
    ) -> None:
        context.bind(**context.ids_from(kwargs))


@receiver(request_finished, dispatch_uid="config.request_context.request_over")
def _request_over(**kwargs: Any) -> None:
    context.clear()
