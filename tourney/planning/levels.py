"""Levels of a schedule in play: which level is in force, its number, an entry's length.

A schedule is its entries in playing order (levels and breaks, as stored in
``tourney.models.ScheduleEntry``); ``index`` points at the entry in play.

>>> from types import SimpleNamespace as E
>>> entries = [E(is_break=False, minutes=20), E(is_break=True, minutes=5),
...            E(is_break=False, minutes=20)]
>>> level_number(entries, 1), level_number(entries, 2)
(1, 2)
>>> playing_level(entries, 1) is entries[0]
True
>>> entry_seconds(entries[1], minute_seconds=60)
300
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, TypeVar

STAKE_FIELDS = ("ante", "bring_in", "small_bet", "big_bet")


class ScheduledEntry(Protocol):
    """A level or a break of a schedule."""

    is_break: bool
    minutes: int


E = TypeVar("E", bound=ScheduledEntry)


def entry_seconds(entry: ScheduledEntry, *, minute_seconds: int) -> int:
    """How long a level or break lasts, in seconds of a clock whose minute lasts
    ``minute_seconds``."""
    return entry.minutes * minute_seconds


def level_number(entries: Sequence[ScheduledEntry], index: int) -> int:
    """The 1-based number of the level at ``index`` (at a break: of the level before it)."""
    return sum(1 for entry in entries[: index + 1] if not entry.is_break)


def playing_level(entries: Sequence[E], index: int) -> E:
    """The level whose stakes are in force at ``index``: that level, or during a break the
    level before it (the first level before the first one)."""
    before = [entry for entry in entries[: index + 1] if not entry.is_break]
    return before[-1] if before else next(entry for entry in entries if not entry.is_break)
