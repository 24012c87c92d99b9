"""Rake: the house's share of a ring game's pot, taken after the engine pays the pots.

A pure post-settlement step, so the engine's own log and replay stay exactly as they are:
the rake is a function of the finished hand (what its awards paid, how far it went) and the
table's :class:`RakeRule`, and the amount is taken back from the winners in proportion to
what they won (largest remainders, ties to the lower index). A hand history records the
amount (PHH ``rake``); :func:`rake_shares` gives every player's part of it again.

>>> rule = RakeRule(basis_points=500, cap=3, min_pot=10)
>>> rake_amount(rule, pot=40, ended_on_third_street=False)
2
>>> rake_shares(2, won=[30, 10])
[2, 0]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from games.engine.events import Award
from games.engine.state import HandState


@dataclass(frozen=True, slots=True)
class RakeRule:
    """``basis_points`` of the pot (500: 5%), at most ``cap`` units a hand (0: no cap), none
    for a pot under ``min_pot``, and none when the hand ends on third street unless
    ``third_street``."""

    basis_points: int = 0
    cap: int = 0
    min_pot: int = 0
    third_street: bool = False

    def __post_init__(self) -> None:
        if not 0 <= self.basis_points <= 10_000:
            raise ValueError(f"rake: basis_points must be 0..10000, not {self.basis_points}")
        if self.cap < 0 or self.min_pot < 0:
            raise ValueError("rake: cap and min_pot must be 0 or more")

    def to_dict(self) -> dict[str, Any]:
        return {
            "basis_points": self.basis_points,
            "cap": self.cap,
            "min_pot": self.min_pot,
            "third_street": self.third_street,
        }


def rake_amount(rule: RakeRule, *, pot: int, ended_on_third_street: bool, unit: int = 1) -> int:
    """The rake of a hand whose pots came to ``pot``, rounded down to whole ``unit`` (the
    smallest chip in play).

    >>> rake_amount(RakeRule(basis_points=500), pot=190, ended_on_third_street=False, unit=5)
    5
    """
    if not rule.basis_points or pot < max(rule.min_pot, 1):
        return 0
    if ended_on_third_street and not rule.third_street:
        return 0
    amount = pot * rule.basis_points // 10_000
    if rule.cap:
        amount = min(amount, rule.cap)
    return amount // unit * unit


def rake_shares(amount: int, won: Sequence[int], unit: int = 1) -> list[int]:
    """Each player's part of ``amount``, in proportion to ``won`` (what they were awarded), in
    whole ``unit``: the units left by rounding down go to the largest remainders, ties to the
    lower index, and any part of a unit to the player with the most won left after their share.

    >>> rake_shares(10, won=[60, 40], unit=5)
    [5, 5]
    """
    total = sum(won)
    if amount > total:
        raise ValueError(f"rake {amount} is more than the {total} won")
    if not amount:
        return [0] * len(won)
    units, part = divmod(amount, unit)
    counts = [units * w // total for w in won]
    remainders = sorted(range(len(won)), key=lambda i: (-(units * won[i] % total), i))
    for i in remainders[: units - sum(counts)]:
        counts[i] += 1
    shares = [count * unit for count in counts]
    if part:  # to the player with the most won left over after their share
        shares[max(range(len(won)), key=lambda i: (won[i] - shares[i], -i))] += part
    return shares


def hand_won(state: HandState) -> list[int]:
    """What each player was awarded by the finished hand (uncalled bets returned excluded)."""
    won = [0] * len(state.players)
    for event in state.log:
        if isinstance(event, Award):
            won[event.player] += event.amount
    return won


def hand_rake(rule: RakeRule, state: HandState) -> list[int]:
    """Each player's part of the rake of a finished hand."""
    won = hand_won(state)
    amount = rake_amount(
        rule,
        pot=sum(won),
        ended_on_third_street=state.round.street.bring_in,
        unit=state.stakes.unit,
    )
    return rake_shares(amount, won, state.stakes.unit)
