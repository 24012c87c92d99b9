"""Limits on guessing passwords: failed sign-ins slow down the one who fails, never the owner.

Failures are counted twice: per client address (any username), and per username from that
address. Each count allows a few free failures; after that each failure makes the next attempt
of that count wait, twice as long as the one before (1 s, 2 s, 4 s, ...), up to a cap. A
correct password clears its username's count from that address (not the address's own count,
which an attacker could otherwise clear with an account of their own). Counts are forgotten a
while after their last failure.

So nobody can lock an owner out: failures from other addresses never count against the owner's
address, and a guesser slows only themselves (issue 34). The address is
``api_conventions.client_address.client_ip``: a forged ``X-Forwarded-For`` moves nothing.

Counts live in the cache (Redis in production, shared by every web process). Attempts checked
at the same moment may all pass before the first failure is counted, so the overshoot is at
most the number of requests the server handles at once.

Settings: ``SIGN_IN_LIMITS`` (``free_failures``, ``free_failures_per_address``,
``max_wait_seconds``, ``forget_after_seconds``) and ``SIGN_IN_CACHE`` (the cache's alias).
"""

from __future__ import annotations

import hashlib
import logging
import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from django.conf import settings
from django.core.cache import BaseCache, caches

log = logging.getLogger(__name__)

Checked = TypeVar("Checked")


class SignInThrottled(Exception):
    """Too many failures: the next attempt may come in ``wait`` seconds."""

    def __init__(self, wait: int) -> None:
        super().__init__(f"too many failed sign-ins: wait {wait} s")
        self.wait = wait


@dataclass(frozen=True, slots=True)
class _Count:
    """One count of failures: its cache key, its free failures and what it is, for the log."""

    key: str
    free: int
    what: str


def _counts(address: str, username: str) -> tuple[_Count, _Count]:
    limits = settings.SIGN_IN_LIMITS
    # Usernames compare case-insensitively here, so "ALICE" is no fresh count for alice.
    pair = hashlib.sha256(f"{address}\n{username.casefold()}".encode()).hexdigest()[:32]
    return (
        _Count(f"sign-in:address:{address}", limits["free_failures_per_address"], address),
        _Count(f"sign-in:pair:{pair}", limits["free_failures"], f"{username!r} from {address}"),
    )


def _cache() -> BaseCache:
    return caches[settings.SIGN_IN_CACHE]


def wait_after(failures: int, free: int) -> int:
    """Seconds to wait after the ``failures``-th failure of a count with ``free`` free ones.

    >>> [wait_after(n, free=3) for n in (1, 2, 3, 4, 5)]
    [0, 0, 1, 2, 4]
    """
    if failures < free:
        return 0
    return int(min(settings.SIGN_IN_LIMITS["max_wait_seconds"], 2 ** (failures - free)))


def sign_in_wait(*, address: str, username: str) -> None:
    """Raise ``SignInThrottled`` if an attempt for ``username`` from ``address`` must wait."""
    now = time.time()
    records = _cache().get_many([count.key for count in _counts(address, username)])
    wait = max((until - now for _failures, until in records.values()), default=0.0)
    if wait > 0:
        raise SignInThrottled(math.ceil(wait))


def sign_in_failed(*, address: str, username: str) -> None:
    """Count a wrong password for ``username`` from ``address``."""
    cache = _cache()
    now = time.time()
    forget = settings.SIGN_IN_LIMITS["forget_after_seconds"]
    for count in _counts(address, username):
        failures, _until = cache.get(count.key, (0, 0.0))
        failures += 1
        wait = wait_after(failures, count.free)
        cache.set(count.key, (failures, now + wait), timeout=max(forget, wait))
        if wait:
            log.warning(
                "sign-in: %d failures for %s: the next attempt waits %d s",
                failures,
                count.what,
                wait,
            )


def sign_in_succeeded(*, address: str, username: str) -> None:
    """Clear the failures of ``username`` from ``address`` (the address's own count stays)."""
    _address_count, pair_count = _counts(address, username)
    _cache().delete(pair_count.key)


def password_checked(
    *, address: str, username: str, check: Callable[[], Checked | None]
) -> Checked | None:
    """Run ``check`` (a password check: its result, or None when the password is wrong)
    within the limits: ``SignInThrottled`` while ``username`` from ``address`` must wait,
    then the failure or success counted."""
    sign_in_wait(address=address, username=username)
    result = check()
    if result is None:
        sign_in_failed(address=address, username=username)
    else:
        sign_in_succeeded(address=address, username=username)
    return result
