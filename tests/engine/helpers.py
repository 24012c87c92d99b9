"""Build hands with chosen cards for rule tests.

``stacked_hand`` starts a hand and deals each player the cards the test names, in the order
the engine asks for them (``state.next_deal``), so a test states only what matters:

>>> from games.engine.rules import Rules, Stakes
>>> hand = stacked_hand(Rules(), Stakes(0, 1, 4, 8), [50, 50], {0: "AsKd 2c 3c", 1: "QhQd 9s 9h"})
>>> hand.state.actor  # the 2c brings in
0
>>> hand.act("bring_in").act("call").state.street_name  # fourth street is dealt at once
'fourth'
>>> hand.state.actor  # the pair of nines acts first
1

Without ``fill=True`` a card the hand needs but the test did not stack raises
:class:`NoCardStacked`.

Each player's string lists their cards in dealing order: two down and one up on third street,
then fourth, fifth, sixth street (up) and seventh street (down). Spaces are only for reading.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.engine.cards import FULL_DECK, Card, parse_cards
from games.engine.rules import Rules, Stakes
from games.engine.state import DealSlot, HandState, Option

STAKES = Stakes(ante=1, bring_in=1, small_bet=4, big_bet=8)
"""The usual test stakes: ante 1, bring-in 1, 4/8 (complete to 4, raises 8, 12, 16)."""

NO_ANTE = Stakes(ante=0, bring_in=1, small_bet=4, big_bet=8)
"""As :data:`STAKES` without an ante, so that pot arithmetic stays small."""


class NoCardStacked(LookupError):
    """The hand needs a card the test did not stack (and ``fill`` is off)."""


@dataclass
class StackedHand:
    """A hand plus the cards still queued for it; every input deals what becomes due."""

    state: HandState
    queues: dict[int, list[Card]]
    community: list[Card] = field(default_factory=list)
    burns: list[Card] = field(default_factory=list)
    fill: bool = False

    def deal_pending(self) -> StackedHand:
        """Deal every card the hand needs now, each from its player's queue."""
        while (slot := self.state.next_deal) is not None:
            self.state.deal(self._card_for(slot))
        return self

    def act(self, action: str, to: int | None = None, *, player: int | None = None) -> StackedHand:
        """The player to act takes ``action`` (see ``HandState.act``); then deal what is due."""
        self.state.act(action, to, player=player)
        return self.deal_pending()

    def play(self, *actions: str | tuple[str, int]) -> StackedHand:
        """Several :meth:`act` calls: ``"call"`` or ``("raise", 8)`` each."""
        for action in actions:
            if isinstance(action, tuple):
                self.act(*action)
            else:
                self.act(action)
        return self

    def options(self) -> list[tuple[str, int]]:
        """The legal actions as ``(action, to)`` pairs, easy to compare in asserts."""
        return [(o.action, o.to) for o in self.state.legal_actions()]

    def option(self, action: str) -> list[Option]:
        """The legal options named ``action``."""
        return [o for o in self.state.legal_actions() if o.action == action]

    def stacks(self) -> list[int]:
        """Every player's stack, in seat order."""
        return [p.stack for p in self.state.players]

    def events(self, kind: str) -> list[dict[str, Any]]:
        """The log events of one type (``"award"``, ``"return"``, ...)."""
        return [e.to_dict() for e in self.state.log if e.type == kind]

    def _card_for(self, slot: DealSlot) -> Card:
        if slot.burn:
            queue, who = self.burns, "the burn"
        elif slot.player is None:
            queue, who = self.community, "the community card"
        else:
            queue, who = self.queues.setdefault(slot.player, []), f"player {slot.player}"
        if queue:
            return queue.pop(0)
        if self.fill:
            return self._spare_card()
        raise NoCardStacked(
            f"no card stacked for {who} on {self.state.street_name} street (its queue is empty)"
        )

    def _spare_card(self) -> Card:
        """The highest card neither dealt, burned nor queued for anyone (deterministic)."""
        taken = set(self.state.dealt) | set(self.state.burned) | set(self.community)
        taken |= set(self.burns)
        for queue in self.queues.values():
            taken |= set(queue)
        spare = [card for card in reversed(FULL_DECK) if card not in taken]
        if not spare:
            raise NoCardStacked("fill: every card is dealt, burned or queued")
        return spare[0]


def stacked_hand(
    rules: Rules | None = None,
    stakes: Stakes = STAKES,
    stacks: Sequence[int] = (100, 100),
    cards_by_player: Mapping[int, str] | None = None,
    *,
    community: str = "",
    burns: str = "",
    fill: bool = False,
) -> StackedHand:
    """Start a hand and deal third street from the given cards.

    ``cards_by_player`` maps a player index (0 = seat 1) to that player's cards in dealing
    order; ``community`` is the card dealt face up for all when the deck runs short, ``burns``
    the burn cards in order (only with ``Rules(burn_cards=True)``). With ``fill`` a card the
    test did not name comes from the unused cards, highest first; without it a missing card
    raises :class:`NoCardStacked`. Cards named twice are refused up front.
    """
    queues = {i: parse_cards(text) for i, text in (cards_by_player or {}).items()}
    # The community card may repeat a burn card: an empty deck deals it from the burns.
    named = [card for queue in queues.values() for card in queue] + parse_cards(burns)
    repeated = sorted({card for card in named if named.count(card) > 1})
    if repeated:
        raise ValueError(f"cards stacked twice: {repeated}")
    hand = StackedHand(
        state=HandState(rules or Rules(), stakes, list(stacks)),
        queues=queues,
        community=parse_cards(community),
        burns=parse_cards(burns),
        fill=fill,
    )
    return hand.deal_pending()


def snapshot(state: HandState) -> tuple[Any, ...]:
    """Everything an input could change, for "refused and nothing changed" asserts."""
    players = [
        (p.stack, list(p.down), list(p.up), p.street_bet, p.total_in, p.folded, p.shown, p.mucked)
        for p in state.players
    ]
    return (
        list(state.log),
        players,
        state.phase,
        state.actor,
        state.candidates,
        state.bet_level,
        state.bets_made,
        state.legal_actions(),
    )
