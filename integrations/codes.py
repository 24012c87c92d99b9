"""The codes of the integrations' refusals: ``{"error": {"code": ...}}`` in an API answer.

Each value is the string clients see; ``config.error_codes`` lists every app's codes as one
enum in the OpenAPI error schema. This module imports nothing, so any layer may use it.
"""

from enum import StrEnum


class Code(StrEnum):
    """Why a webhook or idempotent request was refused (nothing was changed)."""

    INVALID = "invalid"
    """Bad input."""
    FORBIDDEN = "forbidden"
    """The caller may not do this."""
    NOT_FOUND = "not_found"
    """No such thing."""
    BAD_URL = "bad_url"
    """A URL webhooks may not be sent to (the message says why)."""
    BAD_EVENT_TYPES = "bad_event_types"
    """Event types that are unknown, or none."""
    NO_CLUB = "no_club"
    """No such club."""
    NOT_DIRECTOR = "not_director"
    """Site-wide webhooks are for staff, a club's for its directors."""
    NO_SUBSCRIPTION = "no_subscription"
    """No such webhook subscription the caller may see."""
    NO_DELIVERY = "no_delivery"
    """No such webhook delivery the caller may see."""

    # Idempotent POSTs (integrations.idempotency).
    INVALID_IDEMPOTENCY_KEY = "invalid_idempotency_key"
    """An Idempotency-Key that is empty, too long or not printable."""
    IDEMPOTENCY_KEY_REUSED = "idempotency_key_reused"
    """The Idempotency-Key was used for another request (method, path or body)."""
