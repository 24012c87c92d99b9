"""What an error report must never carry: cards, seeds, tokens and passwords.

Pure functions over the report (a JSON-like tree): a value under a secret-sounding key is
replaced whole, and inside any text a card's code (``As``, ``Td``), a 64-digit hex string (a
seed or a key), and a token after ``Token``/``Bearer`` are masked.
"""

from __future__ import annotations

import re
from typing import Any

FILTERED = "[Filtered]"

SECRET_KEYS = (
    "password",
    "passwd",
    "secret",
    "token",
    "authorization",
    "cookie",
    "session",
    "csrf",
    "api_key",
    "apikey",
    "dsn",
    "seed",
    "card",
    "deck",
    "snapshot",
    "hole",
    "down",
)
"""A key containing any of these (any case) has its value replaced: ``server_seed``,
``next_seed``, ``down_cards``, ``HTTP_AUTHORIZATION``, ``new_password1``..."""

_CARD = re.compile(r"(?<![A-Za-z0-9])[2-9TJQKA][cdhs](?![A-Za-z0-9])")
_HEX_SECRET = re.compile(r"\b[0-9a-fA-F]{40,}\b")
_CREDENTIAL = re.compile(r"\b(Token|Bearer|Basic)\s+\S+", re.IGNORECASE)


def secret_key(key: object) -> bool:
    return isinstance(key, str) and any(word in key.lower() for word in SECRET_KEYS)


def scrub_text(text: str) -> str:
    text = _CREDENTIAL.sub(lambda m: f"{m.group(1)} {FILTERED}", text)
    text = _HEX_SECRET.sub(FILTERED, text)
    return _CARD.sub("[card]", text)


def scrub(value: Any) -> Any:
    """``value`` with every secret masked (a new tree; the given one is not changed)."""
    if isinstance(value, dict):
        return {k: FILTERED if secret_key(k) else scrub(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [scrub(item) for item in value]
    if isinstance(value, str):
        return scrub_text(value)
    if isinstance(value, bytes | bytearray):
        return FILTERED
    return value
