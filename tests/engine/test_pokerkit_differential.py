"""Differential test against pokerkit 0.7.7 (issue 3, item 8): same cards, same actions.

Each hand is first played to the end by our engine with seeded random decisions. Unless the
hand contains one of the situations where pokerkit departs from docs/rules.md (named below), it
is then replayed in pokerkit with the identical cards and decisions; at every decision both must
name the same player to act and offer the same legal actions with the same amounts, and the
final stacks must be equal.

Where pokerkit departs from docs/rules.md, and why the hand is left out (our engine follows
docs/rules.md; each of these has its own rule test elsewhere):

* ``open_pair``: pokerkit has no fourth-street open-pair option (docs/rules.md 4.6, default ON), so
  every hand here runs with ``open_pair_double=False`` (TDA RP-10-F), which pokerkit follows.
* ``tied_pot_odd_chip``: pokerkit gives an odd chip of a tied pot by seat; docs/rules.md 8 gives it
  to the tied player with the highest card by suit.
* ``hilo_side_pot_without_low``: pokerkit decides hi/lo splitting over the whole hand; docs/rules.md
  8 (TDA 21) splits each pot on its own, so a side pot with no eligible qualifying low goes
  whole to its best high hand.
* ``hilo_odd_chip_to_high_half``: docs/rules.md 8 gives the odd chip of halving a pot to the
  high half; pokerkit gives it elsewhere.
* ``deck_runs_short``: pokerkit's community seventh-street card is dealt when its own count of
  dealable cards runs out, which counts folded players' cards differently; docs/rules.md 5 decides
  from the cards left in the deck.
* ``partial_all_in_bring_in``: pokerkit lets the others call only the short amount; docs/rules.md
  4.3 and the engine (like a short all-in blind) make them call the full bring-in.
* ``short_all_in_completion``: pokerkit treats an all-in completion short of the small bet as
  the completion; the engine applies the half-bet rule of docs/rules.md 4.10 (TDA 47-B) to it.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from random import Random

import pytest
from pokerkit import (
    Mode,
    State,
)

from bench.pokerkit_oracle import AUTOMATIONS, POKERKIT_CARDS, POKERKIT_GAMES, apply_option
from games.engine.cards import Card, shuffled_deck
from games.engine.events import to_dicts
from games.engine.play import deal_pending
from games.engine.rules import CAP, Rules, Stakes, Variant
from games.engine.state import HandState, Option, Phase

HANDS_PER_VARIANT = 1_000
"""3,000 hands in all: enough to meet every kind of hand, small enough for ``make test``."""


@dataclass
class PlayedHand:
    """A hand our engine played: its start, its deck and the decisions taken, in order."""

    rules: Rules
    stakes: Stakes
    stacks: list[int]
    deck: list[Card]
    decisions: list[Option]
    state: HandState


def random_hand(variant: Variant, seed: int) -> PlayedHand:
    """Play one hand with seeded random stakes, stacks, deck and decisions."""
    rng = Random(seed)
    small = rng.randint(2, 10)
    stakes = Stakes(
        ante=rng.randint(0, small // 2),
        bring_in=rng.randint(1, small - 1),
        small_bet=small,
        big_bet=2 * small,
    )
    players = rng.randint(2, 8)
    # Mostly short stacks, so that all-ins and side pots are common.
    stacks = [
        rng.choice((rng.randint(1, 3 * small), rng.randint(1, 30 * small))) for _ in range(players)
    ]
    rules = Rules(variant, open_pair_double=False)
    deck = shuffled_deck(rng)
    state = HandState(rules, stakes, stacks)
    remaining = list(deck)
    decisions: list[Option] = []
    while not state.is_over:
        deal_pending(state, remaining)
        if state.is_over:
            break
        options = state.legal_actions()
        staying = [o for o in options if o.action != "fold"]
        option = rng.choice(staying if staying and rng.random() < 0.8 else options)
        decisions.append(option)
        state.act(option.action, option.to)
    return PlayedHand(rules, stakes, stacks, deck, decisions, state)


def departure(hand: PlayedHand) -> str | None:
    """The name of the docs/rules.md rule in this hand on which pokerkit departs, if any."""
    state = hand.state
    log = to_dicts(state.log)
    actions = [e for e in log if e["type"] == "action"]
    if any(e["action"] == "bring_in" and e["to"] < hand.stakes.bring_in for e in actions):
        return "partial_all_in_bring_in"
    if any(e["action"] == "complete" and e["to"] < hand.stakes.small_bet for e in actions):
        return "short_all_in_completion"
    short_all_in = short_all_in_departure(hand)
    if short_all_in is not None:
        return short_all_in
    if state.community is not None:
        return "deck_runs_short"
    awards = [e for e in log if e["type"] == "award"]
    shares = Counter((e["pot"], e["half"]) for e in awards)
    for e in awards:
        if shares[e["pot"], e["half"]] > 1:
            tied = {a["amount"] for a in awards if (a["pot"], a["half"]) == (e["pot"], e["half"])}
            if len(tied) > 1:
                return "tied_pot_odd_chip"
    if state.rules.variant is Variant.STUD_8:
        halves = Counter()
        for e in awards:
            halves[e["pot"]] += e["amount"] if e["half"] == "high" else -e["amount"]
        if any(halves[pot] == 1 for pot in {e["pot"] for e in awards if e["half"] == "low"}):
            return "hilo_odd_chip_to_high_half"
        with_low = {e["pot"] for e in awards if e["half"] == "low"}
        if with_low and with_low != {e["pot"] for e in awards}:
            return "hilo_side_pot_without_low"
    return None


def short_all_in_departure(hand: PlayedHand) -> str | None:
    """Where an all-in bet or raise short of a full one makes pokerkit depart (docs/rules.md 4.10):

    * ``half_bet_all_in_reopens``: an all-in of at least half a bet reopens the betting for
      players who have already acted; pokerkit reopens only on a full bet or raise;
    * ``short_all_in_does_not_reopen``: an all-in of less than half a bet does not reopen the
      betting for players who have already acted, checks included; pokerkit lets a player
      who checked raise it;
    * ``cap_counts_short_all_in``: an all-in of less than half a bet does not count toward
      the cap (it is not a bet or raise under 4.10); pokerkit counts it.
    """
    level = count = short = 0
    unit = hand.stakes.small_bet
    acted: set[int] = set()
    acted_before_short: dict[int, str] = {}
    for event in to_dicts(hand.state.log):
        if event["type"] == "street":
            level = count = short = 0
            acted, acted_before_short = set(), {}
            big = event["street"] not in ("third", "fourth")
            unit = hand.stakes.big_bet if big else hand.stakes.small_bet
        elif event["type"] == "action" and event["action"] in ("bet", "raise", "complete"):
            increment = event["to"] - level
            if event["action"] != "complete" and increment < unit:
                name = (
                    "half_bet_all_in_reopens"
                    if 2 * increment >= unit
                    else "short_all_in_does_not_reopen"
                )
                acted_before_short.update(dict.fromkeys(acted - {event["player"]}, name))
            count += 1
            short += 2 * increment < unit
            level = max(level, event["to"])
            if short and count >= CAP:
                return "cap_counts_short_all_in"
        elif event["type"] == "action" and event["action"] == "bring_in":
            level = event["to"]
        if event["type"] == "action":
            if event["player"] in acted_before_short:
                return acted_before_short[event["player"]]
            acted.add(event["player"])
    return None


def pokerkit_state(hand: PlayedHand) -> State:
    """The same hand's start in pokerkit: antes posted, bet collection and showdown automatic."""
    return POKERKIT_GAMES[hand.rules.variant].create_state(
        AUTOMATIONS,
        True,  # uniform antes: a short ante forms a side pot (docs/rules.md 4.1), as in pokerkit
        hand.stakes.ante,
        hand.stakes.bring_in,
        hand.stakes.small_bet,
        hand.stakes.big_bet,
        hand.stacks,
        len(hand.stacks),
        mode=Mode.TOURNAMENT,
    )


def our_options(state: HandState) -> set[tuple[str, int]]:
    """Our legal actions in pokerkit's terms: fold, call (check too), raise (bet, complete
    too), bring_in, each with the player's street total after it."""
    kinds = {"check": "call", "bet": "raise", "complete": "raise"}
    return {(kinds.get(o.action, o.action), o.to) for o in state.legal_actions()}


def pokerkit_options(pk: State) -> set[tuple[str, int]]:
    """Pokerkit's legal actions for its player to act, in the same terms."""
    actor = pk.actor_index
    assert actor is not None
    options: set[tuple[str, int]] = set()
    if pk.can_post_bring_in():
        options.add(("bring_in", pk.bets[actor] + pk.effective_bring_in_amount))
    if pk.can_fold():
        options.add(("fold", pk.bets[actor]))
    if pk.can_check_or_call():
        options.add(("call", pk.bets[actor] + pk.checking_or_calling_amount))
    if pk.can_complete_bet_or_raise_to():
        low = pk.min_completion_betting_or_raising_to_amount
        high = pk.max_completion_betting_or_raising_to_amount
        assert low == high  # fixed limit: one amount
        # Pokerkit also offers a "completion" or "raise" all in for no more than the bring-in
        # or the call; docs/rules.md 4.3 calls that a bring-in (or a call), as both engines take it.
        if low > max(pk.bets) and (not pk.can_post_bring_in() or low > pk.bring_in):
            options.add(("raise", low))
    return options


def replay_in_pokerkit(hand: PlayedHand) -> None:
    """Replay ``hand`` in pokerkit and our engine side by side, asserting they agree."""
    ours = HandState(hand.rules, hand.stakes, hand.stacks)
    pk = pokerkit_state(hand)
    deck = list(hand.deck)
    decisions = list(hand.decisions)
    while not ours.is_over:
        while (slot := ours.next_deal) is not None:
            card = deck.pop()
            assert pk.hole_dealee_index == slot.player
            pk.deal_hole((POKERKIT_CARDS[card],))
            ours.deal(card)
        if ours.is_over:
            break
        option = decisions.pop(0)
        if ours.phase is not Phase.SHOWDOWN:  # pokerkit shows and mucks by itself
            assert pk.actor_index == ours.actor
            assert pokerkit_options(pk) == our_options(ours)
            apply_option(pk, option)
        ours.act(option.action, option.to)
    assert not pk.status
    assert list(pk.stacks) == [p.stack for p in ours.players]


@pytest.mark.filterwarnings("ignore::UserWarning")  # pokerkit: "card not from its own deck"
def test_random_hands_differ_from_pokerkit_only_where_rules_md_departs() -> None:
    left_out: Counter[str] = Counter()
    compared = 0
    for variant in Variant:
        for seed in range(HANDS_PER_VARIANT):
            hand = random_hand(variant, seed)
            reason = departure(hand)
            if reason is not None:
                left_out[reason] += 1
                continue
            try:
                replay_in_pokerkit(hand)
            except AssertionError as error:
                raise AssertionError(f"{variant} seed {seed}: {error}") from error
            compared += 1
    # Short stacks make all-ins common, so many hands meet a departure; 40% are compared.
    assert compared >= 0.4 * 3 * HANDS_PER_VARIANT, left_out
    assert set(left_out) <= {
        "tied_pot_odd_chip",
        "hilo_side_pot_without_low",
        "hilo_odd_chip_to_high_half",
        "deck_runs_short",
        "partial_all_in_bring_in",
        "short_all_in_completion",
        "half_bet_all_in_reopens",
        "short_all_in_does_not_reopen",
        "cap_counts_short_all_in",
    }


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("variant", list(Variant))
def test_a_hand_with_no_departure_matches_pokerkit_card_for_card(variant: Variant) -> None:
    hand = random_hand(variant, seed=1)
    assert departure(hand) is None
    replay_in_pokerkit(hand)


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_no_raise_when_nobody_else_could_call_it() -> None:
    hand = random_hand(Variant.STUD_HI, seed=190)
    assert departure(hand) is None
    replay_in_pokerkit(hand)
