"""The hand state machine: antes, streets, betting, showdown and awards (docs/rules.md 2-9).

A :class:`HandState` is driven by three kinds of input, each recorded in its log:

* ``deal(card)``: the next card the hand needs (chance is an outside actor; the engine never
  shuffles), see :attr:`HandState.next_deal`;
* ``act(action, to)``: the decision of the player to act, one of :meth:`legal_actions`;
* ``show()`` / ``muck()`` at showdown, for a player who is not obliged to show.

Everything else (antes, street changes, uncalled bets, mandatory shows, pot awards) follows
from those inputs and is logged too, so ``replay(state.log)`` rebuilds an equal state.

A refused input raises :class:`IllegalAction` naming the rule and leaves the state unchanged.

>>> from games.engine.rules import Rules, Stakes
>>> hand = HandState(Rules(), Stakes(ante=1, bring_in=2, small_bet=5, big_bet=10), [100, 100])
>>> hand.next_deal
DealSlot(player=0, face_up=False, burn=False)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from enum import StrEnum
from functools import cache
from typing import ClassVar, Final, NamedTuple

from games.engine.actions import (
    AGGRESSIVE,
    BETTING,
    BY_NAME,
    SHOWDOWN,
    Action,
    Option,
    option,
)
from games.engine.betting import BettingRound, opening
from games.engine.boards import (
    bring_in_key,
    high_board_key,
    high_card_by_suit_key,
    low_board_key,
    low_card_by_suit_key,
)
from games.engine.cards import DECK_SIZE, Card
from games.engine.events import (
    DEALS,
    Burn,
    Deal,
    Event,
    Muck,
    Show,
    Showdown,
    StreetStart,
    UncalledReturn,
    ante,
    player_action,
)
from games.engine.pots import Pot, build_pots, uncalled_excess
from games.engine.refused import Param, Refused, refusal_template
from games.engine.rules import CAP, STREETS, BoardTie, Rules, Stakes
from games.engine.showdown import (
    HandValue,
    Shown,
    award_pots,
    contested_pots,
    first_to_show,
    hand_value,
    must_show,
    showdown_order,
)

__all__ = [
    "BETTING_ACTIONS",
    "SHOWDOWN_ACTIONS",
    "Action",
    "DealSlot",
    "HandState",
    "IllegalAction",
    "Option",
    "Phase",
    "Player",
]

BETTING_ACTIONS: Final = frozenset(action.value for action in BETTING)
"""The betting actions' names, as the API takes them."""
SHOWDOWN_ACTIONS: Final = frozenset(action.value for action in SHOWDOWN)
"""The showdown decisions' names, as the API takes them."""


class IllegalAction(Refused):
    """A decision (or deal) the rules do not allow at this point of the hand; the state is
    unchanged. A :class:`Refused` whose code defaults to ``illegal_action``.

    >>> str(IllegalAction("{action}: say how much, to {amounts}", action="bet", amounts=(2, 4)))
    'bet: say how much, to 2 or 4'
    """

    def __init__(self, template: str, code: str = "illegal_action", **params: Param) -> None:
        super().__init__(template, code, **params)


class Phase(StrEnum):
    """What the hand waits for."""

    DEAL = "deal"
    BRING_IN = "bring_in"
    BETTING = "betting"
    SHOWDOWN = "showdown"
    OVER = "over"


# Enum members as module constants: reading ``Phase.BETTING`` costs a class attribute lookup
# through the enum machinery (about 20 times a global's) on every decision.
_P_DEAL: Final = Phase.DEAL
_P_BRING_IN: Final = Phase.BRING_IN
_P_BETTING: Final = Phase.BETTING
_P_SHOWDOWN: Final = Phase.SHOWDOWN
_P_OVER: Final = Phase.OVER
_FOLD: Final = Action.FOLD
_CHECK: Final = Action.CHECK
_CALL: Final = Action.CALL
_BET: Final = Action.BET
_RAISE: Final = Action.RAISE
_BRING_IN: Final = Action.BRING_IN
_COMPLETE: Final = Action.COMPLETE
_SHOW: Final = Action.SHOW
_MUCK: Final = Action.MUCK


class DealSlot(NamedTuple):
    """The next card the hand needs: for ``player`` (None: the community card), face up or down,
    or a burn card."""

    player: int | None
    face_up: bool
    burn: bool = False


_PLAYER_SLOTS: Final = tuple(tuple(DealSlot(i, up) for i in range(8)) for up in (False, True))
"""``_PLAYER_SLOTS[face_up][player]``."""
_BURN: Final = DealSlot(None, face_up=False, burn=True)
_COMMUNITY: Final = DealSlot(None, face_up=True)
_STREET_STARTS: Final = tuple(StreetStart(street.name) for street in STREETS)
_OPENING_ROUNDS: Final = tuple(opening(street) for street in STREETS)
_SEATS_AFTER: Final = {
    n: tuple(tuple((last + step) % n for step in range(1, n + 1)) for last in range(n))
    for n in range(2, 9)
}
"""For each table size and player, every player clockwise after them, ending with them."""


@cache  # 3 kinds of street x 247 sets of live players at most
def _players_slots(faces: tuple[bool, ...], live: tuple[int, ...]) -> tuple[DealSlot, ...]:
    """A street's cards for the ``live`` players, round by round from seat 1, the first one
    last (the state takes them from the end)."""
    return tuple(reversed([_PLAYER_SLOTS[face_up][i] for face_up in faces for i in live]))


class Player:
    """One player's part of the hand. Index = position in seat order (0 = seat 1)."""

    __slots__ = (
        "down",
        "folded",
        "mucked",
        "shown",
        "stack",
        "starting_stack",
        "street_bet",
        "total_in",
        "up",
    )

    def __init__(self, stack: int) -> None:
        self.starting_stack = stack
        self.stack = stack
        self.down: list[Card] = []
        self.up: list[Card] = []
        self.street_bet = 0
        self.total_in = 0
        self.folded = False
        self.shown = False
        self.mucked = False

    @property
    def cards_known(self) -> bool:
        """Whether every card dealt to this player is known: always in live play (a recorded
        history may not tell some, see :mod:`games.engine.recorded`)."""
        return True

    @property
    def board_known(self) -> bool:
        """Whether every up card dealt to this player is known (always in live play)."""
        return True

    @property
    def live(self) -> bool:
        """Still contesting the pot (not folded, not mucked)."""
        return not self.folded and not self.mucked


class HandState:
    """One hand of stud from the antes to the last award, as it is played: every card is
    known to the engine (a recorded history that does not tell some is replayed by
    :class:`games.engine.recorded.RecordedHand`)."""

    recorded: ClassVar[bool] = False
    """Whether this is a recorded history's hand (its header says so, see ``replay``)."""
    player_type: ClassVar[type[Player]] = Player
    players: Sequence[Player]

    def __init__(self, rules: Rules, stakes: Stakes, stacks: Sequence[int]) -> None:
        """Start a hand: every player posts the ante, then the hand waits for third street.

        ``stacks`` are the players' chips in seat order (2 to 8 players).
        """
        if not 2 <= len(stacks) <= 8:
            raise IllegalAction(
                "a stud hand needs 2 to 8 players, not {count}", "players", count=len(stacks)
            )
        if any(not isinstance(s, int) or isinstance(s, bool) or s <= 0 for s in stacks):
            raise IllegalAction(
                "every player needs a whole, positive number of chips: {stacks}",
                "stacks",
                stacks=str(list(stacks)),
            )
        self.rules = rules
        self.stakes = stakes
        self._low_boards = rules.low_boards_lead  # read per player and street: kept at hand
        player_type = self.player_type
        self.players = [player_type(stack) for stack in stacks]
        self.live_count = len(self.players)  # players who have not folded
        self.log: list[Event] = []
        self.phase = _P_DEAL
        self.is_over = False  # once every pot has been awarded (an attribute: read often)
        self.street = -1
        self.community: Card | None = None
        self.dealt: list[Card] = []
        self.burned: list[Card] = []
        self._out: set[Card] = set()  # dealt or burned, for a fast duplicate check
        self._slots: list[DealSlot] = []  # the cards due now, the next one last
        self._seats_after = _SEATS_AFTER[len(self.players)]
        # the betting round: shared values, whose turn, and when each player last acted
        self.round: BettingRound = _OPENING_ROUNDS[0]
        self.actor: int | None = None
        self.candidates: tuple[int, ...] = ()
        self._acted: list[int] = []  # per player: round.bets when they last acted, -1: not yet
        self.aggressors: list[int | None] = []
        self.first_actors: list[int | None] = []
        # showdown
        self.showdown_order: list[int] = []
        self._showdown_pots: list[Pot] | None = None
        self._hand_values: dict[int, HandValue] = {}
        self._shown_hands: dict[int, Shown] = {}
        self._post_antes()
        self._start_street(0)

    def __eq__(self, other: object) -> bool:
        """Equal hands start alike and have equal logs (the log is the source of truth;
        everything else is derived from it). A hand changes, so it has no hash."""
        if not isinstance(other, HandState):
            return NotImplemented
        return (
            self.rules == other.rules
            and self.stakes == other.stakes
            and self.recorded == other.recorded
            and [p.starting_stack for p in self.players]
            == [p.starting_stack for p in other.players]
            and self.log == other.log
        )

    # ----------------------------------------------------------------- reading the state

    @property
    def next_deal(self) -> DealSlot | None:
        """The card the hand needs next, or None when it waits for a player (or is over)."""
        return self._slots[-1] if self._slots and self.phase is _P_DEAL else None

    @property
    def street_name(self) -> str:
        """``third`` .. ``seventh``."""
        return STREETS[max(self.street, 0)].name

    @property
    def unit(self) -> int:
        """The bet size of this street (small on third and fourth, big later)."""
        return self.round.unit(self.stakes)

    @property
    def bet_level(self) -> int:
        """The street total each player must match to stay in."""
        return self.round.level

    @property
    def bets_made(self) -> int:
        """Full bets and raises made on this street, for the cap (the bring-in is none)."""
        return self.round.bets

    @property
    def completed(self) -> bool:
        """Third street: whether the bring-in was completed."""
        return self.round.completed

    @property
    def open_pair(self) -> bool:
        """Fourth street: whether an open pair allows the big bet."""
        return self.round.open_pair

    @property
    def big_locked(self) -> bool:
        """Fourth street with an open pair: whether a big bet or raise was made."""
        return self.round.big_locked

    @property
    def pot_total(self) -> int:
        """All chips put in this hand and not yet awarded or returned."""
        return sum(p.total_in for p in self.players) if not self.is_over else 0

    def cards_left(self) -> int:
        """How many cards the deck still holds."""
        return DECK_SIZE - len(self._out)

    def board(self, player: int) -> list[Card]:
        """The player's up cards."""
        return self.players[player].up

    def hole_cards(self, player: int) -> list[Card]:
        """All seven (or fewer) cards the player plays: down, up and the community card."""
        p = self.players[player]
        return p.down + p.up + ([self.community] if self.community is not None else [])

    def pots(self) -> list[tuple[int, tuple[int, ...]]]:
        """The pots as ``(amount, eligible players)``, main pot first."""
        return [(pot.amount, pot.eligible) for pot in self._pots()]

    def pots_in_middle(self) -> list[tuple[int, tuple[int, ...]]]:
        """The pots as a table shows them, main pot first: what the closed betting rounds put
        in (antes included). The bets of the street being played stand in front of their
        players (``street_bet``) until the round closes, so a bet nobody has called yet is
        not a pot, and a side pot appears only once someone is all in for less. At the
        showdown they are :meth:`pots`.
        """
        if self._showdown_pots is not None:
            return self.pots()
        live = [not p.folded for p in self.players]
        closed = [p.total_in - p.street_bet for p in self.players]
        return [(pot.amount, pot.eligible) for pot in build_pots(closed, live)]

    def _pots(self) -> list[Pot]:
        if self._showdown_pots is not None:  # nobody puts in or folds at the showdown
            return self._showdown_pots
        live = [not p.folded for p in self.players]
        return build_pots(self._contributions(), live)

    def _contributions(self) -> list[int]:
        return [p.total_in for p in self.players]

    # ----------------------------------------------------------------- legal actions

    def legal_actions(self) -> list[Option]:
        """Exactly the decisions the player to act may take, with their exact amounts."""
        if self.phase is _P_SHOWDOWN:
            return [Option(_SHOW), Option(_MUCK)] if self.actor is not None else []
        if self.phase not in (_P_BRING_IN, _P_BETTING) or self.actor is None:
            return []
        return self._betting_options(self.actor)

    def _betting_options(self, i: int) -> list[Option]:
        p = self.players[i]
        reach = p.street_bet + p.stack  # the most this player can have in on this street
        stakes = self.stakes
        if self.phase is _P_BRING_IN:
            bring_in = min(stakes.bring_in, reach)
            options = [option(_BRING_IN, bring_in, bring_in - p.street_bet)]
            if reach > stakes.bring_in:
                complete = min(stakes.small_bet, reach)
                options.append(option(_COMPLETE, complete, complete - p.street_bet))
            return options
        options = self._passive_options(p)
        level = self.round.level
        if reach > level and self._may_raise(i) is None:
            name = self.round.raise_action()
            for to in self.round.raise_targets(stakes):
                total = min(to, reach)
                options.append(option(name, total, total - p.street_bet))
                if to >= reach:
                    break
        return options

    def _passive_options(self, p: Player) -> list[Option]:
        """Fold and call when facing a bet, else check."""
        level = self.round.level
        if level > p.street_bet:
            call_to = min(level, p.street_bet + p.stack)
            return [
                option(_FOLD, p.street_bet, 0),
                option(_CALL, call_to, call_to - p.street_bet),
            ]
        return [option(_CHECK, p.street_bet, 0)]

    def _may_raise(self, i: int) -> str | None:
        """None when player ``i`` may bet or raise now, else the template of the refusal
        naming the rule (``{action}``, ``{legal}`` and ``{raises}`` its placeholders)."""
        bets = self.round.bets
        if bets >= CAP and not (self.rules.uncap_heads_up and self.live_count == 2):
            return refusal_template(
                "{action} not allowed: raise cap reached: 1 bet and {raises} raises on this street "
                "(legal: {legal})"
            )
        if self._acted[i] >= bets:
            return refusal_template(
                "{action} not allowed: betting was not reopened: an all-in raise of less than "
                "half a bet does not reopen the betting for players who have already acted "
                "(TDA 47-B) (legal: {legal})"
            )
        level = self.round.level
        for j, q in enumerate(self.players):
            if j != i and not q.folded and q.street_bet + q.stack > level:
                return None
        return refusal_template(
            "{action} not allowed: nobody left could call a raise: the others are all in "
            "(legal: {legal})"
        )

    # ----------------------------------------------------------------- inputs

    def deal(self, card: Card | None) -> None:
        """Deal the card the hand needs next (see :attr:`next_deal`)."""
        slots = self._slots
        if self.phase is not _P_DEAL or not slots:
            raise IllegalAction("no card is due now: the hand waits for a player", "no_deal")
        self._deal_card(card, slots[-1])
        if not slots:
            self._after_dealing()

    def deal_from(self, deck: list[Card]) -> None:
        """Deal every card the hand needs now, from the top (end) of ``deck``.

        Eight players and burn cards can empty the deck before the community card: it then
        comes from the burned cards.
        """
        if not self._slots or self.phase is not _P_DEAL:
            return  # called before every decision: most of the time no card is due
        players, log, dealt, out = self.players, self.log, self.dealt, self._out
        while self._slots and self.phase is _P_DEAL:  # all in: street after street
            slots = self._slots
            while slots:
                slot = slots[-1]
                player = slot.player
                if player is None or slot.burn or not deck or deck[-1] in out:
                    # a burn or community card, a card out already, or no card left
                    if not deck and slot is _COMMUNITY and self.burned:
                        deck.append(self.burned[0])
                    self._deal_card(deck.pop(), slot)
                    continue
                # the common case, kept lean: a fresh card to a player
                card = deck.pop()
                slots.pop()
                dealt.append(card)
                out.add(card)
                p = players[player]
                (p.up if slot.face_up else p.down).append(card)
                log.append(DEALS[slot.face_up][player][card])
            self._after_dealing()

    def _deal_card(self, card: Card | None, slot: DealSlot) -> None:
        """Deal ``card`` to ``slot``, every rule checked: a fresh card, a burn card or the
        community card."""
        if card is None:
            raise IllegalAction("unknown cards are only allowed in recorded histories", "card")
        if card in self._out and (card not in self.burned or self.cards_left() > 0):
            raise IllegalAction("card dealt twice: {card}", "duplicate_card", card=repr(card))
        self._check_deck(slot)
        self._slots.pop()
        if slot.burn:
            self.burned.append(card)
            self._out.add(card)
        elif card in self._out:  # the community card from the burn cards of an empty deck
            self.burned.remove(card)
            self.dealt.append(card)
        else:
            self.dealt.append(card)
            self._out.add(card)
        if slot.burn:
            self.log.append(Burn(card))
        elif slot.player is None:
            self.community = card
            self.log.append(Deal(None, card, up=True))
        else:
            p = self.players[slot.player]
            (p.up if slot.face_up else p.down).append(card)
            self.log.append(Deal(slot.player, card, slot.face_up))

    def _check_deck(self, slot: DealSlot) -> None:
        """Refuse a card from an empty deck (the community card may come from the burns)."""
        if self.cards_left() <= 0 and not (slot.player is None and not slot.burn):
            raise IllegalAction("the deck is empty", "deck_empty")

    def act(
        self, action: Action | str, to: int | None = None, *, player: int | None = None
    ) -> Option:
        """Take a betting decision for the player to act; returns the option taken.

        ``action`` is an :class:`Action` or its name (``"call"``). ``to`` is the player's total
        on this street after the action; it may be left out when the action has only one legal
        amount. ``player``, when given, must be the player to act.
        """
        kind = action if isinstance(action, Action) else BY_NAME.get(action)
        i = self.actor
        if self.phase is _P_BETTING and i is not None and (player is None or player == i):
            # the fast path: the one player to act folds, checks, calls, bets or raises as
            # allowed (the full check below explains any refusal)
            if kind is _CALL or kind is _CHECK or kind is _FOLD:
                chosen = self._passive_option(i, kind, to)
            elif kind is _BET or kind is _RAISE or kind is _COMPLETE:
                chosen = self._aggressive_option(i, kind, to)
            else:
                chosen = None
            if chosen is not None:
                self._apply_option(i, chosen)
                return chosen
        if kind is None or kind in SHOWDOWN:
            if kind is None:
                raise IllegalAction(
                    "unknown action {action}: use one of {actions}",
                    "unknown_action",
                    action=repr(action),
                    actions=tuple(sorted(BETTING_ACTIONS)),
                )
            if to not in (None, 0):
                raise IllegalAction("{action} takes no amount", "wrong_amount", action=kind)
            self._showdown_decision(kind is _SHOW, player)
            return Option(kind)
        i = self._check_turn(player, betting=True)
        chosen = self._match_option(i, kind, to)
        self._apply_option(i, chosen)
        return chosen

    def _check_turn(self, player: int | None, *, betting: bool) -> int:
        if self.phase is _P_OVER:
            raise IllegalAction("the hand is over", "hand_over")
        if betting and self.phase not in (_P_BRING_IN, _P_BETTING):
            raise IllegalAction(
                "no betting now: the hand is at {phase}", "not_betting", phase=self.phase
            )
        if self.phase is _P_DEAL:
            raise IllegalAction("the hand is waiting for cards to be dealt", "dealing")
        if player is None:
            if self.actor is None:
                raise IllegalAction("name the player: several may act first here", "who")
            return self.actor
        if player not in self.candidates:
            raise IllegalAction(
                "it is not player {player}'s turn (player {actor} is to act)",
                "not_your_turn",
                player=player + 1,
                actor=self._actor_text(),
            )
        return player

    def _actor_text(self) -> str:
        return " or ".join(str(c + 1) for c in self.candidates) or "none"

    def _passive_option(self, i: int, action: Action, to: int | None) -> Option | None:
        """The fold, check or call of player ``i`` in the betting phase, if legal as asked."""
        p = self.players[i]
        bet = p.street_bet
        level = self.round.level
        if level > bet:
            if action is _CALL:
                call_to = min(level, bet + p.stack)
                if to is None or to == call_to:
                    return option(_CALL, call_to, call_to - bet)
            elif action is _FOLD and (to is None or to == bet):
                return option(_FOLD, bet, 0)
        elif action is _CHECK and (to is None or to == bet):
            return option(_CHECK, bet, 0)
        return None

    def _aggressive_option(self, i: int, action: Action, to: int | None) -> Option | None:
        """The bet, raise or completion of player ``i`` in the betting phase, if legal as
        asked with one amount (the same options as :meth:`_betting_options` gives)."""
        betting = self.round
        if action is not betting.raise_action():
            return None
        p = self.players[i]
        reach = p.street_bet + p.stack
        if reach <= betting.level or self._may_raise(i) is not None:
            return None
        totals: list[int] = []
        for target in betting.raise_targets(self.stakes):
            totals.append(min(target, reach))
            if target >= reach:
                break
        if to is None:
            to = totals[0] if len(totals) == 1 else None
        if to is None or to not in totals:
            return None
        return option(action, to, to - p.street_bet)

    def _match_option(self, i: int, action: Action, to: int | None) -> Option:
        options = self._betting_options(i)
        same = [o for o in options if o.action is action]
        if not same:
            raise self._why_not(i, action, options)
        amounts = tuple(o.to for o in same)
        if to is None:
            if len(same) > 1:
                raise IllegalAction(
                    "{action}: say how much, to {amounts}",
                    "amount_required",
                    action=action,
                    amounts=amounts,
                )
            return same[0]
        for candidate in same:
            if candidate.to == to:
                return candidate
        raise IllegalAction(
            "{action} to {to} is not a legal amount: fixed limit allows {action} to {amounts} "
            "(the amount is your total on this street)",
            "wrong_amount",
            action=action,
            to=to,
            amounts=amounts,
        )

    def _why_not(self, i: int, action: Action, options: list[Option]) -> IllegalAction:
        """The refusal of ``action`` by player ``i``, naming the rule."""
        legal = tuple(str(o.action) for o in options)
        level = self.round.level
        if self.phase is _P_BRING_IN:
            return IllegalAction(
                "{action} is not allowed: the bring-in must bring in or complete (legal: {legal})",
                action=action,
                legal=legal,
            )
        if action is _CHECK and level > self.players[i].street_bet:
            return IllegalAction(
                "cannot check facing a bet of {level} (legal: {legal})", level=level, legal=legal
            )
        if action in (_CALL, _FOLD) and level == self.players[i].street_bet:
            return IllegalAction(
                "nothing to {action}: there is no bet to face (legal: {legal})",
                action=action,
                legal=legal,
            )
        if action in AGGRESSIVE:
            if self.players[i].street_bet + self.players[i].stack <= level:
                return IllegalAction(
                    "{action} not allowed: not enough chips to raise (legal: {legal})",
                    action=action,
                    legal=legal,
                )
            reason = self._may_raise(i)
            if reason:
                return IllegalAction(reason, action=action, legal=legal, raises=CAP - 1)
            return IllegalAction(
                "{action} is not the name of this move: it is a {right} (legal: {legal})",
                action=action,
                right=self.round.raise_action(),
                legal=legal,
            )
        if action is _BRING_IN:
            return IllegalAction(
                "the bring-in is only posted first on third street (legal: {legal})", legal=legal
            )
        return IllegalAction(
            "{action} is not legal now (legal: {legal})", action=action, legal=legal
        )

    def _apply_option(self, i: int, chosen: Option) -> None:
        p = self.players[i]
        action, to, chips = chosen
        self.log.append(player_action(i, action, to))
        if action is _FOLD:
            p.folded = True
            self.live_count -= 1
        elif chips:
            p.stack -= chips
            p.street_bet += chips
            p.total_in += chips
        betting = self.round
        if action is _BRING_IN:
            betting = self.round = betting.brought_in(to, self.stakes)
        elif action is not _CALL and action is not _CHECK and action is not _FOLD:
            before = betting.bets
            betting = self.round = betting.raised_to(to, self.stakes)
            if betting.bets > before:
                self.aggressors[self.street] = i
        acted = self._acted
        acted[i] = betting.bets
        self.phase = _P_BETTING
        if self.live_count == 1:
            self._end_round()
            return
        # the next player clockwise who has chips and has not acted or must call
        players = self.players
        level = betting.level
        for j in self._seats_after[i]:
            q = players[j]
            if q.folded or q.stack == 0:
                continue
            if acted[j] < 0 or q.street_bet < level:
                self.actor = j
                self.candidates = (j,)
                return
        self._end_round()

    # ----------------------------------------------------------------- streets

    def _post_antes(self) -> None:
        for i, p in enumerate(self.players):
            amount = min(self.stakes.ante, p.stack)
            if amount:
                p.stack -= amount
                p.total_in += amount
                self.log.append(ante(i, amount))

    def _start_street(self, street: int) -> None:
        """A new street and its betting round: no bet, nobody has acted or is to act yet."""
        self.street = street
        self.aggressors.append(None)
        self.first_actors.append(None)
        self.log.append(_STREET_STARTS[street])
        for p in self.players:
            p.street_bet = 0
        self.round = _OPENING_ROUNDS[street]
        self.actor = None
        self.candidates = ()
        self._acted = [-1] * len(self.players)
        self.phase = _P_DEAL
        self._slots = self._street_slots()

    def _street_slots(self) -> list[DealSlot]:
        """The cards this street deals, the first one last (they are taken from the end)."""
        street = self.round.street
        live = tuple([i for i, p in enumerate(self.players) if not p.folded])
        left = self.cards_left()
        needed = len(live) * len(street.faces)
        burn = self.rules.burn_cards
        if street.last and needed > left - (1 if burn else 0):
            # Not enough cards for everyone: one community card, face up (docs/rules.md 5).
            return [_COMMUNITY, _BURN] if burn and left >= 2 else [_COMMUNITY]
        if burn and left > needed:
            return [_BURN, *_players_slots(street.faces, live)]
        return list(_players_slots(street.faces, live))

    def _after_dealing(self) -> None:
        street = self.round.street
        if street.bring_in:
            first = self._bring_in_candidates()
            self.phase = _P_BRING_IN
        else:
            if street.open_pair and self.rules.open_pair_double and self._open_pair_showing():
                self.round = self.round.with_open_pair()
            first = self._first_actor_candidates()
            self.phase = _P_BETTING
        if not self._two_can_bet():
            self._end_round()
            return
        self.candidates = first
        self.actor = first[0] if len(first) == 1 else None
        self.first_actors[self.street] = self.actor

    def _two_can_bet(self) -> bool:
        """Whether two players or more are in the hand with chips left to bet."""
        can = 0
        for p in self.players:
            if p.stack > 0 and not p.folded:
                if can:
                    return True
                can = 1
        return False

    def _open_pair_showing(self) -> bool:
        """Whether a live player's two up cards on fourth street are a pair."""
        for p in self.players:
            if not p.folded and p.board_known and p.up[0].rank == p.up[1].rank:
                return True
        return False

    def _bring_in_candidates(self) -> tuple[int, ...]:
        lowest = self._lowest_up_card(range(len(self.players)))
        return (lowest,) if self.players[lowest].stack > 0 else self._with_chips((lowest,))

    def _lowest_up_card(self, among: Iterable[int]) -> int:
        """Of the players ``among``, the one whose last up card brings in (docs/rules.md 3)."""
        players, razz = self.players, self._low_boards
        return min(among, key=lambda i: bring_in_key(players[i].up[-1], razz))

    def _first_actor_candidates(self) -> tuple[int, ...]:
        """Best board acts first; its all-in owner passes to the next player with chips."""
        if self.round.street.hidden:
            again = self._first_again()
            if again is not None:
                return (again,)
        first = self._best_board(range(len(self.players)))
        return (first,) if self.players[first].stack > 0 else self._with_chips((first,))

    def _first_again(self) -> int | None:
        """On a street whose card is dealt down the boards are as on the street before: the
        player who acted first there acts first again, unless they have since folded or gone
        all in."""
        if not self.round.street.hidden:
            return None
        before = self.first_actors[self.street - 1]
        if before is None or self.players[before].folded or self.players[before].stack == 0:
            return None
        return before

    def _best_board(self, among: Iterable[int]) -> int:
        """Of the players ``among`` (in seat order) who have not folded, the one whose board is
        best; equal boards go to the first in seat order, or by suit (option ``board_tie``)."""
        board_key = low_board_key if self._low_boards else high_board_key
        players = self.players
        leaders: list[int] = []  # the best boards, in seat order
        best: tuple[int, ...] = ()
        for i in among:
            p = players[i]
            if p.folded:
                continue
            key = board_key(p.up)
            if not leaders or key > best:
                best, leaders = key, [i]
            elif key == best:
                leaders.append(i)
        if len(leaders) > 1 and self.rules.board_tie is BoardTie.SUIT:
            return max(leaders, key=self._suit_tiebreak)
        return leaders[0]

    def _board_key(self, i: int) -> tuple[int, ...]:
        up = self.players[i].up
        return low_board_key(up) if self._low_boards else high_board_key(up)

    def _suit_tiebreak(self, i: int) -> tuple[int, int]:
        """TDA RP-10-D: of equal boards, the one with the high card by suit (razz: the one with
        the lowest card by suit, the mirror of the razz bring-in)."""
        up = self.players[i].up
        return low_card_by_suit_key(up) if self._low_boards else high_card_by_suit_key(up)

    def _with_chips(self, order: Iterable[int]) -> tuple[int, ...]:
        """Each candidate, or the next player clockwise with chips if it is all in."""
        result: list[int] = []
        for start in order:
            for j in (start, *self._seats_after[start]):
                if not self.players[j].folded and self.players[j].stack > 0:
                    if j not in result:
                        result.append(j)
                    break
        return tuple(result)

    def _end_round(self) -> None:
        self.actor = None
        self.candidates = ()
        self._return_uncalled()
        if self.live_count == 1:
            winner = next(i for i, p in enumerate(self.players) if not p.folded)
            self._award_all([Pot(sum(self._contributions()), (winner,))])
            return
        if not self.round.street.last:
            self._start_street(self.street + 1)
        else:
            self._start_showdown()

    def _return_uncalled(self) -> None:
        top, excess = uncalled_excess(self._contributions())
        if excess > 0:
            p = self.players[top]
            p.stack += excess
            p.total_in -= excess
            p.street_bet = max(0, p.street_bet - excess)
            self.log.append(UncalledReturn(top, excess))

    # ----------------------------------------------------------------- showdown

    def _start_showdown(self) -> None:
        self.phase = _P_SHOWDOWN
        self._showdown_pots = self._pots()
        self.showdown_order = self._showdown_order()
        self.log.append(Showdown(tuple(self.showdown_order)))
        self._advance_showdown()

    def _showdown_order(self) -> list[int]:
        live = [i for i, p in enumerate(self.players) if not p.folded]
        first = first_to_show(live, self.aggressors, self.rules.showdown_order, self._board_key)
        return showdown_order(first, live, len(self.players))

    def _advance_showdown(self) -> None:
        """Show every hand that must be shown, in order; stop at a player who may muck."""
        for i in self.showdown_order:
            p = self.players[i]
            if p.shown or p.mucked:
                continue
            if self._must_show(i):
                self._show(i)
                continue
            self.actor = i
            self.candidates = (i,)
            return
        self._finish()

    def _must_show(self, i: int) -> bool:
        """A hand is shown if it could win or tie some pot it is eligible for."""
        return must_show(i, self._pots(), self._shown_hands, lambda: self._values(i))

    def _known_cards(self, i: int) -> list[Card]:
        """Player ``i``'s cards, to value and show."""
        return self.hole_cards(i)

    def _values(self, i: int) -> HandValue:
        """(high value or None, qualifying low value or None) for the game played."""
        if i not in self._hand_values:  # the cards are all out by the showdown
            self._hand_values[i] = hand_value(self._known_cards(i), self.rules)
        return self._hand_values[i]

    def _show(self, i: int) -> None:
        p = self.players[i]
        value = self._values(i)  # refuses unknown cards before anything changes
        p.shown = True
        cards = tuple(self.hole_cards(i))
        self._shown_hands[i] = Shown(value, cards)
        self.log.append(Show(i, cards[: len(p.down)]))  # the down cards come first

    def _showdown_decision(self, show: bool, player: int | None) -> None:
        if self.phase is not _P_SHOWDOWN:
            raise IllegalAction(
                "{action} is only for the showdown", "not_showdown", action=_SHOW if show else _MUCK
            )
        i = self._check_turn(player, betting=False)
        p = self.players[i]
        if show:
            self._show(i)
        else:
            # Outside recorded histories only players who may muck are ever asked: hands
            # that must be shown were shown automatically.
            p.mucked = True
            self.log.append(Muck(i))
        self._advance_showdown()

    def _finish(self) -> None:
        """Award the pots at the showdown. The pots are cut from the amounts put in by every
        player who did not fold, whoever shows (docs/rules.md 6 and 8): a mucked hand gives up its
        claim but does not merge the pots it was all in for, so each is still split on its
        own, with its own odd chips."""
        self._award_all(contested_pots(self._pots(), [p.mucked for p in self.players]))

    def _award_all(self, pots: list[Pot]) -> None:
        """Pay every pot (see :func:`games.engine.showdown.award_pots`) and end the hand."""
        awards = award_pots(pots, self._shown_hands, self.rules, self.stakes.unit)
        for p in self.players:
            p.total_in = 0
        for award in awards:
            self.players[award.player].stack += award.amount
        self.log.extend(awards)
        self.phase = _P_OVER
        self.is_over = True
        self.actor = None
        self.candidates = ()
        self._slots = []
        self._showdown_pots = None
