"""Property tests: random hands driven by Hypothesis, checked after every step (issue 3, item 8).

One state machine plays a hand of any variant with any house-rule options, 2 to 8 players, in
a smallest chip of 1, 5 or 25, stacks as small as one such chip and any ante. Each step either
deals the next card from a shuffled deck, takes a random legal decision, or tries an illegal
input (which must be refused without changing anything). After every step: chips are
conserved, no card exists twice, exactly one player is to act in a decision phase and none
otherwise, and no view or viewer's log shows a card the viewer may not see. At the end every
stack is whole chips of the smallest, and the log replays to an equal hand, also through JSON.
"""

from __future__ import annotations

import json
import re
from random import Random

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

from games.engine.cards import FULL_DECK, Card, shuffled_deck
from games.engine.events import to_dicts
from games.engine.replay import from_json, header, replay, to_json
from games.engine.rules import BoardTie, Rules, ShowdownOrder, Stakes, Variant
from games.engine.state import HandState, IllegalAction, Phase
from games.engine.views import log_for, view_for
from tests.engine.helpers import snapshot

DECISION_PHASES = (Phase.BRING_IN, Phase.BETTING, Phase.SHOWDOWN)
CARD_TEXT = re.compile(r'"([2-9TJQKA][cdhs])"')
"""A card as JSON text: the only way a card can appear in a view or a log."""
ALL_ACTIONS = ("fold", "check", "call", "bet", "raise", "bring_in", "complete", "show", "muck")

rules_strategy = st.builds(
    Rules,
    variant=st.sampled_from(Variant),
    low_qualifier=st.sampled_from([8, None]),
    open_pair_double=st.booleans(),
    board_tie=st.sampled_from(BoardTie),
    showdown_order=st.sampled_from(ShowdownOrder),
    uncap_heads_up=st.booleans(),
    burn_cards=st.booleans(),
)


@st.composite
def stakes_strategy(draw: st.DrawFn) -> Stakes:
    """Any legal stakes: ante 0..n, 0 < bring-in < small bet <= big bet <= 2 small bets, in
    a smallest chip of 1 (most often), 5 or 25."""
    small = draw(st.integers(2, 10))
    unit = draw(st.sampled_from([1, 1, 1, 5, 25]))
    return Stakes(
        ante=draw(st.integers(0, small)) * unit,
        bring_in=draw(st.integers(1, small - 1)) * unit,
        small_bet=small * unit,
        big_bet=draw(st.integers(small, 2 * small)) * unit,
        unit=unit,
    )


# Tiny stacks (all-in on the ante or the bring-in) are as likely as short and deep ones.
stack_strategy = st.one_of(st.integers(1, 3), st.integers(4, 40), st.integers(41, 400))


class StudHand(RuleBasedStateMachine):
    """One hand, from the antes to the awards, with every invariant checked at every step."""

    def __init__(self) -> None:
        super().__init__()
        self.state: HandState
        self.deck: list[Card] = []
        self.start_total = 0
        self.log_checked = -1

    @initialize(
        rules=rules_strategy,
        stakes=stakes_strategy(),
        stacks=st.lists(stack_strategy, min_size=2, max_size=8),
        seed=st.integers(0, 2**32 - 1),
    )
    def start(self, rules: Rules, stakes: Stakes, stacks: list[int], seed: int) -> None:
        stacks = [stack * stakes.unit for stack in stacks]  # whole chips of the smallest
        self.state = HandState(rules, stakes, stacks)
        # A seed, not a drawn permutation: 52 drawn cards would crowd out the steps.
        self.deck = shuffled_deck(Random(seed))
        self.start_total = sum(stacks)

    # ------------------------------------------------------------------------------ inputs

    @precondition(lambda self: self.state.next_deal is not None)
    @rule()
    def deal_next_card(self) -> None:
        """Deal the card due from the deck, after trying to deal the last card out again."""
        state = self.state
        if state.dealt:
            before = snapshot(state)
            with pytest.raises(IllegalAction, match="card dealt twice"):
                state.deal(state.dealt[-1])
            assert snapshot(state) == before
        slot = state.next_deal
        assert slot is not None
        if not self.deck and slot.player is None and not slot.burn and state.burned:
            # As games.engine.play.deal_pending: eight players and burn cards can empty the
            # deck before the community card, which then comes from the burned cards.
            self.deck.append(state.burned[0])
        state.deal(self.deck.pop())

    @precondition(lambda self: self.state.actor is not None)
    @rule(data=st.data())
    def take_a_legal_option(self, data: st.DataObject) -> None:
        options = self.state.legal_actions()
        staying = [o for o in options if o.action != "fold"]
        # Folding one time in four lets hands reach seventh street and the showdown often.
        if staying and data.draw(st.integers(0, 3), label="stay"):
            options = staying
        option = data.draw(st.sampled_from(options), label="option")
        self.state.act(option.action, option.to)

    # Only while no card is due: while dealing, steps go to the cards so hands get to the end.
    @precondition(lambda self: self.state.next_deal is None)
    @rule(
        action=st.sampled_from(ALL_ACTIONS),
        to=st.one_of(st.none(), st.integers(-3, 120)),
        player=st.one_of(st.none(), st.integers(0, 7)),
        card=st.sampled_from(FULL_DECK),
    )
    def try_an_illegal_input(
        self, action: str, to: int | None, player: int | None, card: Card
    ) -> None:
        """A wrong action, amount or player, or a card when none is due: refused, no change."""
        before = snapshot(self.state)
        if not self._is_legal(action, to, player):
            with pytest.raises(IllegalAction):
                self.state.act(action, to, player=player)
            assert snapshot(self.state) == before
        with pytest.raises(IllegalAction):
            self.state.deal(card)
        assert snapshot(self.state) == before

    def _is_legal(self, action: str, to: int | None, player: int | None) -> bool:
        state = self.state
        if state.actor is None or (player is not None and player not in state.candidates):
            return False
        same = [o for o in state.legal_actions() if o.action == action]
        if to is None:
            return len(same) == 1
        return any(o.to == to for o in same)

    # ------------------------------------------------------------------------------ invariants

    @invariant()
    def chips_are_conserved(self) -> None:
        players = self.state.players
        assert sum(p.stack for p in players) + sum(p.total_in for p in players) == self.start_total
        if self.state.is_over:
            assert sum(p.stack for p in players) == self.start_total
            assert all(p.stack >= 0 and p.total_in == 0 for p in players)
            # ties and halves are shared in the smallest chip in play (docs/rules.md 8)
            assert all(p.stack % self.state.stakes.unit == 0 for p in players)

    @invariant()
    def no_card_is_dealt_twice(self) -> None:
        state = self.state
        held = [card for p in state.players for card in p.down + p.up]
        if state.community is not None:
            held.append(state.community)
        out = held + state.burned
        assert len(out) == len(set(out))
        assert sorted(held) == sorted(state.dealt)

    @invariant()
    def exactly_one_player_is_to_act_in_a_decision(self) -> None:
        state = self.state
        if state.phase in DECISION_PHASES:
            assert state.actor is not None
            assert state.candidates == (state.actor,)
            assert state.legal_actions()
        else:
            assert state.phase in (Phase.DEAL, Phase.OVER)
            assert state.actor is None
            assert state.candidates == ()
            assert state.legal_actions() == []
        assert (state.next_deal is not None) == (state.phase is Phase.DEAL)

    @invariant()
    def views_leak_nothing(self) -> None:
        state = self.state
        if len(state.log) == self.log_checked:
            return  # nothing happened since the last check (a refused input)
        self.log_checked = len(state.log)
        public = {card for p in state.players for card in p.up}
        if state.community is not None:
            public.add(state.community)
        for p in state.players:
            if p.shown:
                public.update(p.down)
        for viewer in [None, *range(len(state.players))]:
            seen = set(public)
            if viewer is not None:
                seen.update(state.players[viewer].down)
            for text in (json.dumps(view_for(state, viewer)), json.dumps(log_for(state, viewer))):
                shown = {Card.parse(found) for found in CARD_TEXT.findall(text)}
                assert shown <= seen, f"viewer {viewer} sees {sorted(shown - seen)}"

    # ------------------------------------------------------------------------------ the end

    def teardown(self) -> None:
        state = getattr(self, "state", None)
        if state is None:
            return
        assert replay(header(state), to_dicts(state.log)) == state
        assert from_json(to_json(state)) == state


StudHand.TestCase.settings = settings(
    max_examples=200,
    stateful_step_count=300,
    deadline=None,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.filter_too_much,
        HealthCheck.large_base_example,
    ],
)
test_random_hands_keep_every_invariant = StudHand.TestCase
