"""The codes of the ledger's refusals: ``{"error": {"code": ...}}`` in an API answer.

Each value is the string clients see; ``config.error_codes`` lists every app's codes as one
enum in the OpenAPI error schema. This module imports nothing, so any layer may use it.
"""

from enum import StrEnum


class Code(StrEnum):
    """Why the ledger refused a movement of value (nothing was changed)."""

    LEDGER_ERROR = "ledger_error"
    """A movement the ledger refuses for no more particular reason."""
    INVALID_AMOUNT = "invalid_amount"
    """An amount that is not a positive whole number of units."""
    INSUFFICIENT_FUNDS = "insufficient_funds"
    """The account would go below zero."""
    FORBIDDEN = "forbidden"
    """The caller may not move this account's money."""
