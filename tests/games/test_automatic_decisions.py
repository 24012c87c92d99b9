"""Decisions the service takes for a player: away, leaving or out of time (issue 8, defect 1).

``automatic_option`` must answer every decision the engine can offer (a property test over
random hands), and a player who leaves in the middle of a hand must never stop the table.
"""

from __future__ import annotations

from random import Random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import selectors
from games.engine.cards import shuffled_deck
from games.engine.play import deal_pending
from games.engine.rules import Rules, Stakes, Variant
from games.engine.state import HandState, Phase
from games.models import Hand, HandStatus
from games.services import hands
from games.services.seating import seat_leave, seat_sit
from tests.games.factories import make_player, make_table


def _expected_action(state: HandState) -> str:
    """docs/rules.md 9: a forced bring-in is posted, a free check taken, a bet folded to, a
    hand that may be mucked is mucked."""
    actions = {option.action for option in state.legal_actions()}
    if state.phase is Phase.SHOWDOWN:
        return "muck"
    if state.phase is Phase.BRING_IN:
        return "bring_in"
    return "check" if "check" in actions else "fold"


@settings(max_examples=150, deadline=None)
@given(
    variant=st.sampled_from(Variant),
    stacks=st.lists(st.integers(1, 60), min_size=2, max_size=8),
    ante=st.integers(0, 3),
    deck_seed=st.integers(0, 2**32),
    choices=st.lists(st.integers(0, 10), min_size=60, max_size=60),
    automatic_seats=st.sets(st.integers(0, 7)),
)
def test_automatic_option_answers_every_decision_of_random_hands(
    variant, stacks, ante, deck_seed, choices, automatic_seats
):
    # Given random hands where some players are away (the service decides for them) and the
    # others take random legal decisions
    state = HandState(Rules(variant), Stakes(ante, 2, 4, 8), stacks)
    deck = shuffled_deck(Random(deck_seed))
    decisions = iter(choices)
    while not state.is_over:
        deal_pending(state, deck)
        if state.is_over:
            break
        player = state.candidates[0]
        if player in automatic_seats or state.phase is Phase.SHOWDOWN:
            # Then the service's decision is always legal, and the one the rules name
            option = hands.automatic_option(state)
            assert option in state.legal_actions()
            assert option.action == _expected_action(state)
        else:
            options = state.legal_actions()
            option = options[next(decisions, 0) % len(options)]
        state.act(option.action, option.to, player=player)


@pytest.mark.django_db
def test_a_player_who_leaves_mid_hand_checks_when_free_and_the_hand_goes_on():
    # Given a ring table with two calling-station bots and a human
    table = make_table()
    human = make_player("leaver")
    for n in (1, 2):
        bot = make_player(bot="station")
        seat_sit(table_id=table.id, player=bot, seat_number=n, buy_in=200, by_staff=True)
    seat_sit(table_id=table.id, player=human, seat_number=3, buy_in=200)
    # When the human calls until a check is free for them, and then leaves the table
    free_check = False
    while not free_check:
        assert hands.table_advance(table.id) in ("waiting for a player", "hand finished")
        hand = Hand.objects.filter(table=table, status=HandStatus.RUNNING).first()
        if hand is None:
            continue  # the human folded or the hand ended: deal the next one
        state = selectors.hand_state(hand)
        options = {o.action: o for o in state.legal_actions()}
        if "check" in options:
            free_check = True
        else:
            hands.hand_act(
                table_id=table.id,
                player=human,
                action=next(a for a in ("bring_in", "call") if a in options),
                amount=None,
                seq=None,
            )
    seat_leave(table_id=table.id, player=human)
    table.refresh_from_db()
    left_at = table.seq

    # Then the worker checks for them, the hand is played out and they leave with their chips
    assert hands.table_advance(table.id) == "hand finished"
    finished = Hand.objects.get(pk=hand.pk)
    leaver = [e["seat"] for e in finished.lineup].index(3)
    actions_after_leaving = [
        e.data["action"]
        for e in finished.events.filter(kind="action", seq__gt=left_at).order_by("seq")
        if e.data["player"] == leaver
    ]
    assert actions_after_leaving[0] == "check"
    assert finished.status == HandStatus.FINISHED
    assert not table.seats.filter(player=human).exists()
