"""Ante schedules for stud tournaments: levels, breaks, validation and generation.

Stud has no blinds: a level is an ante, a bring-in and two fixed-limit bets, played for a
number of minutes, in one of the stud games (mixed events rotate the game by level).

>>> schedule = generate_schedule(3000, 20, 4, 5)
>>> schedule.levels[0]
Level(game='stud_hi', ante=10, bring_in=15, small_bet=50, big_bet=100, minutes=20)
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import pairwise
from typing import Final

from tourney.planning.refused import PlanNote, PlanRefused

GAMES: Final = ("stud_hi", "stud_8", "razz")

# The first small bet is about 1/75 of the starting stack, and always within 1/100..1/50.
START_STACK_DIVISOR: Final = 75
START_STACK_DIVISOR_RANGE: Final = (50, 100)
# Each level's small bet grows by 25..50% over the previous one, aiming at +40%.
GROWTH_RANGE: Final = (Fraction(5, 4), Fraction(3, 2))
GROWTH_TARGET: Final = Fraction(7, 5)
# The ante is 10..20% of the small bet (aim 15%); the bring-in 1/4..1/3 (aim 30%).
ANTE_RANGE: Final = (Fraction(1, 10), Fraction(1, 5))
ANTE_TARGET: Final = Fraction(3, 20)
BRING_IN_RANGE: Final = (Fraction(1, 4), Fraction(1, 3))
BRING_IN_TARGET: Final = Fraction(3, 10)
# The smallest small bet, in chip units, that leaves room for an ante and a bring-in of at
# least one unit within their ranges.
MIN_SMALL_BET_UNITS: Final = 6
# Generated schedules run 50% past the target duration: tournaments often run long, and the
# clock should never fall off the end of the schedule.
DURATION_MARGIN: Final = Fraction(3, 2)
# Stakes grow ~40% a level: past this many levels the bets are absurd (1.4**120 ~ 10**17), so
# a longer target needs longer levels.
MAX_LEVELS: Final = 120


@dataclass(frozen=True)
class Level:
    """One level: the game and its stakes, played for ``minutes``."""

    game: str
    ante: int
    bring_in: int
    small_bet: int
    big_bet: int
    minutes: int

    def __post_init__(self) -> None:
        if self.game not in GAMES:
            raise PlanRefused(
                "unknown game {game}: expected one of {names}",
                game=repr(self.game),
                names=", ".join(GAMES),
            )
        for name in ("ante", "bring_in", "small_bet", "big_bet", "minutes"):
            _require_positive_int(name, getattr(self, name))
        if self.ante >= self.bring_in:
            raise PlanRefused(
                "the ante ({ante}) must be below the bring-in ({bring_in}): the "
                "bring-in is the first bet, above what everyone already put in",
                ante=self.ante,
                bring_in=self.bring_in,
            )
        if self.bring_in >= self.small_bet:
            raise PlanRefused(
                "the bring-in ({bring_in}) must be below the small bet ({small_bet})",
                bring_in=self.bring_in,
                small_bet=self.small_bet,
            )
        if self.small_bet > self.big_bet:
            raise PlanRefused(
                "the small bet ({small_bet}) must not exceed the big bet ({big_bet})",
                small_bet=self.small_bet,
                big_bet=self.big_bet,
            )

    def amounts(self) -> dict[str, int]:
        """The level's chip amounts by name."""
        return {
            "ante": self.ante,
            "bring_in": self.bring_in,
            "small_bet": self.small_bet,
            "big_bet": self.big_bet,
        }


def stakes_warnings(small_bet: int, big_bet: int) -> list[PlanNote]:
    """What a level may have but is unusual: a big bet other than twice the small bet.

    >>> stakes_warnings(30, 60), stakes_warnings(30, 90)
    ([], ['the big bet (90) is not twice the small bet (30), as fixed-limit stud has it'])
    """
    if big_bet == 2 * small_bet:
        return []
    return [
        PlanNote(
            "the big bet ({big_bet}) is not twice the small bet ({small_bet}), "
            "as fixed-limit stud has it",
            big_bet=big_bet,
            small_bet=small_bet,
        )
    ]


@dataclass(frozen=True)
class Break:
    """A pause between levels."""

    minutes: int

    def __post_init__(self) -> None:
        _require_positive_int("minutes", self.minutes)


@dataclass(frozen=True)
class Schedule:
    """Levels and breaks in playing order; every chip amount is a multiple of ``chip_unit``."""

    entries: tuple[Level | Break, ...]
    chip_unit: int

    def __post_init__(self) -> None:
        _require_positive_int("chip_unit", self.chip_unit)
        if not any(isinstance(entry, Level) for entry in self.entries):
            raise PlanRefused("a schedule needs at least one level")
        # Past the end of the schedule its last entry plays on: a break would never end.
        if isinstance(self.entries[-1], Break):
            raise PlanRefused("a schedule ends with a level, not a break")
        for number, level in enumerate(self.levels, start=1):
            for name, amount in level.amounts().items():
                if amount % self.chip_unit:
                    raise PlanRefused(
                        "level {number}: {name} {amount} is not a multiple of the chip unit "
                        "{chip_unit}",
                        number=number,
                        name=name,
                        amount=amount,
                        chip_unit=self.chip_unit,
                    )
        for number, (before, after) in enumerate(pairwise(self.levels), start=2):
            for name, amount in after.amounts().items():
                if amount < before.amounts()[name]:
                    raise PlanRefused(
                        "level {number}: {name} {amount} is below the {value} of level "
                        "{number2}: stakes never go down",
                        number=number,
                        name=name,
                        amount=amount,
                        value=before.amounts()[name],
                        number2=number - 1,
                    )

    @property
    def levels(self) -> tuple[Level, ...]:
        """The levels alone, in order."""
        return tuple(entry for entry in self.entries if isinstance(entry, Level))

    @property
    def total_minutes(self) -> int:
        """Minutes of play and breaks from the first level to the end of the last entry."""
        return sum(entry.minutes for entry in self.entries)


def generate_schedule(
    starting_stack: int,
    level_minutes: int,
    target_hours: int | float | Fraction,
    chip_unit: int,
    games: Sequence[str] = ("stud_hi",),
    break_every: int | None = 4,
    break_minutes: int = 10,
) -> Schedule:
    """A sensible schedule for a starting stack, level length and target duration.

    - The first small bet is the "nicest" multiple of ``chip_unit`` between 1/100 and 1/50
      of the starting stack (ties go to the one closest to 1/75).
    - Each next small bet is the nicest multiple of the chip unit 25..50% above the last one
      (aiming at +40%), so bets increase strictly; the big bet is twice the small bet.
    - The ante is the nicest amount within 10..20% of the small bet, the bring-in within
      1/4..1/3; neither ever goes down from one level to the next.
    - "Nicest" means fewest steps of a round number (1, 2, 2.5 or 5 times a power of ten, or
      the chip unit itself): 500 beats 450, 150 beats 140.
    - The game rotates through ``games`` by level; a break of ``break_minutes`` follows every
      ``break_every`` levels (``None``: no breaks), never as the last entry. Levels are added
      until the schedule covers 1.5 times the target duration.

    >>> [level.small_bet for level in generate_schedule(10_000, 20, 3, 25).levels][:8]
    [200, 250, 350, 500, 750, 1000, 1500, 2000]
    """
    _require_positive_int("starting_stack", starting_stack)
    _require_positive_int("level_minutes", level_minutes)
    _require_positive_int("chip_unit", chip_unit)
    _require_positive_int("break_minutes", break_minutes)
    if break_every is not None:
        _require_positive_int("break_every", break_every)
    if not target_hours > 0:
        raise PlanRefused(
            "target_hours must be positive, got {target_hours}", target_hours=repr(target_hours)
        )
    if not games:
        raise PlanRefused("games must name at least one game")
    for game in games:
        if game not in GAMES:
            raise PlanRefused(
                "unknown game {game}: expected one of {names}",
                game=repr(game),
                names=", ".join(GAMES),
            )
    target_minutes = Fraction(target_hours) * 60 * DURATION_MARGIN
    if target_minutes / level_minutes > MAX_LEVELS:
        raise PlanRefused(
            "{target_hours} hours of {level_minutes}-minute levels needs more than "
            "{MAX_LEVELS} levels: use longer levels",
            target_hours=target_hours,
            level_minutes=level_minutes,
            MAX_LEVELS=MAX_LEVELS,
        )

    entries: list[Level | Break] = []
    elapsed = 0
    for number, (ante, bring_in, small_bet) in enumerate(
        _stakes(starting_stack, chip_unit), start=1
    ):
        if elapsed >= target_minutes:
            break
        # The break after every ``break_every`` levels is added with the level that follows
        # it, so the schedule never ends with a break.
        if break_every is not None and number > 1 and (number - 1) % break_every == 0:
            entries.append(Break(break_minutes))
            elapsed += break_minutes
        game = games[(number - 1) % len(games)]
        entries.append(Level(game, ante, bring_in, small_bet, 2 * small_bet, level_minutes))
        elapsed += level_minutes
    return Schedule(tuple(entries), chip_unit)


def _stakes(starting_stack: int, unit: int) -> Iterator[tuple[int, int, int]]:
    """Endless (ante, bring-in, small bet) levels, growing as :func:`generate_schedule` says."""
    low_divisor, high_divisor = START_STACK_DIVISOR_RANGE
    lowest = max(Fraction(starting_stack, high_divisor), Fraction(MIN_SMALL_BET_UNITS * unit))
    highest = Fraction(starting_stack, low_divisor)
    if lowest > highest:
        raise PlanRefused(
            "a starting stack of {starting_stack} is too small for a chip unit of "
            "{unit}: it needs at least {number} ({low_divisor} small bets of "
            "{MIN_SMALL_BET_UNITS} units)",
            starting_stack=starting_stack,
            unit=unit,
            number=low_divisor * MIN_SMALL_BET_UNITS * unit,
            low_divisor=low_divisor,
            MIN_SMALL_BET_UNITS=MIN_SMALL_BET_UNITS,
        )
    small_bet = _nicest(lowest, highest, unit, Fraction(starting_stack, START_STACK_DIVISOR))
    ante = bring_in = unit
    while True:
        ante = _nicest(
            max(Fraction(ante), small_bet * ANTE_RANGE[0]),
            small_bet * ANTE_RANGE[1],
            unit,
            small_bet * ANTE_TARGET,
        )
        bring_in = _nicest(
            max(Fraction(bring_in), small_bet * BRING_IN_RANGE[0]),
            small_bet * BRING_IN_RANGE[1],
            unit,
            small_bet * BRING_IN_TARGET,
        )
        yield ante, bring_in, small_bet
        small_bet = _nicest(
            small_bet * GROWTH_RANGE[0],
            small_bet * GROWTH_RANGE[1],
            unit,
            small_bet * GROWTH_TARGET,
        )


def _nicest(lowest: Fraction, highest: Fraction, unit: int, target: Fraction) -> int:
    """The roundest multiple of ``unit`` in ``[lowest, highest]``; ties: closest to ``target``.

    A value's roundness is ``value / step`` for the largest round step dividing it (smaller is
    rounder); round steps are the chip unit and its multiples that are 1, 2, 2.5 or 5 times a
    power of ten.
    """
    best: tuple[int, float, int] | None = None
    for step in _round_steps(unit, math.floor(highest)):
        count = math.ceil(lowest / step)
        value = count * step
        if value <= highest:
            key = (count, abs(math.log(value / target)), value)
            if best is None or key < best:
                best = key
    if best is None:
        raise PlanRefused(
            "no multiple of {unit} between {lowest} and {highest}",
            unit=unit,
            lowest=lowest,
            highest=highest,
        )
    return best[2]


def _round_steps(unit: int, highest: int) -> list[int]:
    """The chip unit, and the round numbers up to ``highest`` that are multiples of it."""
    steps = [unit]
    power = 1
    while power <= highest:
        for mantissa in (10, 20, 25, 50):
            value, fraction = divmod(mantissa * power, 10)
            if not fraction and 0 < value <= highest and value % unit == 0:
                steps.append(value)
        power *= 10
    return steps


def _require_positive_int(name: str, value: object) -> None:
    # bool is an int subclass, and True chips are never what the caller meant.
    if type(value) is not int or value <= 0:
        raise PlanRefused(
            "{name} must be a positive integer, got {value}", name=name, value=repr(value)
        )
