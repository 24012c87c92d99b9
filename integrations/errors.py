"""Refusals of the integrations (webhook subscriptions); the API turns each into a 4xx
with its code and message (``config.api_errors``), and nothing was changed."""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from integrations.codes import Code


class IntegrationError(Exception):
    status = 400
    code: StrEnum = Code.INVALID

    def __init__(self, message: str, *, code: StrEnum | None = None, detail: Any = None) -> None:
        super().__init__(message)
        self.message = message
        if code:
            self.code = code
        self.detail = detail


class Invalid(IntegrationError):
    """Bad input (400)."""


class Forbidden(IntegrationError):
    status = 403
    code = Code.FORBIDDEN


class NotFound(IntegrationError):
    status = 404
    code = Code.NOT_FOUND
