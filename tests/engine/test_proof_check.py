"""games.engine.proof_check: the dealing order a saved answer is checked against is the
engine's own, whatever the viewer, the table size, burns or folds; an audit answer of a hand
whose deck ran out (the community card from the first burn's position) passes."""

import random

from games.engine.events import Burn, Deal, to_dicts
from games.engine.fairness import SeededShuffler, commit_deck, dealt_positions
from games.engine.play import first_not_fold, play_hand, random_choice_with
from games.engine.proof_check import check_answer, dealing_order
from games.engine.replay import header
from games.engine.rules import Rules, Stakes, Variant
from games.engine.state import HandState
from games.engine.views import log_for

STAKES = Stakes(1, 2, 5, 10)


def true_order(state: HandState) -> list[tuple[int, int | None, bool, bool]]:
    """(position, player, up, burn) of every card the hand dealt, from its full log."""
    order = []
    for index, position in dealt_positions(state.log):
        event = state.log[index]
        assert isinstance(event, Deal | Burn)
        player = event.player if isinstance(event, Deal) else None
        order.append((position, player, isinstance(event, Deal) and event.up, event.type == "burn"))
    return order


def test_every_viewers_log_replays_to_the_order_the_cards_were_dealt_in():
    for n in range(150):
        rng = random.Random(n)
        players = rng.randint(2, 8)
        rules = Rules(variant=rng.choice(list(Variant)), burn_cards=rng.random() < 0.5)
        stacks = [rng.choice([3, 20, 100, 400]) for _ in range(players)]
        choose = random_choice_with(rng) if n % 3 else first_not_fold
        state = play_hand(rules, STAKES, stacks, SeededShuffler(n.to_bytes(2, "big")), choose)

        for viewer in [None, *range(players)]:
            order = dealing_order(header(state), log_for(state, viewer))
            assert [(d.position, d.player, d.up, d.burn) for d in order] == true_order(state)


def test_an_audit_answer_of_a_hand_whose_deck_ran_out_passes():
    deck = commit_deck(bytes(32), [""] * 8)
    state = HandState(Rules(burn_cards=True), STAKES, [1000] * 8)
    cards = list(reversed(deck.order))
    while not state.is_over:
        state.deal_from(cards)
        if not state.is_over:
            option = first_not_fold(state, state.legal_actions())
            state.act(option.action, option.to)
    assert state.community is not None  # dealt from the first burn card's position
    proofs = [
        {
            **deck.proof(position).to_dict(),
            "kind": state.log[index].type,
            "player": getattr(state.log[index], "player", None),
            "up": getattr(state.log[index], "up", False),
        }
        for index, position in dealt_positions(state.log)
    ]
    answer = {"header": header(state), "log": to_dicts(state.log), "cards": proofs}  # audit

    result = check_answer(answer, deck.root.hex())

    assert result["cards_checked"] == 52 + 1
    assert all(v for k, v in result.items() if k.endswith("_ok")), result
