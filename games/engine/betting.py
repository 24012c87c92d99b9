"""One betting round as an immutable value: the level to call, the bets made, the street's limits.

A round starts with :func:`opening` for its street and changes only by a bring-in or a bet,
raise or completion, each giving a new value (calls, checks and folds leave it as it is).
Fixed-limit sizes follow docs/rules.md 4: the small bet on third and fourth street, the big bet
later; on fourth street with an open pair (``Rules.open_pair_double``) a bet may be small or
big, and once a big bet or raise is made every raise is big (docs/rules.md 4.6). One bet and
three raises at most (:data:`~games.engine.rules.CAP`).

>>> from games.engine.rules import STREETS, Stakes
>>> stakes = Stakes(ante=1, bring_in=2, small_bet=5, big_bet=10)
>>> third = opening(STREETS[0]).brought_in(2, stakes)
>>> third.raise_targets(stakes), third.raise_action()
([5], <Action.COMPLETE: 'complete'>)
>>> completed = third.raised_to(5, stakes)
>>> completed.level, completed.bets, completed.raise_targets(stakes)
(5, 1, [10])
"""

from __future__ import annotations

from typing import Final, NamedTuple

from games.engine.actions import Action
from games.engine.rules import STREETS, Stakes, Street

_COMPLETE: Final = Action.COMPLETE  # enum members read once: a global is faster in hot paths
_RAISE: Final = Action.RAISE
_BET: Final = Action.BET
_new = tuple.__new__  # a round changes on every bet: skip the named tuple's Python __new__


class BettingRound(NamedTuple):
    """The state of one street's betting that every player shares.

    ``level``: the street total each player must match. ``bets``: full bets and raises made
    (the bring-in is none), for the cap; a player who acted before the last of them may raise
    again (TDA 47-B: a short all-in raise adds none, so it does not reopen the betting).
    ``completed``: third street's bring-in was completed. ``open_pair``: fourth street with
    an open pair showing; ``big_locked``: a big bet or raise was made on it.
    """

    street: Street
    level: int = 0
    bets: int = 0
    completed: bool = False
    open_pair: bool = False
    big_locked: bool = False

    def unit(self, stakes: Stakes) -> int:
        """The street's bet size: small on third and fourth street, big later."""
        return stakes.big_bet if self.street.big else stakes.small_bet

    def raise_action(self) -> Action:
        """What a bet or raise is called now: complete, bet or raise."""
        if self.street.bring_in and not self.completed:
            return _COMPLETE
        return _RAISE if self.level > 0 else _BET

    def raise_unit(self, stakes: Stakes) -> int:
        """The size of a full bet or raise: the street's unit, or with an open pair on fourth
        street the small bet until a big bet or raise was made, then the big bet."""
        if self.open_pair:
            return stakes.big_bet if self.big_locked else stakes.small_bet
        return stakes.big_bet if self.street.big else stakes.small_bet

    def raise_targets(self, stakes: Stakes) -> list[int]:
        """The street totals a bet, raise or completion may go to, smallest first."""
        if self.street.bring_in and not self.completed:
            return [stakes.small_bet]
        if self.open_pair and not self.big_locked:
            return [self.level + stakes.small_bet, self.level + stakes.big_bet]
        return [self.level + self.raise_unit(stakes)]

    def brought_in(self, to: int, stakes: Stakes) -> BettingRound:
        """After the bring-in to ``to``: a short all-in bring-in still sets the full bring-in
        as the level to call (like a short all-in blind)."""
        return _new(
            BettingRound,
            (
                self.street,
                max(to, stakes.bring_in),
                self.bets,
                self.completed,
                self.open_pair,
                self.big_locked,
            ),
        )

    def raised_to(self, to: int, stakes: Stakes) -> BettingRound:
        """After a bet, raise or completion to ``to``. A full one, or an all-in of at least
        half of one, counts as a bet made (TDA 47-B); a short all-in completion of at least
        half counts as the completion."""
        increment = to - self.level
        completed, big_locked = self.completed, self.big_locked
        if self.street.bring_in and not self.completed:
            full = stakes.small_bet - self.level
            completed = 2 * increment >= full
        else:
            full = self.raise_unit(stakes)
            big_locked = big_locked or (self.open_pair and increment >= stakes.big_bet)
        return _new(
            BettingRound,
            (
                self.street,
                to,
                self.bets + (2 * increment >= full),
                completed,
                self.open_pair,
                big_locked,
            ),
        )

    def with_open_pair(self) -> BettingRound:
        """The round once an open pair shows on fourth street."""
        return BettingRound(self.street, self.level, self.bets, self.completed, True, False)


_OPENINGS: Final = {street: BettingRound(street) for street in STREETS}


def opening(street: Street) -> BettingRound:
    """A street's round before anyone acts: no bet yet."""
    return _OPENINGS.get(street) or BettingRound(street)
