"""Prize pools, payout structures, amounts by place, shared places.

All money is integer: amounts are whole multiples of the chip unit (the money unit prizes are
paid in), and every list of amounts sums exactly to what it divides.

>>> payouts(1000, default_structure(10), chip_unit=5)
[450, 300, 250]
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from itertools import pairwise
from typing import Final, TypeVar

from tourney.planning.refused import PlanRefused

P = TypeVar("P", bound=Hashable)

PAID_FRACTION: Final = Fraction(15, 100)
# The smallest prize is at least 1.5 buy-ins (3/2 of one entrant's share of the pool).
MIN_CASH_BUY_INS: Final = Fraction(3, 2)
# Place i's share above the min-cash follows 1/i (a harmonic power curve, steep at the top).
# The scale, lcm(1..30), makes the weights exact up to 30 paid places, so round shares stay
# round (a 10-player field pays exactly 45/30/25%); beyond, the error is below 1e-12.
_WEIGHT_SCALE: Final = math.lcm(*range(1, 31))


@dataclass(frozen=True)
class PayoutStructure:
    """Shares of the prize pool by place: place ``i`` gets ``shares[i-1] / sum(shares)``."""

    shares: tuple[int, ...]

    def __post_init__(self) -> None:
        if not self.shares:
            raise PlanRefused("a payout structure pays at least one place")
        if any(type(share) is not int or share <= 0 for share in self.shares):
            raise PlanRefused("every paid place needs a positive integer share")
        if any(lower > higher for higher, lower in pairwise(self.shares)):
            raise PlanRefused("a lower place cannot pay more than a higher one")

    @property
    def places(self) -> int:
        """How many places are paid."""
        return len(self.shares)

    def fractions(self) -> tuple[Fraction, ...]:
        """Each place's exact fraction of the pool (they sum to 1)."""
        total = sum(self.shares)
        return tuple(Fraction(share, total) for share in self.shares)


def prize_pool(
    *,
    entries: int,
    buy_in: int,
    fee: int = 0,
    re_entries: int = 0,
    rebuys: int = 0,
    rebuy_price: int = 0,
    rebuy_fee: int = 0,
    add_ons: int = 0,
    add_on_price: int = 0,
    add_on_fee: int = 0,
) -> int:
    """The prize pool: everything paid in, minus the house's fees.

    A price is what the player pays, its fee included (``buy_in`` 110 with ``fee`` 10 puts 100
    in the pool). A re-entry costs a buy-in.

    >>> prize_pool(entries=10, buy_in=110, fee=10, re_entries=2, add_ons=5, add_on_price=50)
    1450
    """
    counts = {"entries": entries, "re_entries": re_entries, "rebuys": rebuys, "add_ons": add_ons}
    for name, count in counts.items():
        _require_non_negative_int(name, count)
    pool = 0
    for count, price, fee_part, name in (
        (entries + re_entries, buy_in, fee, "buy_in"),
        (rebuys, rebuy_price, rebuy_fee, "rebuy_price"),
        (add_ons, add_on_price, add_on_fee, "add_on_price"),
    ):
        _require_non_negative_int(name, price)
        _require_non_negative_int(f"the fee of {name}", fee_part)
        if fee_part > price:
            raise PlanRefused(
                "the fee ({fee_part}) cannot exceed the {name} ({price})",
                fee_part=fee_part,
                name=name,
                price=price,
            )
        pool += count * (price - fee_part)
    return pool


def places_paid(entrants: int) -> int:
    """How many places the default structure pays.

    About 15% of the field, with small-field cases: 1 place up to 5 entrants, 2 for 6-9,
    3 for 10-20, then 15% rounded (half up), which is never fewer than 3.
    """
    _require_positive_int("entrants", entrants)
    if entrants <= 5:
        return 1
    if entrants <= 9:
        return 2
    return max(3, math.floor(entrants * PAID_FRACTION + Fraction(1, 2)))


def default_structure(entrants: int) -> PayoutStructure:
    """The default structure for a field of ``entrants``.

    Every paid place gets the min-cash, 1.5 buy-ins (1.5/entrants of the pool, so at least
    1.5 buy-ins whenever re-entries and add-ons only grow the pool); what is left is shared in
    proportion to 1/place, which makes the top steep: in a field of 10,000 the winner takes
    about 10% of the pool (980 buy-ins) and the last place paid about 2 buy-ins.
    """
    paid = places_paid(entrants)
    weights = _harmonic_weights(paid)
    total_weight = sum(weights)
    # Exact in integers: share_i / (2 * entrants * total_weight) = 3/(2*entrants) for the
    # min-cash, plus (1 - 3*paid/(2*entrants)) * w_i / total_weight for the rest.
    numerator = MIN_CASH_BUY_INS.numerator
    denominator = MIN_CASH_BUY_INS.denominator
    rest = denominator * entrants - numerator * paid
    return PayoutStructure(tuple(numerator * total_weight + rest * w for w in weights))


def structure_from_percentages(
    percentages: Sequence[int | str | Decimal | Fraction],
) -> PayoutStructure:
    """A custom structure from each place's percentage; they must sum to exactly 100.

    Percentages may be ints, decimal strings, Decimals or Fractions (floats are refused:
    0.1 + 0.2 is not 0.3).

    >>> structure_from_percentages(["50", "30", "20"]).fractions()
    (Fraction(1, 2), Fraction(3, 10), Fraction(1, 5))
    """
    exact = []
    for percentage in percentages:
        if isinstance(percentage, float | bool):
            raise PlanRefused(
                "percentages must be exact (int, str, Decimal), not {percentage}",
                percentage=repr(percentage),
            )
        try:
            exact.append(Fraction(percentage))
        except (ValueError, ZeroDivisionError) as error:
            raise PlanRefused(
                "{percentage} is not a percentage: write it as 50 or 12.5",
                percentage=repr(percentage),
            ) from error
    if sum(exact) != 100:
        raise PlanRefused("the percentages sum to {total}, not 100", total=sum(exact))
    common = math.lcm(*(value.denominator for value in exact)) if exact else 1
    return PayoutStructure(tuple(int(value * common) for value in exact))


def payouts(
    pool: int,
    structure: PayoutStructure | Sequence[int | str | Decimal | Fraction],
    chip_unit: int = 1,
) -> list[int]:
    """Each place's prize: its share rounded down to the chip unit, the rest to first place.

    ``structure`` is a :class:`PayoutStructure` or a sequence of percentages summing to 100.
    The amounts never increase from one place to the next and sum exactly to ``pool`` (an odd
    amount below the chip unit in the pool itself also goes to first place).
    """
    _require_non_negative_int("pool", pool)
    _require_positive_int("chip_unit", chip_unit)
    if not isinstance(structure, PayoutStructure):
        structure = structure_from_percentages(structure)
    denominator = sum(structure.shares) * chip_unit
    amounts = [pool * share // denominator * chip_unit for share in structure.shares]
    amounts[0] += pool - sum(amounts)
    return amounts


def shared_prizes(
    prizes_for_places: Sequence[int], tied_group: Sequence[P], chip_unit: int = 1
) -> dict[P, int]:
    """Split the prizes of the places a tied group occupies equally among its players.

    Players eliminated on the same hand with equal stacks share their places: the sum of
    those places' prizes is divided equally in chip units, and the odd units left over go one
    each to the players in ``tied_group`` order. The caller orders the group by a logged random
    draw, so no seat or table is favoured. The amounts sum exactly to the places' prizes.

    >>> shared_prizes([300, 200], ["ann", "bob"], chip_unit=25)
    {'ann': 250, 'bob': 250}
    >>> shared_prizes([300, 200, 100], ["ann", "bob", "cy"], chip_unit=25)
    {'ann': 200, 'bob': 200, 'cy': 200}
    >>> shared_prizes([300, 200, 125], ["ann", "bob", "cy"], chip_unit=25)
    {'ann': 225, 'bob': 200, 'cy': 200}
    """
    _require_positive_int("chip_unit", chip_unit)
    if len(prizes_for_places) != len(tied_group):
        raise PlanRefused(
            "{count} tied players need exactly {count} places' prizes, got {count2}",
            count=len(tied_group),
            count2=len(prizes_for_places),
        )
    if len(set(tied_group)) != len(tied_group):
        raise PlanRefused("a player appears twice in the tied group")
    total = sum(prizes_for_places)
    units, odd_amount = divmod(total, chip_unit)
    each, odd_units = divmod(units, len(tied_group))
    shares = {}
    for index, player in enumerate(tied_group):
        shares[player] = (each + (index < odd_units)) * chip_unit
    # An amount below one chip unit (only when the prizes themselves were not in units).
    shares[tied_group[0]] += odd_amount
    return shares


def places_of_eliminated(
    starting_stacks: Mapping[P, int],
    players_left_before: int,
    *,
    hands: Mapping[P, Hashable] | None = None,
) -> list[tuple[tuple[int, ...], tuple[P, ...]]]:
    """Finishing places of the players eliminated together, best place first.

    ``starting_stacks`` maps each eliminated player to their chips at the start of their bust
    hand; ``players_left_before`` counts the players in the tournament before (them included).
    On one hand at one table the bigger starting stack takes the better place and equal
    stacks share their places (give the group's prizes to :func:`shared_prizes`); TDA.

    ``hands`` names each player's bust hand when the group is a hand-for-hand round played
    at several tables (by default they all busted on one hand). Players busted on different
    hands of the round tie (TDA): each player's rank is 1 + the players of their own hand who
    started it with more chips, and the players of one rank share the places of that rank,
    the best rank first (the best of each table share the group's best places).

    >>> places_of_eliminated({"ann": 500, "bob": 900, "cy": 500}, 10)
    [((8,), ('bob',)), ((9, 10), ('ann', 'cy'))]
    >>> places_of_eliminated({"ann": 500, "bob": 900, "cy": 200}, 10, hands={"cy": 2})
    [((8, 9), ('bob', 'cy')), ((10,), ('ann',))]
    """
    if len(starting_stacks) > players_left_before:
        raise PlanRefused(
            "{count} players cannot be eliminated with only {players_left_before} left",
            count=len(starting_stacks),
            players_left_before=players_left_before,
        )
    hand_of = hands or {}
    for stack in starting_stacks.values():
        _require_non_negative_int("a starting stack", stack)
    ranks: dict[int, list[P]] = {}
    for player, stack in starting_stacks.items():
        hand = hand_of.get(player)
        above = sum(
            1
            for other, other_stack in starting_stacks.items()
            if hand_of.get(other) == hand and other_stack > stack
        )
        ranks.setdefault(1 + above, []).append(player)
    place = players_left_before - len(starting_stacks) + 1
    result = []
    for rank in sorted(ranks):
        players = tuple(ranks[rank])
        result.append((tuple(range(place, place + len(players))), players))
        place += len(players)
    return result


_harmonic_cache: list[int] = []


def _harmonic_weights(places: int) -> list[int]:
    """``S // place`` for places 1..``places``, extended on demand and kept between calls."""
    for place in range(len(_harmonic_cache) + 1, places + 1):
        _harmonic_cache.append(_WEIGHT_SCALE // place)
    return _harmonic_cache[:places]


def _require_positive_int(name: str, value: object) -> None:
    if type(value) is not int or value <= 0:
        raise PlanRefused(
            "{name} must be a positive integer, got {value}", name=name, value=repr(value)
        )


def _require_non_negative_int(name: str, value: object) -> None:
    if type(value) is not int or value < 0:
        raise PlanRefused(
            "{name} must be a non-negative integer, got {value}", name=name, value=repr(value)
        )
