"""Pots, side pots, splits and odd chips: small pure integer functions (docs/rules.md 6 and 8).

>>> build_pots([50, 100, 100], live=[True, True, True])
[Pot(amount=150, eligible=(0, 1, 2)), Pot(amount=100, eligible=(1, 2))]
>>> split(7, [2, 0])
[4, 3]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Pot:
    """A main or side pot: its chips and the players who may win it."""

    amount: int
    eligible: tuple[int, ...]


def uncalled_excess(contributions: Sequence[int]) -> tuple[int, int]:
    """The player whose top contribution nobody matched, and by how much: ``(player, excess)``.

    Only the single largest contributor can have an uncalled part; ``excess`` is 0 when the top
    two contributions are equal.
    """
    top, first, second = 0, -1, 0
    for i, amount in enumerate(contributions):
        if amount > first:
            top, first, second = i, amount, max(first, 0)
        elif amount > second:
            second = amount
    return top, first - second


def build_pots(contributions: Sequence[int], live: Sequence[bool]) -> list[Pot]:
    """Main pot and side pots from what each player put in (folded players' chips included).

    A pot is cut at every different amount put in by a live (not folded) player; each pot is
    contested only by the live players who put in the full amount. Adjacent pots with the same
    eligible players are merged, so the list is as short as it can be.
    """
    levels = sorted({c for c, alive in zip(contributions, live, strict=True) if alive and c > 0})
    if len(levels) == 1:  # every live player put in the same: one pot, folded chips included
        eligible = tuple(i for i, c in enumerate(contributions) if live[i] and c > 0)
        return [Pot(sum(contributions), eligible)]
    pots: list[Pot] = []
    floor = 0
    for level in levels:
        amount = sum(min(c, level) - min(c, floor) for c in contributions)
        eligible = tuple(
            i
            for i, (c, alive) in enumerate(zip(contributions, live, strict=True))
            if alive and c >= level
        )
        if pots and pots[-1].eligible == eligible:
            pots[-1] = Pot(pots[-1].amount + amount, eligible)
        elif amount:
            pots.append(Pot(amount, eligible))
        floor = level
    leftover = sum(contributions) - sum(p.amount for p in pots)
    if leftover and pots:
        # Chips above every live player's total (only possible when the top contributor
        # folded) belong to the last pot: nobody live can claim them otherwise.
        pots[-1] = Pot(pots[-1].amount + leftover, pots[-1].eligible)
    return pots


def halve(amount: int, unit: int = 1) -> tuple[int, int]:
    """Split a hi/lo pot into ``(high half, low half)`` in whole units of the smallest chip in
    play; an odd unit (and any part of a unit) goes to the high half.

    >>> halve(35, unit=5)
    (20, 15)
    """
    low = amount // unit // 2 * unit
    return amount - low, low


def split(amount: int, winners: Sequence[int], unit: int = 1) -> list[int]:
    """Share ``amount`` among tied ``winners`` listed in odd-chip order.

    Every winner gets an equal share in whole units of the smallest chip in play; the units
    that cannot be split go one each to the first winners in the list (the caller orders them
    by the highest card by suit, TDA 20-B), and any part of a unit to the first of them.
    Returns the amounts in the order of ``winners``.

    >>> split(35, [0, 1], unit=5)
    [20, 15]
    >>> split(37, [0, 1, 2], unit=5)
    [17, 10, 10]
    """
    units, part = divmod(amount, unit)
    share, odd = divmod(units, len(winners))
    amounts = [(share + (1 if rank < odd else 0)) * unit for rank in range(len(winners))]
    amounts[0] += part
    return amounts
