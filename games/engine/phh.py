"""Poker Hand History (PHH) for stud: read a history, replay it strictly, write one.

PHH is the TOML hand-history format of pokerkit's dataset. A stud history names the variant
(``F7S`` stud high, ``F7S/8`` stud hi-lo, ``FR`` razz), the stakes, the starting stacks and the
hand as a list of actions:

* ``d dh p1 5d2sAd``: cards dealt to player 1 in dealing order (``??`` = an unknown card);
  ``d db 7h``: the community card;
* ``p2 pb`` bring-in; ``p3 cbr 400`` complete, bet or raise TO 400 (the player's total on
  this street); ``p1 cc`` check or call; ``p4 f`` fold;
* ``p1 sm QhTcTh6cKcAh6d`` shows (all the player's cards in dealing order, or the down cards),
  ``p1 sm -`` shows without naming the cards, ``p1 sm`` mucks.

:func:`replay_phh` replays with :class:`~games.engine.recorded.RecordedHand` and repairs
nothing: an action the rules refuse is a :class:`PhhError` naming the action, its index and
the rule.

>>> text = '''variant = 'F7S'
... antes = [1, 1]
... bring_in = 2
... small_bet = 5
... big_bet = 10
... starting_stacks = [100, 100]
... actions = ['d dh p1 AsKsQs', 'd dh p2 2c3c4c', 'p2 pb', 'p1 f']
... finishing_stacks = [99, 101]'''
>>> phh = load_phh(text)
>>> hand = replay_phh(phh)
>>> stacks_after(hand), finishing_stacks_match(phh, hand)
([99, 101], True)
>>> print(dump_phh(hand).splitlines()[6])
actions = ['d dh p1 ????Qs', 'd dh p2 ????4c', 'p2 pb', 'p1 f']
"""

from __future__ import annotations

import json
import re
import tomllib
from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from games.engine.actions import Action
from games.engine.cards import Card
from games.engine.events import Deal, Muck, PlayerAction, Show
from games.engine.rake import hand_won, rake_shares
from games.engine.recorded import RecordedHand
from games.engine.rules import Rules, Stakes, Variant
from games.engine.state import HandState, IllegalAction, Phase

VARIANTS: Final[Mapping[str, Variant]] = {
    "F7S": Variant.STUD_HI,
    "F7S/8": Variant.STUD_8,
    "FR": Variant.RAZZ,
}
"""PHH variant codes of the fixed-limit stud games and the engine's variants."""

CODES: Final[Mapping[Variant, str]] = {variant: code for code, variant in VARIANTS.items()}

UNKNOWN_CARD: Final = "??"

GAME_FIELDS: Final = (
    "variant",
    "antes",
    "bring_in",
    "small_bet",
    "big_bet",
    "starting_stacks",
    "actions",
    "players",
    "finishing_stacks",
    "rake",
    "_chip_unit",
)
"""The fields :class:`Phh` reads; every other key of a history is kept as metadata.
``_chip_unit`` (a PHH user-defined field, written when it is not 1) is the smallest chip in
play, the unit tied pots and hi/lo halves were shared in."""

_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")


class PhhError(ValueError):
    """A history that cannot be read or replayed: the message says where and why."""


@dataclass(frozen=True, slots=True)
class Phh:
    """One stud hand history as read from PHH text (amounts in whole chips)."""

    variant: str
    antes: tuple[int, ...]
    bring_in: int
    small_bet: int
    big_bet: int
    starting_stacks: tuple[int, ...]
    actions: tuple[str, ...]
    players: tuple[str, ...] | None = None
    finishing_stacks: tuple[int, ...] | None = None
    rake: int = 0
    chip_unit: int = 1
    metadata: dict[str, Any] = field(default_factory=dict)

    @property
    def rules(self) -> Rules:
        """The engine rules of this variant, every house option at the rule book's default."""
        return Rules(VARIANTS[self.variant])

    @property
    def stakes(self) -> Stakes:
        """The engine stakes; the engine takes one ante for every player."""
        if len(set(self.antes)) > 1:
            raise PhhError(
                f"antes differ between players {list(self.antes)}: the engine takes one ante "
                "for every player"
            )
        try:
            return Stakes(
                self.antes[0], self.bring_in, self.small_bet, self.big_bet, self.chip_unit
            )
        except ValueError as error:
            raise PhhError(str(error)) from error


# ----------------------------------------------------------------------------- reading


def load_phh(text: str) -> Phh:
    """Read PHH text (TOML). Raises :class:`PhhError` naming the line or field at fault."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise PhhError(f"not valid PHH (TOML): {error}") from error
    missing = [name for name in GAME_FIELDS[:7] if name not in data]
    if missing:
        raise PhhError(f"missing field(s): {', '.join(missing)}")
    variant = data["variant"]
    if variant not in VARIANTS:
        raise PhhError(f"variant {variant!r} is not a stud game: use one of {', '.join(VARIANTS)}")
    stacks = _chips_list(data, "starting_stacks")
    n = len(stacks)
    antes = _chips_list(data, "antes", n)
    actions = data["actions"]
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise PhhError("actions must be a list of strings")
    players = data.get("players")
    if players is not None and (
        not isinstance(players, list)
        or len(players) != n
        or not all(isinstance(name, str) for name in players)
    ):
        raise PhhError(f"players must be a list of {n} names")
    finishing = _chips_list(data, "finishing_stacks", n) if "finishing_stacks" in data else None
    return Phh(
        variant=variant,
        antes=antes,
        bring_in=_chips(data, "bring_in"),
        small_bet=_chips(data, "small_bet"),
        big_bet=_chips(data, "big_bet"),
        starting_stacks=stacks,
        actions=tuple(actions),
        players=None if players is None else tuple(players),
        finishing_stacks=finishing,
        rake=_chips(data, "rake") if "rake" in data else 0,
        chip_unit=_chips(data, "_chip_unit") if "_chip_unit" in data else 1,
        metadata={key: value for key, value in data.items() if key not in GAME_FIELDS},
    )


def _chips(data: Mapping[str, Any], name: str) -> int:
    value = data[name]
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise PhhError(f"{name} must be a whole number of chips >= 0, not {value!r}")
    return value


def _chips_list(data: Mapping[str, Any], name: str, length: int | None = None) -> tuple[int, ...]:
    values = data[name]
    if not isinstance(values, list) or not all(
        isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in values
    ):
        raise PhhError(f"{name} must be a list of whole numbers of chips >= 0, not {values!r}")
    if length is not None and len(values) != length:
        raise PhhError(f"{name} has {len(values)} entries for {length} players")
    return tuple(values)


@dataclass(frozen=True, slots=True)
class Step:
    """One parsed action of a history."""

    index: int
    text: str
    kind: str  # dh, db, pb, cbr, cc, f, sm
    player: int | None = None  # 0-based; None for the community card
    cards: tuple[Card | None, ...] = ()
    amount: int | None = None
    show: bool = False  # sm: show (True) or muck (False)

    def error(self, why: str) -> PhhError:
        """The error for this action: its index, its text and why."""
        return PhhError(f"actions[{self.index}] {self.text!r}: {why}")


def parse_action(index: int, text: str, players: int) -> Step | None:
    """Parse one action (None for a comment-only line). ``players`` is the table size."""
    words = text.split("#", 1)[0].split()
    if not words:
        return None
    bad = PhhError(
        f"actions[{index}] {text!r}: not a stud action (expected 'd dh pN CARDS', 'd db CARD', "
        "'pN pb', 'pN cbr AMOUNT', 'pN cc', 'pN f' or 'pN sm [CARDS]')"
    )
    if words[0] == "d":
        if len(words) == 4 and words[1] == "dh":
            player = _player(index, text, words[2], players)
            return Step(index, text, "dh", player, _cards(index, text, words[3]))
        if len(words) == 3 and words[1] == "db":
            return Step(index, text, "db", None, _cards(index, text, words[2]))
        raise bad
    player = _player(index, text, words[0], players)
    match words[1:]:
        case ["pb"] | ["cc"] | ["f"]:
            return Step(index, text, words[1], player)
        case ["cbr", amount] if amount.isdigit():
            return Step(index, text, "cbr", player, amount=int(amount))
        case ["sm"]:
            return Step(index, text, "sm", player, show=False)
        case ["sm", "-"]:
            return Step(index, text, "sm", player, show=True)
        case ["sm", cards]:
            return Step(index, text, "sm", player, _cards(index, text, cards), show=True)
    raise bad


def _player(index: int, text: str, word: str, players: int) -> int:
    if not re.fullmatch(r"p[1-9][0-9]*", word) or int(word[1:]) > players:
        raise PhhError(f"actions[{index}] {text!r}: {word!r} is not a player p1..p{players}")
    return int(word[1:]) - 1


def _cards(index: int, text: str, word: str) -> tuple[Card | None, ...]:
    if len(word) % 2:
        raise PhhError(f"actions[{index}] {text!r}: {word!r} is not a run of two-letter cards")
    chunks = [word[i : i + 2] for i in range(0, len(word), 2)]
    try:
        return tuple(None if c == UNKNOWN_CARD else Card.parse(c) for c in chunks)
    except ValueError as error:
        raise PhhError(f"actions[{index}] {text!r}: {error}") from error


def parse_actions(phh: Phh) -> list[Step]:
    """Every action of ``phh`` parsed, comment-only lines left out."""
    n = len(phh.starting_stacks)
    return [s for i, t in enumerate(phh.actions) if (s := parse_action(i, t, n)) is not None]


# ----------------------------------------------------------------------------- replaying


def replay_phh(phh: Phh, *, rules: Rules | None = None) -> RecordedHand:
    """Replay ``phh`` strictly and return the finished hand (a :class:`RecordedHand`).

    Every action must be the legal decision of the player the rules put to act; anything else
    is a :class:`PhhError` naming the action and the rule. ``rules`` overrides the variant's
    default house options. Three readings of real histories are applied, each explicit:

    * a show (``sm``) names cards that were dealt as ``??``: the history itself tells them, so
      they are dealt as the known cards (a shown card that contradicts a dealt one is an error);
    * a show made while everyone is all in, before the last card, is taken at the showdown,
      and a later show of the same cards by the same player repeats it;
    * a fixed-limit raise written as "raise to" the all-in of the only opponent with chips is
      the fixed raise (see :func:`_all_in_raise_target`).

    A history that stops at the showdown is completed with ``finish_showdown()``.
    """
    steps = _resolve_unknown_cards(parse_actions(phh))
    state = RecordedHand(rules or phh.rules, phh.stakes, list(phh.starting_stacks))
    _Replay(state).run(steps)
    return state


def stacks_after(state: HandState, rake: int = 0) -> list[int]:
    """Every player's stack (after the awards, once the hand is over), less their part of
    ``rake`` (see :mod:`games.engine.rake`)."""
    taken = (
        rake_shares(rake, hand_won(state), state.stakes.unit) if rake else [0] * len(state.players)
    )
    return [p.stack - t for p, t in zip(state.players, taken, strict=True)]


def finishing_stacks_match(phh: Phh, state: HandState) -> bool | None:
    """Whether the replay ends with the history's ``finishing_stacks`` (None: it has none),
    its ``rake`` taken."""
    if phh.finishing_stacks is None:
        return None
    return stacks_after(state, phh.rake) == list(phh.finishing_stacks)


def check_finishing_stacks(phh: Phh, state: HandState) -> None:
    """Raise :class:`PhhError` when the replay ends with other stacks than the history says."""
    if finishing_stacks_match(phh, state) is False:
        assert phh.finishing_stacks is not None
        ours = stacks_after(state)
        differ = [
            i + 1 for i, (a, b) in enumerate(zip(ours, phh.finishing_stacks, strict=True)) if a != b
        ]
        raise PhhError(
            f"finishing stacks differ for player(s) {', '.join(f'p{i}' for i in differ)}: "
            f"the history says {list(phh.finishing_stacks)}, the replay gives {ours}"
        )


def _resolve_unknown_cards(steps: list[Step]) -> list[Step]:
    """Deal the cards a later show reveals instead of ``??``, and check every shown card
    against the card dealt (all the player's cards in dealing order, or only the down ones)."""
    dealt: dict[int, list[tuple[int, int]]] = {}  # player -> (step position, card position)
    cards = {k: list(step.cards) for k, step in enumerate(steps) if step.kind == "dh"}
    for k, step in enumerate(steps):
        if step.kind == "dh":
            assert step.player is not None
            dealt.setdefault(step.player, []).extend((k, c) for c in range(len(step.cards)))
        elif step.kind == "sm" and step.cards:
            assert step.player is not None
            refs = dealt.get(step.player, [])
            down = [refs[c] for c in (0, 1, 6) if c < len(refs)]  # stud deals down, down, up...
            if len(step.cards) == len(refs):
                targets = refs
            elif len(step.cards) == len(down):
                targets = down
            else:
                raise step.error(
                    f"shows {len(step.cards)} cards, but the player was dealt {len(refs)} "
                    f"({len(down)} down): show all of them or the down cards"
                )
            for shown, (at, c) in zip(step.cards, targets, strict=True):
                if cards[at][c] is None:
                    cards[at][c] = shown
                elif shown is not None and shown != cards[at][c]:
                    raise step.error(f"shows {shown!r} where {cards[at][c]!r} was dealt")
    return [
        Step(s.index, s.text, s.kind, s.player, tuple(cards[k])) if k in cards else s
        for k, s in enumerate(steps)
    ]


class _Replay:
    """Feeds parsed steps to a recorded hand, turning every refusal into a :class:`PhhError`."""

    def __init__(self, state: RecordedHand) -> None:
        self.state = state
        # Dealt cards wait here until the engine asks for them: PHH deals a player's cards of a
        # street together, the engine deals round by round (seat 1 first, then seat 2 ...).
        self.queued: dict[int | None, deque[tuple[Card | None, Step]]] = {}
        self.early_shows: list[Step] = []

    def run(self, steps: Sequence[Step]) -> None:
        for step in steps:
            if step.kind in ("dh", "db"):
                self.queued.setdefault(step.player, deque()).extend(
                    (card, step) for card in step.cards
                )
                self._deal_queued()
            else:
                if self.state.next_deal is None:
                    self._check_no_extra_cards()
                self._take(step)
            self._show_early_shows()
        if self.state.next_deal is None:
            self._check_no_extra_cards()
        self._finish(steps[-1] if steps else None)

    def _deal_queued(self) -> None:
        while (slot := self.state.next_deal) is not None and self.queued.get(slot.player):
            card, step = self.queued[slot.player].popleft()
            try:
                self.state.deal(card)
            except IllegalAction as error:
                raise step.error(str(error)) from error

    def _check_no_extra_cards(self) -> None:
        for cards in self.queued.values():
            if cards:
                _card, step = cards[0]
                who = "the board" if step.player is None else f"player {step.player + 1}"
                raise step.error(
                    f"deals more cards to {who} than the hand needs now ({self._waiting_for()})"
                )

    def _waiting_for(self) -> str:
        state = self.state
        slot = state.next_deal
        if slot is not None:
            who = "the community card" if slot.player is None else f"player {slot.player + 1}"
            return f"the next card is for {who}"
        if state.is_over:
            return "the hand is over"
        if state.phase is Phase.SHOWDOWN:
            return "the hand is at showdown"
        return "player " + " or ".join(str(c + 1) for c in state.candidates) + " is to act"

    def _take(self, step: Step) -> None:
        state = self.state
        assert step.player is not None
        if step.kind == "sm":
            self._show_or_muck(step)
            return
        if state.next_deal is not None:
            raise step.error(f"cards are still due: {self._waiting_for()}")
        try:
            if step.kind == "cbr":
                assert step.amount is not None
                self._bet(step.player, step.amount)
            else:
                state.act(self._action_name(step.kind, step.player), player=step.player)
        except IllegalAction as error:
            raise step.error(str(error)) from error

    def _action_name(self, kind: str, player: int) -> Action:
        if kind == "pb":
            return Action.BRING_IN
        if kind == "f":
            return Action.FOLD
        p = self.state.players[player]
        return Action.CHECK if p.street_bet >= self.state.bet_level else Action.CALL

    def _bet(self, player: int, to: int) -> None:
        state = self.state
        name = state.round.raise_action()  # complete on third street until completed
        try:
            state.act(name, to, player=player)
        except IllegalAction as error:
            fixed = _all_in_raise_target(state, player, name, to)
            if error.code != "wrong_amount" or fixed is None:
                raise
            state.act(name, fixed, player=player)

    def _show_or_muck(self, step: Step) -> None:
        state = self.state
        assert step.player is not None
        p = state.players[step.player]
        if p.shown and step.show:
            return  # the same cards again (checked in _resolve_unknown_cards): a repeat
        if state.phase is Phase.DEAL and step.show and not self._betting_possible():
            # Everyone is all in: hands are turned up before the last cards are dealt.
            self.early_shows.append(step)
            return
        try:
            state.act(Action.SHOW if step.show else Action.MUCK, player=step.player)
        except IllegalAction as error:
            raise step.error(str(error)) from error

    def _betting_possible(self) -> bool:
        return sum(not p.folded and p.stack > 0 for p in self.state.players) > 1

    def _show_early_shows(self) -> None:
        if self.state.phase is not Phase.SHOWDOWN:
            return
        shows, self.early_shows = self.early_shows, []
        for step in shows:
            self._show_or_muck(step)

    def _finish(self, last: Step | None) -> None:
        state = self.state
        if state.phase is Phase.SHOWDOWN:
            try:
                state.finish_showdown()
            except IllegalAction as error:
                raise PhhError(
                    f"the history ends at the showdown, which cannot be completed: {error}"
                ) from error
        if not state.is_over:
            where = f"after actions[{last.index}] {last.text!r}" if last else "before any action"
            raise PhhError(
                f"the history stops {where} before the hand is over: {self._waiting_for()}"
            )


def _all_in_raise_target(state: HandState, player: int, name: Action, to: int) -> int | None:
    """The fixed bet or raise that a history wrote as "to the opponent's all-in", or None.

    Rule applied (real histories write it this way): when exactly one opponent still has
    chips, ``to`` is exactly that opponent's whole street total if they call all in, and the
    legal fixed amount is larger, the action is the smallest legal fixed amount above ``to``.
    The chips are the same: the opponent can only call all in and the excess comes back as
    an uncalled bet.
    """
    if state.actor != player:
        return None
    opponents = [
        q for j, q in enumerate(state.players) if j != player and not q.folded and q.stack > 0
    ]
    if len(opponents) != 1:
        return None
    reach = opponents[0].street_bet + opponents[0].stack
    if to != reach or to <= state.bet_level:
        return None
    larger = [o.to for o in state.legal_actions() if o.action is name and o.to > to]
    return min(larger) if larger else None


# ----------------------------------------------------------------------------- writing


def dump_phh(
    state: HandState,
    *,
    players: Sequence[str] | None = None,
    show_all_cards: bool = False,
    rake: int = 0,
    known_to: int | None = None,
    **metadata: Any,
) -> str:
    """The hand as PHH text that :func:`load_phh` and :func:`replay_phh` replay to the same
    stacks.

    Down cards of players who never showed are written ``??``: a published history must not
    reveal them. ``known_to`` writes that player's own down cards too (their copy of the
    hand); ``show_all_cards=True`` writes every card (staff and internal use only).
    ``players`` are the names in seat order; ``metadata`` adds keys such as ``event`` or
    ``hand`` (bare TOML keys; strings, whole numbers, booleans or lists of them). ``rake``
    is what the house took from the pot (the finishing stacks are net of it).
    """
    n = len(state.players)
    if players is not None and len(players) != n:
        raise ValueError(f"players: {len(players)} names for {n} players")
    clash = sorted(set(metadata) & set(GAME_FIELDS))
    if clash:
        raise ValueError(f"metadata may not set the game fields {', '.join(clash)}")
    fields: dict[str, Any] = {
        "variant": CODES[state.rules.variant],
        "antes": [state.stakes.ante] * n,
        "bring_in": state.stakes.bring_in,
        "small_bet": state.stakes.small_bet,
        "big_bet": state.stakes.big_bet,
        "starting_stacks": [p.starting_stack for p in state.players],
        "actions": phh_actions(state, show_all_cards=show_all_cards, known_to=known_to),
        **metadata,
    }
    if players is not None:
        fields["players"] = list(players)
    if state.is_over:
        fields["finishing_stacks"] = stacks_after(state, rake)
    if rake:
        fields["rake"] = rake
    if state.stakes.unit != 1:
        fields["_chip_unit"] = state.stakes.unit
    return "".join(f"{_toml_key(key)} = {_toml_value(value)}\n" for key, value in fields.items())


def phh_actions(
    state: HandState, *, show_all_cards: bool = False, known_to: int | None = None
) -> list[str]:
    """The hand's log as PHH actions: unshown down cards as ``??``, except player
    ``known_to``'s own, or all with ``show_all_cards``."""
    revealed = [show_all_cards or p.shown or i == known_to for i, p in enumerate(state.players)]
    actions: list[str] = []
    dealing: dict[int | None, list[str]] = {}  # this street's cards, not yet written
    held: dict[int, list[str]] = {}  # every card each player was dealt, in dealing order

    def write_dealing() -> None:
        for player in sorted(k for k in dealing if k is not None):
            actions.append(f"d dh p{player + 1} {''.join(dealing[player])}")
        if None in dealing:
            actions.append(f"d db {''.join(dealing[None])}")
        dealing.clear()

    for event in state.log:
        if isinstance(event, Deal):
            player = event.player
            known = event.card is not None and (event.up or player is None or revealed[player])
            card = repr(event.card) if known else UNKNOWN_CARD
            dealing.setdefault(player, []).append(card)
            if player is not None:
                held.setdefault(player, []).append(card)
            continue
        if not isinstance(event, PlayerAction | Show | Muck):
            continue  # antes, streets, burns, returns and awards follow from the rules
        write_dealing()
        who = f"p{event.player + 1}"
        if isinstance(event, PlayerAction):
            actions.append(_action_text(who, event.action, event.to))
        elif isinstance(event, Show):
            actions.append(f"{who} sm {''.join(held[event.player])}")
        else:
            actions.append(f"{who} sm")
    write_dealing()
    return actions


def _action_text(who: str, action: Action, to: int) -> str:
    if action is Action.BRING_IN:
        return f"{who} pb"
    if action is Action.FOLD:
        return f"{who} f"
    if action is Action.CHECK or action is Action.CALL:
        return f"{who} cc"
    return f"{who} cbr {to}"


def _toml_key(key: str) -> str:
    if not _BARE_KEY.fullmatch(key):
        raise ValueError(f"metadata key {key!r}: use letters, digits, '_' or '-'")
    return key


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        if "'" in value or any(ord(ch) < 32 or ord(ch) == 127 for ch in value):
            return json.dumps(value)  # a TOML basic string: JSON's escapes are valid TOML
        return f"'{value}'"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml_value(item) for item in value) + "]"
    raise ValueError(f"cannot write {value!r} in PHH: use strings, whole numbers or booleans")
