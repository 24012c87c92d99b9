"""Showdown and awards as pure functions (docs/rules.md 6-8): who shows first, who must show,
who wins each pot and with which odd chips.

A hand's value is ``(high, low)``: the high value, or None in razz; the qualifying low value,
or None (stud high, or no qualifying low in stud hi-lo). Larger is better for both.

>>> from games.engine.cards import parse_cards
>>> from games.engine.pots import Pot
>>> from games.engine.rules import Rules
>>> aces = parse_cards("As Ad 7c 8d 2h 3s 9c")
>>> kings = parse_cards("Ks Kd 7h 8s 2c 3d 9h")
>>> shown = {0: Shown(hand_value(aces, Rules()), tuple(aces)),
...          1: Shown(hand_value(kings, Rules()), tuple(kings))}
>>> award_pots([Pot(20, (0, 1))], shown, Rules())
[Award(pot=0, player=0, amount=20, half=None, hand='a pair of aces')]
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Final, NamedTuple

from games.engine.boards import high_card_by_suit_key
from games.engine.cards import Card
from games.engine.evaluation import (
    best_high_five,
    best_low_five,
    describe_high,
    describe_low,
    high_value,
    low8_value,
    low_value,
)
from games.engine.events import Award
from games.engine.pots import Pot, halve, split
from games.engine.rules import Rules, ShowdownOrder, Variant

_RAZZ: Final = Variant.RAZZ  # enum members read once: a global is faster per hand
_STUD_8: Final = Variant.STUD_8

HandValue = tuple[int | None, int | None]
"""``(high value or None, qualifying low value or None)``."""


class Shown(NamedTuple):
    """A hand shown at showdown: its value and its cards."""

    value: HandValue
    cards: tuple[Card, ...]


def hand_value(cards: Sequence[Card], rules: Rules) -> HandValue:
    """The value of a player's cards in the game played."""
    high = high_value(cards) if rules.plays_high else None
    if rules.variant is _RAZZ:
        return high, low_value(cards)
    if rules.variant is _STUD_8:
        return high, low8_value(cards, rules.low_qualifier)
    return high, None


def showdown_order(first: int, live: Sequence[int], players: int) -> list[int]:
    """The live players in showing order: ``first``, then clockwise."""
    alive = set(live)
    return [j for j in ((first + s) % players for s in range(players)) if j in alive]


def first_to_show(
    live: Sequence[int],
    aggressors: Sequence[int | None],
    order: ShowdownOrder,
    board_key: Callable[[int], tuple[int, ...]],
) -> int:
    """Who shows first (docs/rules.md 6). ``live``: the players who did not fold, in seat order;
    ``aggressors``: each street's last player to bet or raise (None: nobody did);
    ``board_key``: a player's exposed board, larger first (for ``best_board``).

    The last player to bet or raise on the final round shows first, whatever the option; the
    options only say who starts when nobody did: the last aggressor of an earlier round, or
    seat 1 if nobody bet (``last_aggressor``), seat order (``seat_order``), or the best board
    showing, the lower seat on a tie (``best_board``).

    >>> first_to_show([0, 2], [None, 2, None, None, None], ShowdownOrder.LAST_AGGRESSOR, len)
    2
    >>> first_to_show([0, 2], [None, 2, None, None, None], ShowdownOrder.SEAT_ORDER, len)
    0
    """
    final = aggressors[-1] if aggressors else None
    if final is not None and final in live:
        return final
    if order is ShowdownOrder.LAST_AGGRESSOR:
        aggressor = next((a for a in reversed(aggressors) if a is not None), None)
        if aggressor is not None and aggressor in live:
            return aggressor
    elif order is ShowdownOrder.BEST_BOARD:
        return max(live, key=lambda i: (board_key(i), -i))
    return live[0]


def contested_pots(pots: Sequence[Pot], mucked: Sequence[bool]) -> list[Pot]:
    """The pots as the showdown awards them: a mucked hand gives up its claim, but the pots
    stay as they were cut, each split on its own with its own odd chips. When every eligible
    hand mucked (only in a recorded history), the pot goes unnamed to its first eligible
    player, as before any hand is shown.

    >>> contested_pots([Pot(30, (0, 1, 2)), Pot(10, (1, 2))], [False, True, False])
    [Pot(amount=30, eligible=(0, 2)), Pot(amount=10, eligible=(2,))]
    """
    contested = []
    for pot in pots:
        contenders = tuple(i for i in pot.eligible if not mucked[i])
        contested.append(Pot(pot.amount, contenders or pot.eligible))
    return contested


def must_show(
    player: int,
    pots: Sequence[Pot],
    shown: Mapping[int, Shown],
    value: Callable[[], HandValue],
) -> bool:
    """Whether ``player``'s hand must be shown: it could win or tie some pot it is eligible
    for against the hands already ``shown``. ``value`` gives the player's hand value (asked
    only when a shown rival needs comparing)."""
    for pot in pots:
        if player not in pot.eligible:
            continue
        rivals = [shown[j].value for j in pot.eligible if j in shown]
        if not rivals:
            return True
        mine = value()
        for half in range(2):
            own = mine[half]
            if own is None:
                continue
            theirs = [other for v in rivals if (other := v[half]) is not None]
            if not theirs or own >= max(theirs):
                return True
    return False


def award_pots(
    pots: Sequence[Pot], shown: Mapping[int, Shown], rules: Rules, unit: int = 1
) -> list[Award]:
    """Every pot's awards. A pot whose contenders all showed goes to the best hand(s), named;
    otherwise (one contender left unshown) it goes unnamed to its first eligible player.
    Ties and hi/lo halves are shared in ``unit``, the smallest chip in play (docs/rules.md 8)."""
    awards: list[Award] = []
    for k, pot in enumerate(pots):
        if not all(i in shown for i in pot.eligible):
            awards.append(Award(k, pot.eligible[0], pot.amount, None, None))
            continue
        awards.extend(_split_pot(k, pot, shown, rules, unit))
    return awards


def _split_pot(
    k: int, pot: Pot, shown: Mapping[int, Shown], rules: Rules, unit: int
) -> list[Award]:
    lows = {i: low for i in pot.eligible if (low := shown[i].value[1]) is not None}
    if rules.variant is _RAZZ:
        return _share(k, pot.amount, lows, shown, None, low=True, unit=unit)
    highs = {i: high for i in pot.eligible if (high := shown[i].value[0]) is not None}
    if rules.variant is _STUD_8 and lows:
        high_half, low_half = halve(pot.amount, unit)
        return _share(k, high_half, highs, shown, "high", low=False, unit=unit) + _share(
            k, low_half, lows, shown, "low", low=True, unit=unit
        )
    half = "high" if rules.plays_low else None
    return _share(k, pot.amount, highs, shown, half, low=False, unit=unit)


def _share(
    k: int,
    amount: int,
    values: dict[int, int],
    shown: Mapping[int, Shown],
    half: str | None,
    *,
    low: bool,
    unit: int,
) -> list[Award]:
    best = max(values.values())
    winners = [i for i, v in values.items() if v == best]
    if amount % (len(winners) * unit):
        # Odd chips: to the tied player with the highest card by suit in the five cards
        # played (TDA 20-B).
        five = best_low_five if low else best_high_five
        winners.sort(key=lambda i: high_card_by_suit_key(five(shown[i].cards)), reverse=True)
    name = describe_low(best) if low else describe_high(best)
    return [
        Award(k, i, share, half, name)
        for i, share in zip(winners, split(amount, winners, unit), strict=True)
        if share
    ]
