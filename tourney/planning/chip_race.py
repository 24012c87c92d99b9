"""The colour-up chip race (Poker TDA rule 23 and its recommended procedure): a pure planner.

When the smallest chip leaves play, each stack keeps the chips that make whole new chips;
what is left over (its "odd chips") is raced at each table:

1. The odd chips of the table are pooled and exchanged for new chips: as many as they make,
   plus one more if the remainder is half a new chip or more.
2. Every odd chip gets one card, dealt from seat 1 clockwise; the highest card wins a new
   chip, the next highest another, and so on, **at most one chip per player**. A shuffle of
   the odd chips (one ticket per chip, from an injected random source) stands for the deal.
3. **Nobody is raced out**: a player left with nothing gets one chip of the new unit.

So the table's total changes by less than one new chip (step 1) plus the chips given by
step 3; :class:`RaceResult` reports that change (``removed``, negative when chips were
added) so the caller can log it.

>>> from random import Random
>>> result = race({1: 1030, 2: 995, 3: 20}, old_unit=5, new_unit=25, rng=Random(1))
>>> sum(result.stacks.values()) + result.removed == 1030 + 995 + 20
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

SeatId = int


class Shuffler(Protocol):
    """Anything that shuffles a list in place: ``random.Random`` or ``SeededShuffler``."""

    def shuffle(self, x: list[Any], /) -> None: ...


@dataclass(frozen=True)
class RaceResult:
    """The stacks after the race, who won a chip, who was given one, and the chips taken out
    of play (``before - after``; negative when the race added chips)."""

    stacks: Mapping[SeatId, int]
    winners: tuple[SeatId, ...]
    not_raced_out: tuple[SeatId, ...]
    removed: int


def check_units(old_unit: int, new_unit: int) -> None:
    """Refuse a new unit that is not a larger multiple of the old one (ValueError)."""
    for name, unit in (("old_unit", old_unit), ("new_unit", new_unit)):
        if type(unit) is not int or unit < 1:
            raise ValueError(f"{name} must be a positive integer, not {unit!r}")
    if new_unit <= old_unit or new_unit % old_unit:
        raise ValueError(
            f"the new chip unit {new_unit} must be a larger multiple of the chip unit in play "
            f"{old_unit} (e.g. {old_unit * 5})"
        )


def chips_to_race(odd_total: int, new_unit: int) -> int:
    """How many new chips the pooled odd chips make: rounded half up.

    >>> chips_to_race(35, 25), chips_to_race(40, 50), chips_to_race(20, 50)
    (1, 1, 0)
    """
    return (2 * odd_total + new_unit) // (2 * new_unit)


def race(
    stacks: Mapping[SeatId, int], *, old_unit: int, new_unit: int, rng: Shuffler
) -> RaceResult:
    """Colour up one table's ``stacks`` (seat number -> chips, multiples of
    ``old_unit``) to ``new_unit``. See the module docstring for the rules."""
    check_units(old_unit, new_unit)
    if any(type(s) is not int or s < 1 or s % old_unit for s in stacks.values()):
        raise ValueError(f"stacks are positive multiples of the chip unit {old_unit}")
    seats = sorted(stacks)
    odd = {seat: stacks[seat] % new_unit for seat in seats}
    tickets = [seat for seat in seats for _ in range(odd[seat] // old_unit)]
    rng.shuffle(tickets)
    to_win = chips_to_race(sum(odd.values()), new_unit)
    winners: list[SeatId] = []
    for seat in tickets:
        if len(winners) == to_win:
            break
        if seat not in winners:
            winners.append(seat)
    after = {
        seat: stacks[seat] - odd[seat] + (new_unit if seat in winners else 0) for seat in seats
    }
    given = tuple(seat for seat in seats if after[seat] == 0)
    for seat in given:
        after[seat] = new_unit
    removed = sum(stacks.values()) - sum(after.values())
    return RaceResult(after, tuple(winners), given, removed)
