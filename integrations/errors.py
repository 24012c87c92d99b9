"""Refusals of the integrations (webhook subscriptions); the API turns each into a 4xx
with its code and message (``config.api_errors``), and nothing was changed."""

from __future__ import annotations

from integrations.codes import Code
from refusals import Refusal


class IntegrationError(Refusal):
    code = Code.INVALID


class Invalid(IntegrationError):
    """Bad input (400)."""


class Forbidden(IntegrationError):
    status = 403
    code = Code.FORBIDDEN


class NotFound(IntegrationError):
    status = 404
    code = Code.NOT_FOUND
