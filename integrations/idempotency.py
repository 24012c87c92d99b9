"""Idempotent requests: every POST under /api/ may carry an ``Idempotency-Key`` header.

The first request with a key runs inside one database transaction together with the record
of its response; a retry with the same key and the same body gets that response back (with
``Idempotent-Replayed: true``) and changes nothing; the same key with another method, path
or body is a 422. Two requests with one key at once: the second waits on the unique index
until the first commits, then replays its response (on PostgreSQL; SQLite serializes
writers anyway). A refused request (4xx/5xx) changed nothing, so it is not kept: a retry
runs again.

Keys are scoped to the account the request is authenticated as, by the API's own
authentication classes (a token however its header is spelt, ``Token X`` or ``token  X``,
or the session): one account's retries replay whichever credentials they carry, and one
account can never read another's response by guessing a key. Requests that do not
authenticate are not made idempotent (the view answers them as it would anyway).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
from collections.abc import Callable

from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse, JsonResponse
from rest_framework import exceptions
from rest_framework.request import Request
from rest_framework.settings import api_settings

from integrations.codes import Code
from integrations.models import IdempotentRequest

HEADER = "Idempotency-Key"
MAX_KEY_LENGTH = 255


def _error(status: int, code: Code, message: str) -> JsonResponse:
    return JsonResponse(
        {"error": {"code": code, "message": message, "detail": None}}, status=status
    )


def _scope(request: HttpRequest) -> str | None:
    """``user:<id>`` of the account the request authenticates as, or None."""
    authenticators = [
        authenticator() for authenticator in api_settings.DEFAULT_AUTHENTICATION_CLASSES
    ]
    session_user = request.user  # DRF's Request sets it; the view's own Request sets it again
    try:
        user = Request(request, authenticators=authenticators).user
    except exceptions.APIException:  # bad credentials: the view refuses the request itself
        return None
    finally:
        request.user = session_user
    return f"user:{user.pk}" if user.is_authenticated else None


def _fingerprint(request: HttpRequest) -> str:
    body = request.body
    with contextlib.suppress(ValueError, RecursionError):  # not JSON: byte for byte
        body = json.dumps(json.loads(body), sort_keys=True, separators=(",", ":")).encode()
    digest = hashlib.sha256()
    for part in (request.method or "", request.get_full_path()):
        digest.update(part.encode() + b"\0")
    digest.update(body)
    return digest.hexdigest()


def _replay(record: IdempotentRequest, fingerprint: str) -> HttpResponse:
    if record.fingerprint != fingerprint:
        return _error(
            422,
            Code.IDEMPOTENCY_KEY_REUSED,
            f"this {HEADER} was used for another request (method, path or body): "
            "use a new key for a new request",
        )
    response = HttpResponse(
        bytes(record.body), status=record.status, content_type=record.content_type or None
    )
    response["Idempotent-Replayed"] = "true"
    return response


class IdempotencyMiddleware:
    """Makes POSTs under /api/ that carry an ``Idempotency-Key`` safe to retry."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        key = request.headers.get(HEADER)
        if key is None or request.method != "POST" or not request.path.startswith("/api/"):
            return self.get_response(request)
        scope = _scope(request)
        if scope is None:
            return self.get_response(request)
        if not key or len(key) > MAX_KEY_LENGTH or not key.isprintable():
            return _error(
                400,
                Code.INVALID_IDEMPOTENCY_KEY,
                f"{HEADER} must be 1 to {MAX_KEY_LENGTH} printable characters (e.g. a UUID)",
            )
        fingerprint = _fingerprint(request)
        existing = IdempotentRequest.objects.filter(scope=scope, key=key).first()
        if existing is not None:
            return _replay(existing, fingerprint)
        with transaction.atomic():
            try:
                with transaction.atomic():
                    record = IdempotentRequest.objects.create(
                        scope=scope, key=key, fingerprint=fingerprint, status=0, body=b""
                    )
            except IntegrityError:
                # A request with this key committed while we waited on the unique index.
                return _replay(IdempotentRequest.objects.get(scope=scope, key=key), fingerprint)
            response = self.get_response(request)
            if not 200 <= response.status_code < 300 or response.streaming:
                transaction.set_rollback(True)  # the request changed nothing: no record
                return response
            record.status = response.status_code
            record.content_type = response.get("Content-Type", "")
            record.body = response.content
            record.save(update_fields=["status", "content_type", "body"])
            return response
