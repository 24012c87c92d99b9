"""The hand state machine: antes, streets, betting, showdown and awards (RULES.md 2-9).

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
from typing import Any, NamedTuple

from games.engine.boards import (
    bring_in_key,
    high_board_key,
    high_card_by_suit_key,
    low_board_key,
    low_card_by_suit_key,
)
from games.engine.cards import DECK_SIZE, FULL_DECK, Card
from games.engine.evaluation import (
    best_high_five,
    best_low_five,
    describe_high,
    describe_low,
    high_value,
    low8_value,
    low_value,
)
from games.engine.pots import build_pots, halve, split, uncalled_excess
from games.engine.rules import CAP, STREETS, BoardTie, Rules, ShowdownOrder, Stakes, Variant

Event = dict[str, Any]


class IllegalAction(ValueError):
    """An input the rules do not allow. The message names the rule; the state is unchanged."""

    def __init__(self, message: str, code: str = "illegal_action") -> None:
        super().__init__(message)
        self.code = code


class Phase(StrEnum):
    """What the hand waits for."""

    DEAL = "deal"
    BRING_IN = "bring_in"
    BETTING = "betting"
    SHOWDOWN = "showdown"
    OVER = "over"


BETTING_ACTIONS = frozenset({"fold", "check", "call", "bet", "raise", "bring_in", "complete"})
SHOWDOWN_ACTIONS = frozenset({"show", "muck"})
PASSIVE_ACTIONS = frozenset({"fold", "check", "call"})


class Option(NamedTuple):
    """One legal decision: the action, the player's street total after it, the chips it costs."""

    action: str
    to: int = 0
    chips: int = 0

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {"action": self.action, "to": self.to, "chips": self.chips}


class DealSlot(NamedTuple):
    """The next card the hand needs: for ``player`` (None: the community card), face up or down,
    or a burn card."""

    player: int | None
    face_up: bool
    burn: bool = False


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
        self.down: list[Card | None] = []
        self.up: list[Card | None] = []
        self.street_bet = 0
        self.total_in = 0
        self.folded = False
        self.shown = False
        self.mucked = False

    @property
    def live(self) -> bool:
        """Still contesting the pot (not folded, not mucked)."""
        return not self.folded and not self.mucked


class HandState:
    """One hand of stud from the antes to the last award."""

    # the betting round (see _reset_round)
    actor: int | None
    candidates: tuple[int, ...]
    bet_level: int
    bets_made: int
    big_locked: bool
    open_pair: bool
    completed: bool
    _reopen_seq: int
    _acted: dict[int, int]

    def __init__(
        self,
        rules: Rules,
        stakes: Stakes,
        stacks: Sequence[int],
        *,
        recorded: bool = False,
    ) -> None:
        """Start a hand: every player posts the ante, then the hand waits for third street.

        ``stacks`` are the players' chips in seat order (2 to 8 players). ``recorded`` is for
        importing real hand histories: cards may be unknown (``None``) and players show or muck
        in the order the history gives.
        """
        if not 2 <= len(stacks) <= 8:
            raise IllegalAction(f"a stud hand needs 2 to 8 players, not {len(stacks)}", "players")
        if any(not isinstance(s, int) or isinstance(s, bool) or s <= 0 for s in stacks):
            raise IllegalAction(
                f"every player needs a whole, positive number of chips: {list(stacks)}", "stacks"
            )
        self.rules = rules
        self.stakes = stakes
        self.recorded = recorded
        self.players = [Player(stack) for stack in stacks]
        self.live_count = len(self.players)  # players who have not folded
        self.log: list[Event] = []
        self.phase = Phase.DEAL
        self.street = -1
        self.community: Card | None = None
        self.dealt: list[Card] = []
        self.burned: list[Card] = []
        self.unknown_dealt = 0
        self._out: set[Card] = set()  # dealt or burned, for a fast duplicate check
        self._slots: list[DealSlot] = []
        self._reset_round()
        self.aggressors: list[int | None] = []
        self.first_actors: list[int | None] = []
        # showdown
        self.showdown_order: list[int] = []
        self._hand_values: dict[int, tuple[int | None, int | None]] = {}
        self._post_antes()
        self._start_street(0)

    def __eq__(self, other: object) -> bool:
        """Equal hands start alike and have equal logs (the log is the source of truth;
        everything else is derived from it)."""
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

    __hash__ = None  # type: ignore[assignment]

    # ----------------------------------------------------------------- reading the state

    @property
    def is_over(self) -> bool:
        """True once every pot has been awarded."""
        return self.phase is Phase.OVER

    @property
    def next_deal(self) -> DealSlot | None:
        """The card the hand needs next, or None when it waits for a player (or is over)."""
        return self._slots[0] if self.phase is Phase.DEAL and self._slots else None

    @property
    def street_name(self) -> str:
        """``third`` .. ``seventh``."""
        return STREETS[max(self.street, 0)].name

    @property
    def unit(self) -> int:
        """The bet size of this street (small on third and fourth, big later)."""
        return self.stakes.big_bet if STREETS[self.street].big else self.stakes.small_bet

    @property
    def pot_total(self) -> int:
        """All chips put in this hand and not yet awarded or returned."""
        return sum(p.total_in for p in self.players) if not self.is_over else 0

    def cards_left(self) -> int:
        """How many cards the deck still holds."""
        return DECK_SIZE - len(self._out) - self.unknown_dealt

    def board(self, player: int) -> list[Card | None]:
        """The player's up cards."""
        return self.players[player].up

    def hole_cards(self, player: int) -> list[Card | None]:
        """All seven (or fewer) cards the player plays: down, up and the community card."""
        p = self.players[player]
        return p.down + p.up + ([self.community] if self.community is not None else [])

    def pots(self) -> list[tuple[int, tuple[int, ...]]]:
        """The pots as ``(amount, eligible players)``, main pot first."""
        live = [not p.folded for p in self.players]
        return [(pot.amount, pot.eligible) for pot in build_pots(self._contributions(), live)]

    def _contributions(self) -> list[int]:
        return [p.total_in for p in self.players]

    # ----------------------------------------------------------------- legal actions

    def legal_actions(self) -> list[Option]:
        """Exactly the decisions the player to act may take, with their exact amounts."""
        if self.phase is Phase.SHOWDOWN:
            return [Option("show"), Option("muck")] if self.actor is not None else []
        if self.phase not in (Phase.BRING_IN, Phase.BETTING) or self.actor is None:
            return []
        return self._betting_options(self.actor)

    def _betting_options(self, i: int) -> list[Option]:
        p = self.players[i]
        reach = p.street_bet + p.stack  # the most this player can have in on this street
        if self.phase is Phase.BRING_IN:
            options = [Option("bring_in", min(self.stakes.bring_in, reach))]
            if reach > self.stakes.bring_in:
                options.append(Option("complete", min(self.stakes.small_bet, reach)))
            return [Option(o.action, o.to, o.to - p.street_bet) for o in options]
        options = self._passive_options(p)
        if reach > self.bet_level and self._may_raise(i) is None:
            for to in self._raise_targets():
                options.append(
                    Option(self._raise_name(), min(to, reach), min(to, reach) - p.street_bet)
                )
                if to >= reach:
                    break
        return options

    def _passive_options(self, p: Player) -> list[Option]:
        """Fold and call when facing a bet, else check."""
        if self.bet_level > p.street_bet:
            call_to = min(self.bet_level, p.street_bet + p.stack)
            return [
                Option("fold", p.street_bet, 0),
                Option("call", call_to, call_to - p.street_bet),
            ]
        return [Option("check", p.street_bet, 0)]

    def _raise_name(self) -> str:
        if self.street == 0 and not self.completed:
            return "complete"
        return "raise" if self.bet_level > 0 else "bet"

    def _raise_targets(self) -> list[int]:
        """The street totals a bet, raise or completion may go to, smallest first."""
        if self.street == 0 and not self.completed:
            return [self.stakes.small_bet]
        if self.open_pair and not self.big_locked:
            return [self.bet_level + self.stakes.small_bet, self.bet_level + self.stakes.big_bet]
        return [self.bet_level + self._raise_unit()]

    def _raise_unit(self) -> int:
        """The size of a full bet or raise now: the street's bet, or on fourth street with an
        open pair the big bet once a big bet or raise was made (RULES.md 4.6)."""
        if self.open_pair:
            return self.stakes.big_bet if self.big_locked else self.stakes.small_bet
        return self.unit

    def _may_raise(self, i: int) -> str | None:
        """None when player ``i`` may bet or raise now, else the reason (a rule's name)."""
        if self._capped():
            return (
                f"raise cap reached: 1 bet and {CAP - 1} raises on this street"
                if self.bets_made >= CAP
                else "raise cap reached"
            )
        if i in self._acted and self._acted[i] >= self._reopen_seq:
            return (
                "betting was not reopened: an all-in raise of less than half a bet does not "
                "reopen the betting for players who have already acted (TDA 47-B)"
            )
        if not any(
            not q.folded and q.street_bet + q.stack > self.bet_level
            for j, q in enumerate(self.players)
            if j != i
        ):
            return "nobody left could call a raise: the others are all in"
        return None

    def _capped(self) -> bool:
        if self.rules.uncap_heads_up and sum(not p.folded for p in self.players) == 2:
            return False
        return self.bets_made >= CAP

    # ----------------------------------------------------------------- inputs

    def deal(self, card: Card | None) -> None:
        """Deal the card the hand needs next (see :attr:`next_deal`)."""
        slots = self._slots
        if self.phase is not Phase.DEAL or not slots:
            raise IllegalAction("no card is due now: the hand waits for a player", "no_deal")
        slot = slots[0]
        player = slot.player
        if card is None or card in self._out or slot.burn or player is None:
            self._deal_special(card, slot)
        else:  # the common case, kept lean: a fresh card to a player
            if len(self._out) + self.unknown_dealt >= DECK_SIZE:
                raise IllegalAction("the deck is empty", "deck_empty")
            del slots[0]
            self.dealt.append(card)
            self._out.add(card)
            p = self.players[player]
            (p.up if slot.face_up else p.down).append(card)
            self.log.append(
                {"type": "deal", "player": player, "card": _CARD_TEXT[card], "up": slot.face_up}
            )
        if not slots:
            self._after_dealing()

    def _deal_special(self, card: Card | None, slot: DealSlot) -> None:
        """Deal an unknown card (recorded histories), a burn card or the community card."""
        if card is None:
            if not self.recorded:
                raise IllegalAction("unknown cards are only allowed in recorded histories", "card")
        elif card in self._out and (card not in self.burned or self.cards_left() > 0):
            raise IllegalAction(f"card dealt twice: {card!r}", "duplicate_card")
        if self.cards_left() <= 0 and not (slot.player is None and not slot.burn):
            raise IllegalAction("the deck is empty", "deck_empty")
        del self._slots[0]
        if card is None:
            self.unknown_dealt += 1
        elif slot.burn:
            self.burned.append(card)
            self._out.add(card)
        elif card in self._out:  # the community card from the burn cards of an empty deck
            self.burned.remove(card)
            self.dealt.append(card)
        else:
            self.dealt.append(card)
            self._out.add(card)
        if slot.burn:
            self.log.append({"type": "burn", "card": _text(card)})
        elif slot.player is None:
            self.community = card
            self.log.append({"type": "deal", "player": None, "card": _text(card), "up": True})
        else:
            p = self.players[slot.player]
            (p.up if slot.face_up else p.down).append(card)
            self.log.append(
                {"type": "deal", "player": slot.player, "card": _text(card), "up": slot.face_up}
            )

    def act(self, action: str, to: int | None = None, *, player: int | None = None) -> Option:
        """Take a betting decision for the player to act; returns the option taken.

        ``to`` is the player's total on this street after the action; it may be left out when
        the action has only one legal amount. ``player``, when given, must be the player to act.
        """
        if action in SHOWDOWN_ACTIONS:
            if to not in (None, 0):
                raise IllegalAction(f"{action} takes no amount", "wrong_amount")
            self._showdown_decision(action == "show", player)
            return Option(action)
        if action not in BETTING_ACTIONS:
            raise IllegalAction(
                f"unknown action {action!r}: use one of {', '.join(sorted(BETTING_ACTIONS))}",
                "unknown_action",
            )
        i = self._check_turn(player, betting=True)
        chosen = self._match_option(i, action, to)
        self._apply_option(i, chosen)
        return chosen

    def _check_turn(self, player: int | None, *, betting: bool) -> int:
        if self.phase is Phase.OVER:
            raise IllegalAction("the hand is over", "hand_over")
        if betting and self.phase not in (Phase.BRING_IN, Phase.BETTING):
            raise IllegalAction(f"no betting now: the hand is at {self.phase}", "not_betting")
        if self.phase is Phase.DEAL:
            raise IllegalAction("the hand is waiting for cards to be dealt", "dealing")
        if player is None:
            if self.actor is None:
                raise IllegalAction("name the player: several may act first here", "who")
            return self.actor
        if player not in self.candidates:
            raise IllegalAction(
                f"it is not player {player + 1}'s turn (player {self._actor_text()} is to act)",
                "not_your_turn",
            )
        return player

    def _actor_text(self) -> str:
        return " or ".join(str(c + 1) for c in self.candidates) or "none"

    def _match_option(self, i: int, action: str, to: int | None) -> Option:
        if action in PASSIVE_ACTIONS and self.phase is Phase.BETTING:
            # the fast path: most decisions are folds, checks and calls
            for option in self._passive_options(self.players[i]):
                if option.action == action and (to is None or to == option.to):
                    return option
        options = self._betting_options(i)
        same = [o for o in options if o.action == action]
        if not same:
            raise IllegalAction(self._why_not(i, action, options), "illegal_action")
        if to is None:
            if len(same) > 1:
                amounts = " or ".join(str(o.to) for o in same)
                raise IllegalAction(f"{action}: say how much, to {amounts}", "amount_required")
            return same[0]
        for option in same:
            if option.to == to:
                return option
        amounts = " or ".join(str(o.to) for o in same)
        raise IllegalAction(
            f"{action} to {to} is not a legal amount: fixed limit allows {action} to {amounts} "
            "(the amount is your total on this street)",
            "wrong_amount",
        )

    def _why_not(self, i: int, action: str, options: list[Option]) -> str:
        legal = ", ".join(o.action for o in options)
        if self.phase is Phase.BRING_IN:
            return (
                f"{action} is not allowed: the bring-in must bring in or complete (legal: {legal})"
            )
        if action == "check" and self.bet_level > self.players[i].street_bet:
            return f"cannot check facing a bet of {self.bet_level} (legal: {legal})"
        if action in ("call", "fold") and self.bet_level == self.players[i].street_bet:
            return f"nothing to {action}: there is no bet to face (legal: {legal})"
        if action in ("bet", "raise", "complete"):
            reason = self._may_raise(i)
            if self.players[i].street_bet + self.players[i].stack <= self.bet_level:
                reason = "not enough chips to raise"
            if reason:
                return f"{action} not allowed: {reason} (legal: {legal})"
            right = self._raise_name()
            return f"{action} is not the name of this move: it is a {right} (legal: {legal})"
        if action == "bring_in":
            return f"the bring-in is only posted first on third street (legal: {legal})"
        return f"{action} is not legal now (legal: {legal})"

    def _apply_option(self, i: int, option: Option) -> None:
        p = self.players[i]
        self.log.append({"type": "action", "player": i, "action": option.action, "to": option.to})
        self.candidates = (i,)
        if option.action == "fold":
            p.folded = True
            self.live_count -= 1
        elif option.chips:
            p.stack -= option.chips
            p.street_bet += option.chips
            p.total_in += option.chips
        if option.action == "bring_in":
            # A short all-in bring-in still sets the level the others must call (like a short
            # all-in blind): calling means the full bring-in.
            self.bet_level = max(option.to, self.stakes.bring_in)
        elif option.action in ("bet", "raise", "complete"):
            self._raise_to(i, option.to)
        self._acted[i] = self._reopen_seq
        self.phase = Phase.BETTING
        self._next_actor(i)

    def _raise_to(self, i: int, to: int) -> None:
        increment = to - self.bet_level
        if self.street == 0 and not self.completed:
            full = self.stakes.small_bet - self.bet_level
            # A short all-in completion of at least half counts as the completion.
            self.completed = 2 * increment >= full
        else:
            full = self._raise_unit()
            if self.open_pair and increment >= self.stakes.big_bet:
                self.big_locked = True
        self.bet_level = to
        if 2 * increment >= full:  # a full bet, or an all-in of at least half of one (TDA 47-B)
            self.bets_made += 1
            self._reopen_seq += 1
            self.aggressors[self.street] = i

    def _next_actor(self, last: int) -> None:
        if self.live_count == 1:
            self._end_round()
            return
        n = len(self.players)
        for step in range(1, n + 1):
            j = (last + step) % n
            q = self.players[j]
            if q.folded or q.stack == 0:
                continue
            if j not in self._acted or q.street_bet < self.bet_level:
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
                self.log.append({"type": "ante", "player": i, "amount": amount})

    def _start_street(self, street: int) -> None:
        self.street = street
        self.aggressors.append(None)
        self.first_actors.append(None)
        self.log.append({"type": "street", "street": STREETS[street].name})
        for p in self.players:
            p.street_bet = 0
        self._reset_round()
        self.phase = Phase.DEAL
        self._slots = self._street_slots(street)

    def _reset_round(self) -> None:
        """A new betting round: no bet, nobody has acted, nobody is to act yet."""
        self.actor = None
        self.candidates = ()
        self.bet_level = 0
        self.bets_made = 0  # full bets and raises, for the cap (the bring-in is not one)
        self.big_locked = False  # fourth-street open pair: a big bet or raise was made
        self.open_pair = False
        self.completed = False  # third street: the bring-in was completed
        self._reopen_seq = 0  # counts full bets and raises (TDA 47-B reopening)
        self._acted = {}  # player -> _reopen_seq when they last acted

    def _street_slots(self, street: int) -> list[DealSlot]:
        live = [i for i, p in enumerate(self.players) if not p.folded]
        slots: list[DealSlot] = []
        left = self.cards_left()
        needed = len(live) * len(STREETS[street].faces)
        if needed > left - (1 if self.rules.burn_cards else 0) and street == len(STREETS) - 1:
            # Not enough cards for everyone: one community card, face up (RULES.md 5).
            if self.rules.burn_cards and left >= 2:
                slots.append(DealSlot(None, face_up=False, burn=True))
            slots.append(DealSlot(None, face_up=True))
            return slots
        if self.rules.burn_cards and left > needed:
            slots.append(DealSlot(None, face_up=False, burn=True))
        for face_up in STREETS[street].faces:
            slots.extend(DealSlot(i, face_up) for i in live)
        return slots

    def _after_dealing(self) -> None:
        able = [i for i, p in enumerate(self.players) if not p.folded and p.stack > 0]
        if self.street == 0:
            self.open_pair = False
            first = self._bring_in_candidates()
            self.phase = Phase.BRING_IN
        else:
            self.open_pair = (
                self.street == 1 and self.rules.open_pair_double and self._open_pair_showing()
            )
            first = self._first_actor_candidates()
            self.phase = Phase.BETTING
        if len(able) < 2:
            self._end_round()
            return
        self.candidates = first
        self.actor = first[0] if len(first) == 1 else None
        self.first_actors[self.street] = self.actor

    def _open_pair_showing(self) -> bool:
        """Whether a live player's two up cards on fourth street are a pair."""
        return any(
            not p.folded and None not in p.up[:2] and p.up[0].rank == p.up[1].rank  # type: ignore[union-attr]
            for p in self.players
        )

    def _bring_in_candidates(self) -> tuple[int, ...]:
        razz = self.rules.low_boards_lead
        unknown = [i for i, p in enumerate(self.players) if p.up[-1] is None]
        known = [i for i, p in enumerate(self.players) if p.up[-1] is not None]
        lowest = min(known, key=lambda i: bring_in_key(self.players[i].up[-1], razz))  # type: ignore[arg-type]
        return self._with_chips(sorted({lowest, *unknown}))

    def _first_actor_candidates(self) -> tuple[int, ...]:
        """Best board acts first; its all-in owner passes to the next player with chips."""
        if self.street == len(STREETS) - 1 and self.first_actors[self.street - 1] is not None:
            # The seventh card is hidden, so the boards are as on sixth street; the player who
            # acted first there acts first again, unless they have since folded or gone all in.
            sixth = self.first_actors[self.street - 1]
            assert sixth is not None
            if not self.players[sixth].folded and self.players[sixth].stack > 0:
                return (sixth,)
        live = [i for i, p in enumerate(self.players) if not p.folded]
        unknown = [i for i in live if None in self.players[i].up]
        known = [i for i in live if i not in unknown]
        if not known:
            return self._with_chips(unknown)
        keys = {i: self._board_key(i) for i in known}
        best = max(keys.values())
        leaders = [i for i in known if keys[i] == best]
        if len(leaders) > 1 and self.rules.board_tie is BoardTie.SUIT:
            leaders = [max(leaders, key=lambda i: self._suit_tiebreak(i))]
        return self._with_chips(sorted({leaders[0], *unknown}))

    def _board_key(self, i: int) -> tuple[int, ...]:
        up = self.players[i].up
        return low_board_key(up) if self.rules.low_boards_lead else high_board_key(up)  # type: ignore[arg-type]

    def _suit_tiebreak(self, i: int) -> tuple[int, int]:
        """TDA RP-10-D: of equal boards, the one with the high card by suit (razz: the one with
        the lowest card by suit, the mirror of the razz bring-in)."""
        up: list[Card] = self.players[i].up  # type: ignore[assignment]
        return low_card_by_suit_key(up) if self.rules.low_boards_lead else high_card_by_suit_key(up)

    def _with_chips(self, order: Iterable[int]) -> tuple[int, ...]:
        """Each candidate, or the next player clockwise with chips if it is all in."""
        n = len(self.players)
        result: list[int] = []
        for start in order:
            for step in range(n):
                j = (start + step) % n
                if not self.players[j].folded and self.players[j].stack > 0:
                    if j not in result:
                        result.append(j)
                    break
        return tuple(result)

    def _end_round(self) -> None:
        self.actor = None
        self.candidates = ()
        self._return_uncalled()
        live = [i for i, p in enumerate(self.players) if not p.folded]
        if len(live) == 1:
            self._award_all([(sum(self._contributions()), (live[0],))], shown=False)
            return
        if self.street < len(STREETS) - 1:
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
            self.log.append({"type": "return", "player": top, "amount": excess})

    # ----------------------------------------------------------------- showdown

    def _start_showdown(self) -> None:
        self.phase = Phase.SHOWDOWN
        self.showdown_order = self._showdown_order()
        self.log.append({"type": "showdown", "order": list(self.showdown_order)})
        if self.recorded:
            self.actor = None
            self.candidates = tuple(self.showdown_order)
            return
        self._advance_showdown()

    def _showdown_order(self) -> list[int]:
        live = [i for i, p in enumerate(self.players) if not p.folded]
        first = live[0]
        order = self.rules.showdown_order
        final_round_aggressor = self.aggressors[-1]
        if final_round_aggressor is not None and not self.players[final_round_aggressor].folded:
            # The last player to bet or raise on the final round shows first, whatever the
            # option; the options only say who starts when nobody bet on it.
            first = final_round_aggressor
        elif order is ShowdownOrder.LAST_AGGRESSOR:
            aggressor = next((a for a in reversed(self.aggressors) if a is not None), None)
            if aggressor is not None and not self.players[aggressor].folded:
                first = aggressor
        elif order is ShowdownOrder.BEST_BOARD:
            first = max(live, key=lambda i: (self._board_key(i), -i))
        n = len(self.players)
        return [j for j in ((first + s) % n for s in range(n)) if j in live]

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
        shown = [j for j, q in enumerate(self.players) if q.shown]
        for _amount, eligible in self.pots():
            if i not in eligible:
                continue
            rivals = [j for j in eligible if j in shown]
            if not rivals:
                return True
            mine = self._values(i)
            for half in range(2):
                value = mine[half]
                if value is None:
                    continue
                theirs = [v for j in rivals if (v := self._values(j)[half]) is not None]
                if not theirs or value >= max(theirs):
                    return True
        return False

    def _values(self, i: int) -> tuple[int | None, int | None]:
        """(high value or None, qualifying low value or None) for the game played."""
        if i in self._hand_values:
            return self._hand_values[i]
        cards = self.hole_cards(i)
        if None in cards:
            raise IllegalAction(
                f"player {i + 1}'s cards are unknown and cannot be shown", "unknown"
            )
        known: list[Card] = cards  # type: ignore[assignment]
        high = high_value(known) if self.rules.plays_high else None
        if self.rules.variant is Variant.RAZZ:
            low: int | None = low_value(known)
        elif self.rules.variant is Variant.STUD_8:
            low = low8_value(known, self.rules.low_qualifier)
        else:
            low = None
        self._hand_values[i] = (high, low)  # the cards are all out by the showdown
        return high, low

    def _show(self, i: int) -> None:
        p = self.players[i]
        self._values(i)  # refuse unknown cards before changing anything
        p.shown = True
        self.log.append({"type": "show", "player": i, "cards": [_text(c) for c in p.down]})

    def _showdown_decision(self, show: bool, player: int | None) -> None:
        if self.phase is not Phase.SHOWDOWN:
            raise IllegalAction(
                f"{'show' if show else 'muck'} is only for the showdown", "not_showdown"
            )
        i = self._check_turn(player, betting=False)
        p = self.players[i]
        if show:
            self._show(i)
        else:
            # Outside recorded histories only players who may muck are ever asked: hands
            # that must be shown were shown automatically.
            p.mucked = True
            self.log.append({"type": "muck", "player": i})
        if self.recorded:
            self.candidates = tuple(j for j in self.showdown_order if not self._decided(j))
            if not self.candidates or sum(q.live for q in self.players) == 1:
                self._finish()
            return
        self._advance_showdown()

    def _decided(self, i: int) -> bool:
        return self.players[i].shown or self.players[i].mucked

    def finish_showdown(self) -> None:
        """Complete a recorded showdown that the history left open: every undecided hand
        that must be shown is shown (in the default order), the rest are mucked."""
        if self.phase is not Phase.SHOWDOWN:
            raise IllegalAction("the hand is not at showdown", "not_showdown")
        for i in self.showdown_order:
            if not self._decided(i):
                if self._must_show(i):
                    self._show(i)
                else:
                    self.players[i].mucked = True
                    self.log.append({"type": "muck", "player": i})
        self._finish()

    def _finish(self) -> None:
        """Award the pots at the showdown. The pots are cut from the amounts put in by every
        player who did not fold, whoever shows (RULES.md 6 and 8): a mucked hand gives up its
        claim but does not merge the pots it was all in for, so each is still split on its
        own, with its own odd chips."""
        pots = []
        for amount, eligible in self.pots():
            contenders = tuple(i for i in eligible if not self.players[i].mucked)
            # Every live hand mucking is possible only in a recorded history: the pot then goes
            # unnamed to its first eligible player, as before any hand is shown.
            pots.append((amount, contenders or eligible))
        self._award_all(pots, shown=True)

    def _award_all(self, pots: list[tuple[int, tuple[int, ...]]], *, shown: bool) -> None:
        """Pay every pot. At a showdown each pot goes to its best shown hand(s) with the hand
        announced; a pot whose only contender never showed (the rest folded or mucked) is
        paid without a name."""
        awards: list[tuple[int, int, str | None, str | None, int]] = []
        for k, (amount, eligible) in enumerate(pots):
            if not shown or not all(self.players[i].shown for i in eligible):
                awards.append((eligible[0], amount, None, None, k))
                continue
            awards.extend((*award, k) for award in self._split_pot(amount, eligible))
        for p in self.players:
            p.total_in = 0
        for player, amount, half, hand, k in awards:
            self.players[player].stack += amount
            self.log.append(
                {
                    "type": "award",
                    "pot": k,
                    "player": player,
                    "amount": amount,
                    "half": half,
                    "hand": hand,
                }
            )
        self.phase = Phase.OVER
        self.actor = None
        self.candidates = ()
        self._slots = []

    def _split_pot(
        self, amount: int, eligible: tuple[int, ...]
    ) -> list[tuple[int, int, str | None, str | None]]:
        values = {i: self._values(i) for i in eligible}
        lows = {i: v[1] for i, v in values.items() if v[1] is not None}
        if self.rules.variant is Variant.RAZZ:
            return self._share(amount, lows, None, low=True)
        highs = {i: v[0] for i, v in values.items() if v[0] is not None}
        if self.rules.variant is Variant.STUD_8 and lows:
            high_half, low_half = halve(amount)
            return self._share(high_half, highs, "high", low=False) + self._share(
                low_half, lows, "low", low=True
            )
        return self._share(amount, highs, "high" if self.rules.plays_low else None, low=False)

    def _share(
        self, amount: int, values: dict[int, int], half: str | None, *, low: bool
    ) -> list[tuple[int, int, str | None, str | None]]:
        best = max(values.values())
        winners = [i for i, v in values.items() if v == best]
        if amount % len(winners):
            # Odd chips: to the tied player with the highest card by suit in the five cards
            # played (TDA 20-B).
            five = best_low_five if low else best_high_five
            winners.sort(
                key=lambda i: high_card_by_suit_key(five(self.hole_cards(i))),  # type: ignore[arg-type]
                reverse=True,
            )
        name = describe_low(best) if low else describe_high(best)
        return [
            (i, share, half, name)
            for i, share in zip(winners, split(amount, winners), strict=True)
            if share
        ]


_CARD_TEXT = {card: repr(card) for card in FULL_DECK}


def _text(card: Card | None) -> str | None:
    return None if card is None else _CARD_TEXT[card]
