"""Refusals: the one base of every app's errors (``games.errors``, ``money.errors``,
``integrations.errors``, ``clubs.errors``).

The contract: a refusal is raised before anything changed (or inside the transaction that
it rolls back), so refusing changes nothing. It carries what the API answers with:
``status`` (a 4xx), ``code`` (a member of the raising app's ``codes.Code``), ``message`` (one
sentence for a person) and ``detail`` (anything JSON can hold, or None).
``config.api_errors`` turns every refusal into that status with the body
``{"error": {"code", "message", "detail"}}``.

Each app subclasses it once with its own default ``code`` (and ``status``), then per kind
of refusal; raise those, never ``Refusal`` itself (it has no code). This module is the
bottom layer of the project: it imports nothing from it, so every app may import it.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any


class Refusal(Exception):
    """A request refused; nothing was changed."""

    status: int = 400
    code: StrEnum

    def __init__(self, message: str, *, code: StrEnum | None = None, detail: Any = None) -> None:
        super().__init__(message)
        self.message = message
        if code:
            self.code = code
        self.detail = detail
