"""Refusals of the ledger; the API turns each into a 4xx with its code and message
(``config.api_errors``), and nothing was changed."""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from money.codes import Code


class LedgerError(Exception):
    """A movement of value the ledger refuses."""

    status = 400
    code: StrEnum = Code.LEDGER_ERROR

    def __init__(self, message: str, *, code: StrEnum | None = None, detail: Any = None) -> None:
        super().__init__(message)
        self.message = message
        if code:
            self.code = code
        self.detail = detail


class InvalidAmount(LedgerError):
    """An amount that is not a positive whole number of units (400)."""

    code = Code.INVALID_AMOUNT


class InsufficientFunds(LedgerError):
    """The account would go below zero (409)."""

    status = 409
    code = Code.INSUFFICIENT_FUNDS


class NotAllowed(LedgerError):
    """The caller may not move this account's money (403)."""

    status = 403
    code = Code.FORBIDDEN
