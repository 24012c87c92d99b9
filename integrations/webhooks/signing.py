"""Webhook signatures, in the manner of Stripe's.

Each request carries ``Stud-Signature: t=<unix seconds>,v1=<hex>`` where ``v1`` is
HMAC-SHA256 of ``"<t>." + body`` (the raw request body bytes) keyed with the subscription's
secret. A receiver recomputes it over the body it received, compares in constant time, and
refuses a timestamp older than its tolerance (5 minutes here) so a captured request cannot
be replayed later. During a secret rotation several ``v1=`` values may appear: any match
is enough.
"""

from __future__ import annotations

import hashlib
import hmac
import time

HEADER = "Stud-Signature"
TOLERANCE_SECONDS = 300


def signature(secret: str, timestamp: int, body: bytes) -> str:
    """The hex HMAC-SHA256 of ``"<timestamp>." + body`` with ``secret``."""
    message = f"{timestamp}.".encode() + body
    return hmac.new(secret.encode(), message, hashlib.sha256).hexdigest()


def signature_header(secret: str, body: bytes, timestamp: int | None = None) -> str:
    """The value of the ``Stud-Signature`` header for ``body``."""
    t = int(time.time()) if timestamp is None else timestamp
    return f"t={t},v1={signature(secret, t, body)}"


def verify(
    secret: str,
    header: str,
    body: bytes,
    *,
    tolerance: int = TOLERANCE_SECONDS,
    now: float | None = None,
) -> bool:
    """True if ``header`` signs ``body`` with ``secret`` within ``tolerance`` seconds."""
    timestamp: int | None = None
    candidates: list[str] = []
    for part in header.split(","):
        name, _, value = part.strip().partition("=")
        if name == "t" and value.isdigit():
            timestamp = int(value)
        elif name == "v1":
            candidates.append(value)
    if timestamp is None or not candidates:
        return False
    if abs((time.time() if now is None else now) - timestamp) > tolerance:
        return False
    expected = signature(secret, timestamp, body)
    return any(hmac.compare_digest(expected, candidate) for candidate in candidates)
