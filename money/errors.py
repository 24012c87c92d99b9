"""Refusals of the ledger; the API turns each into a 4xx with its code and message
(``config.api_errors``), and nothing was changed."""

from __future__ import annotations

from money.codes import Code
from refusals import Refusal


class LedgerError(Refusal):
    """A movement of value the ledger refuses."""

    code = Code.LEDGER_ERROR


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
