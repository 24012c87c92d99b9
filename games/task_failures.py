"""Failures of the periodic work (the table sweep, the tournament tick): logged once, kept for
/healthz.

The periodic tasks run every couple of seconds. When one table's step keeps failing, the same
traceback would fill the log 30 times a minute and still say nothing to /healthz. Here a
failure is logged once with its traceback when it starts (or its error changes) and once when
it is over, and kept in the cache while it recurs, so that /healthz can say which task or
table is failing and why. A failure not seen again for ``FORGET_AFTER_SECONDS`` is forgotten
(its table was closed, or the task stopped being scheduled).

The record is one cache entry read and written without a lock: two workers failing at the same
instant may drop one record, which the next run (2 s later) writes again.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import TypedDict

from django.core.cache import cache

logger = logging.getLogger(__name__)

CACHE_KEY = "stud:periodic-failures"
FORGET_AFTER_SECONDS = 60


class Failure(TypedDict):
    """One failing piece of periodic work: what it is, its last error, since when, how often."""

    key: str
    what: str
    error: str
    since: float
    last: float
    count: int


def _load() -> dict[str, Failure]:
    try:
        failures: dict[str, Failure] | None = cache.get(CACHE_KEY)
    except Exception:  # the cache is down: /healthz reports the broker or worker instead
        return {}
    return failures or {}


def _store(failures: dict[str, Failure]) -> None:
    try:
        cache.set(CACHE_KEY, failures, timeout=FORGET_AFTER_SECONDS * 2)
    except Exception:
        logger.debug("cannot store periodic failures in the cache", exc_info=True)


def _describe(error: BaseException) -> str:
    return f"{type(error).__name__}: {error}"


def failure_seen(*, key: str, what: str, error: BaseException, log: bool = True) -> bool:
    """Record that ``what`` failed with ``error``. Returns True when this is news (the first
    failure, or a different error than last time), and then logs it with its traceback
    unless ``log`` is False (the caller logs it)."""
    now = time.time()
    failures = _fresh(_load(), now)
    text = _describe(error)
    previous = failures.get(key)
    news = previous is None or previous["error"] != text
    failures[key] = Failure(
        key=key,
        what=what,
        error=text,
        since=now if previous is None else previous["since"],
        last=now,
        count=1 if previous is None else previous["count"] + 1,
    )
    _store(failures)
    if news and log:
        logger.error(
            "%s failed: %s (logged once; retried at every run until it works)",
            what,
            text,
            exc_info=(type(error), error, error.__traceback__),
        )
    return news


def failure_over(*, key: str) -> None:
    """``key`` worked again: forget its failure, and say so once in the log."""
    failures = _load()
    previous = failures.pop(key, None)
    if previous is None:
        return
    _store(failures)
    logger.warning(
        "%s works again after %d failures in %.0f s",
        previous["what"],
        previous["count"],
        time.time() - previous["since"],
    )


def failures_now() -> list[Failure]:
    """The failures seen within the last ``FORGET_AFTER_SECONDS``, oldest first."""
    failures = _fresh(_load(), time.time())
    return sorted(failures.values(), key=lambda failure: failure["since"])


def _fresh(failures: dict[str, Failure], now: float) -> dict[str, Failure]:
    return {k: f for k, f in failures.items() if now - f["last"] <= FORGET_AFTER_SECONDS}


def attempt(*, key: str, what: str, work: Callable[[], object]) -> bool:
    """Run one independent piece of periodic work; a failure is recorded (logged once) and
    does not stop the caller from going on with the next piece. Returns True if it worked."""
    try:
        work()
    except Exception as error:
        failure_seen(key=key, what=what, error=error)
        return False
    failure_over(key=key)
    return True
