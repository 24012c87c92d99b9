"""Deal calculators for the players left: ICM (Malmuth-Harville) and chip-chop.

Both take the stacks of the players left and the prizes of the places still to be paid
(best first; places beyond the prizes pay nothing) and return each player's amount in whole
chip units, in the order of ``stacks``, summing exactly to those prizes. Both lock every
player in at the next payout first (:func:`next_payout`, what the next player out would
win): a deal never pays anyone less than a place they are already sure of, and only what is
left above it is shared by the method (rounding included).

>>> icm([50, 30, 20], [50, 30, 20])
[38, 33, 29]
>>> chip_chop([50, 30, 20], [50, 30, 20])
[40, 32, 28]
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Final

MAX_ICM_PLAYERS: Final = 10


def icm(stacks: Sequence[int], prizes: Sequence[int], chip_unit: int = 1) -> list[int]:
    """Each player's exact Malmuth-Harville equity, rounded to the chip unit.

    A player finishes first with probability stack / total chips; given who finished above,
    each remaining player takes the next place with probability their share of the chips
    still in play. Exact (fractions) for up to 10 players; more is refused, as the work grows
    with 2**players. An equity is never below the next payout (every finishing place pays at
    least that); rounding: each equity's part above the next payout is rounded down to the
    chip unit, and the units left over go to the largest remainders (ties: the bigger stack,
    then the earlier player), so nobody is rounded below the next payout.
    """
    _check(stacks, prizes, chip_unit)
    if len(stacks) > MAX_ICM_PLAYERS:
        raise ValueError(
            f"ICM is computed exactly for at most {MAX_ICM_PLAYERS} players, not {len(stacks)}"
        )
    floor = next_payout(stacks, prizes)
    return _above(floor, harville_equities(stacks, prizes), stacks, chip_unit)


def next_payout(stacks: Sequence[int], prizes: Sequence[int]) -> int:
    """The prize of the lowest place still to be paid among the players left: what the next
    player out would win, so what every player left is already sure of (0 when the players
    left outnumber the prizes).

    >>> next_payout([10, 20, 30], [500, 300, 200])
    200
    >>> next_payout([10, 20, 30], [500, 300])
    0
    """
    return _paid(stacks, prizes)[-1]


def _paid(stacks: Sequence[int], prizes: Sequence[int]) -> list[int]:
    """The prizes of places 1..players left (0 for the places beyond the prizes)."""
    return list(prizes[: len(stacks)]) + [0] * (len(stacks) - len(prizes))


def harville_equities(stacks: Sequence[int], prizes: Sequence[int]) -> list[Fraction]:
    """The exact Malmuth-Harville equities (fractions summing to the prizes paid).

    Over subsets: ``reach[mask]`` is the probability that the players in ``mask`` took the
    top ``len(mask)`` places, in any order; each subset is computed once (the memo of the
    recursion "who finishes next among the rest").
    """
    count = len(stacks)
    paid = _paid(stacks, prizes)
    total = sum(stacks)
    equities = [Fraction(0)] * count
    reach: dict[int, Fraction] = {0: Fraction(1)}
    # Masks in increasing popcount order, so each is complete before it is extended.
    for mask in sorted(range(1 << count), key=int.bit_count):
        probability = reach.pop(mask, None)
        if probability is None:
            continue
        place = mask.bit_count()
        if place == count:
            continue
        chips_left = total - sum(stacks[i] for i in range(count) if mask >> i & 1)
        for player in range(count):
            if mask >> player & 1:
                continue
            step = probability * Fraction(stacks[player], chips_left)
            equities[player] += step * paid[place]
            extended = mask | 1 << player
            reach[extended] = reach.get(extended, Fraction(0)) + step
    return equities


def chip_chop(stacks: Sequence[int], prizes: Sequence[int], chip_unit: int = 1) -> list[int]:
    """A chip-chop deal: each player is first locked in at the next payout, and what is left
    above those is shared in proportion to the stacks. Rounded like :func:`icm`.

    >>> chip_chop([60, 30, 10], [500, 300, 200])
    [440, 320, 240]
    """
    _check(stacks, prizes, chip_unit)
    floor = next_payout(stacks, prizes)
    rest = sum(_paid(stacks, prizes)) - floor * len(stacks)
    total_chips = sum(stacks)
    exact = [floor + Fraction(rest * stack, total_chips) for stack in stacks]
    return _above(floor, exact, stacks, chip_unit)


def _above(
    floor: int, exact: Sequence[Fraction], stacks: Sequence[int], chip_unit: int
) -> list[int]:
    """Exact amounts of at least ``floor`` each, rounded so that none falls below it: only
    the part above the floor is rounded to the chip unit."""
    return [floor + part for part in _apportion([e - floor for e in exact], stacks, chip_unit)]


def _apportion(exact: Sequence[Fraction], stacks: Sequence[int], chip_unit: int) -> list[int]:
    """Round exact amounts down to the chip unit, then hand out what is left in whole units
    by largest remainder (a last part smaller than a unit only if the total is not in units).
    """
    total = sum(exact)
    if total.denominator != 1:
        raise ValueError("the exact amounts must sum to a whole number")
    amounts = [int(amount // chip_unit) * chip_unit for amount in exact]
    left = int(total) - sum(amounts)
    order = sorted(
        range(len(exact)),
        key=lambda i: (-(exact[i] - amounts[i]), -stacks[i], i),
    )
    for index in order:
        if left <= 0:
            break
        part = min(chip_unit, left)
        amounts[index] += part
        left -= part
    return amounts


def _check(stacks: Sequence[int], prizes: Sequence[int], chip_unit: int) -> None:
    if not stacks:
        raise ValueError("a deal needs at least one player")
    if any(type(stack) is not int or stack <= 0 for stack in stacks):
        raise ValueError("every player in a deal needs a positive integer stack")
    if any(type(prize) is not int or prize < 0 for prize in prizes):
        raise ValueError("prizes must be non-negative integers")
    if len(prizes) > len(stacks):
        raise ValueError(
            f"{len(prizes)} prizes for {len(stacks)} players: pass only the places still to pay"
        )
    if type(chip_unit) is not int or chip_unit <= 0:
        raise ValueError(f"chip_unit must be a positive integer, got {chip_unit!r}")
