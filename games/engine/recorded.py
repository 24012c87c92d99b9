"""A recorded history's hand: the rules of live play, and cards the history may not tell.

Real hand histories (PHH, see :mod:`games.engine.phh`) write ``??`` for a card nobody saw,
and tell the showdown in the order it happened. A :class:`RecordedHand` replays them with
the rules of :class:`~games.engine.state.HandState` and three differences, all here so that
live play never meets an unknown card:

* a card may be dealt as ``None``: the player holds a count of unknown cards, not a card;
* who brings in or acts first is open among the boards with an unknown card (the history
  says who did); a hand with an unknown card cannot be shown or valued;
* every player at the showdown may show or muck in any order, and a history that stops there
  is completed by :meth:`RecordedHand.finish_showdown`.

>>> from games.engine.rules import Rules, Stakes
>>> hand = RecordedHand(Rules(), Stakes(1, 2, 5, 10), [100, 100])
>>> for card in (None, None, None, None):
...     hand.deal(card)
>>> hand.deal(None)
>>> hand.cards_left()
47
>>> hand.players[0].cards_known
False
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from games.engine.cards import Card
from games.engine.events import Burn, Deal, Muck
from games.engine.rules import Rules, Stakes
from games.engine.state import DealSlot, HandState, IllegalAction, Phase, Player

__all__ = ["RecordedHand", "RecordedPlayer"]


class RecordedPlayer(Player):
    """A player of a recorded history: the cards it does not tell are counted, never held."""

    __slots__ = ("unknown_down", "unknown_up")

    def __init__(self, stack: int) -> None:
        super().__init__(stack)
        self.unknown_down = 0
        self.unknown_up = 0

    @property
    def cards_known(self) -> bool:
        return not self.unknown_down and not self.unknown_up

    @property
    def board_known(self) -> bool:
        return not self.unknown_up


class RecordedHand(HandState):
    """One hand of a recorded history (see the module's docstring)."""

    recorded: ClassVar[bool] = True
    player_type: ClassVar[type[Player]] = RecordedPlayer
    players: Sequence[RecordedPlayer]

    def __init__(self, rules: Rules, stakes: Stakes, stacks: Sequence[int]) -> None:
        self.unknown_dealt = 0  # read as soon as the first street's cards are counted
        self._community_unknown = False  # the community card was ``??``
        super().__init__(rules, stakes, stacks)

    def cards_left(self) -> int:
        return super().cards_left() - self.unknown_dealt

    def deal_from(self, deck: list[Card]) -> None:
        raise IllegalAction("a recorded history deals its cards one by one", "no_deal")

    def _deal_card(self, card: Card | None, slot: DealSlot) -> None:
        if card is not None:
            super()._deal_card(card, slot)
            return
        self._check_deck(slot)
        self._slots.pop()
        self.unknown_dealt += 1
        if slot.burn:
            self.log.append(Burn(None))
        elif slot.player is None:
            self._community_unknown = True
            self.log.append(Deal(None, None, up=True))
        else:
            p = self.players[slot.player]
            if slot.face_up:
                p.unknown_up += 1
            else:
                p.unknown_down += 1
            self.log.append(Deal(slot.player, None, slot.face_up))

    def _bring_in_candidates(self) -> tuple[int, ...]:
        """The lowest known up card, and every player whose up card is unknown."""
        unknown = [i for i, p in enumerate(self.players) if p.unknown_up]
        if not unknown:
            return super()._bring_in_candidates()
        known = [i for i, p in enumerate(self.players) if not p.unknown_up]
        lowest = [self._lowest_up_card(known)] if known else []
        return self._with_chips(sorted({*lowest, *unknown}))

    def _first_actor_candidates(self) -> tuple[int, ...]:
        """The best known board, and every board with an unknown card."""
        unknown = [i for i, p in enumerate(self.players) if not p.folded and p.unknown_up]
        if not unknown or self._first_again() is not None:
            return super()._first_actor_candidates()
        known = [i for i, p in enumerate(self.players) if not p.folded and not p.unknown_up]
        best = [self._best_board(known)] if known else []
        return self._with_chips(sorted({*best, *unknown}))

    def _known_cards(self, i: int) -> list[Card]:
        """Player ``i``'s cards, refused if any is unknown."""
        if not self.players[i].cards_known or self._community_unknown:
            raise IllegalAction(
                "player {player}'s cards are unknown and cannot be shown", "unknown", player=i + 1
            )
        return super()._known_cards(i)

    def _advance_showdown(self) -> None:
        """Every player still to show or muck may do so, in the order the history tells."""
        self.actor = None
        self.candidates = tuple(i for i in self.showdown_order if not self._decided(i))
        if not self.candidates or sum(p.live for p in self.players) == 1:
            self._finish()

    def _decided(self, i: int) -> bool:
        return self.players[i].shown or self.players[i].mucked

    def finish_showdown(self) -> None:
        """Complete a showdown that the history left open: every undecided hand that must be
        shown is shown (in the default order), the rest are mucked."""
        if self.phase is not Phase.SHOWDOWN:
            raise IllegalAction("the hand is not at showdown", "not_showdown")
        for i in self.showdown_order:
            if not self._decided(i):
                if self._must_show(i):
                    self._show(i)
                else:
                    self.players[i].mucked = True
                    self.log.append(Muck(i))
        self._finish()
