"""Knockouts and bounties: pure integer functions (no Django).

Who knocked a player out: whoever won the busted player's **last chips**, i.e. the pot that
holds the top of what they put in (the highest side pot they contributed to). When that pot
was split (a tie, or high and low halves to different players), each distinct winner gets
an equal part of the knockout; a player who scooped both halves gets the whole of it.

Bounties (part of each buy-in, on the entry's head):

- ``fixed``: the busted entry's bounty is paid to its knockers, split equally in whole
  units, odd units one each to the knockers in the order the pot was awarded;
- ``progressive``: the busted entry's head (its bounty plus what it gained) is split the
  same way, and each knocker's share goes half to their pocket (the odd unit to the pocket)
  and half onto their own head. The winner of the tournament collects their own head.

Every unit of bounty paid in ends in exactly one pocket.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from games.engine.pots import split


def last_chip_pot(contributions: Sequence[int], live: Sequence[bool], player: int) -> int:
    """The index, in ``build_pots(contributions, live)``, of the pot holding the top of
    what ``player`` put in (the same cuts and merges as ``build_pots``).

    >>> last_chip_pot([50, 100, 100], [True, True, True], 0)
    0
    >>> last_chip_pot([50, 100, 100], [True, True, True], 1)
    1
    """
    mine = contributions[player]
    levels = sorted({c for c, alive in zip(contributions, live, strict=True) if alive and c > 0})
    index, floor = -1, 0
    previous: tuple[int, ...] | None = None  # the eligible players of the last pot cut
    for level in levels:
        amount = sum(min(c, level) - min(c, floor) for c in contributions)
        eligible = tuple(
            i
            for i, (c, alive) in enumerate(zip(contributions, live, strict=True))
            if alive and c >= level
        )
        if eligible != previous and amount:  # build_pots merges a layer with the same players
            index += 1
            previous = eligible
        if floor < mine <= level:
            return max(index, 0)
        floor = level
    return max(index, 0)  # above every live total: the leftover joins the last pot


def knockers(awards: Sequence[tuple[int, int]], pot: int, busted: int) -> list[int]:
    """The distinct players who won part of pot ``pot`` (``awards``: (pot, player) in the
    order paid), the busted player excluded."""
    found: list[int] = []
    for pot_index, player in awards:
        if pot_index == pot and player != busted and player not in found:
            found.append(player)
    return found


def knockout_shares(players: Sequence[object]) -> dict[object, Fraction]:
    """An equal part of one knockout for each player (1/2 each on a split pot)."""
    return {player: Fraction(1, len(players)) for player in players}


def bounty_payments(
    head: int, players: Sequence[object], *, progressive: bool
) -> dict[object, tuple[int, int]]:
    """Each knocker's ``(to the pocket, onto their head)`` for a busted ``head``; summing
    exactly to ``head``.

    >>> bounty_payments(25, ["ann", "bob"], progressive=False)
    {'ann': (13, 0), 'bob': (12, 0)}
    >>> bounty_payments(25, ["ann"], progressive=True)
    {'ann': (13, 12)}
    """
    shares = dict(zip(players, split(head, list(range(len(players)))), strict=True))
    if not progressive:
        return {player: (share, 0) for player, share in shares.items()}
    return {player: (share - share // 2, share // 2) for player, share in shares.items()}
