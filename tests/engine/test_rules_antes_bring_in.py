"""Antes, the third-street deal and the bring-in (docs/rules.md 4.1 to 4.3)."""

import pytest

from games.engine.events import Ante, to_dicts
from games.engine.rules import Rules, Stakes, Variant
from games.engine.state import DealSlot, HandState, IllegalAction, Phase
from tests.engine.helpers import NO_ANTE, STAKES, snapshot, stacked_hand

# --- antes (4.1) -----------------------------------------------------------------------------


def test_every_player_posts_the_ante_before_any_card():
    hand = HandState(Rules(), Stakes(ante=2, bring_in=3, small_bet=10, big_bet=20), [50, 60, 70])

    assert [p.stack for p in hand.players] == [48, 58, 68]
    assert [p.total_in for p in hand.players] == [2, 2, 2]
    assert to_dicts(hand.log[:3]) == [
        {"type": "ante", "player": 0, "amount": 2},
        {"type": "ante", "player": 1, "amount": 2},
        {"type": "ante", "player": 2, "amount": 2},
    ]
    assert hand.next_deal == DealSlot(0, face_up=False)


def test_a_player_short_of_the_ante_posts_everything_and_is_all_in():
    hand = HandState(Rules(), Stakes(ante=5, bring_in=2, small_bet=10, big_bet=20), [3, 100])

    assert hand.players[0].stack == 0
    assert hand.players[0].total_in == 3
    assert hand.log[0] == Ante(player=0, amount=3)


def test_a_short_ante_makes_a_side_pot_from_the_antes():
    hand = HandState(Rules(), Stakes(ante=5, bring_in=2, small_bet=10, big_bet=20), [3, 100, 100])

    assert hand.pots() == [(9, (0, 1, 2)), (4, (1, 2))]


def test_an_all_in_ante_player_can_win_only_the_ante_main_pot():
    # Given player 0 all in on a 3-chip ante and holding the best hand (quad aces)
    stakes = Stakes(ante=5, bring_in=2, small_bet=10, big_bet=20)
    hand = stacked_hand(
        Rules(),
        stakes,
        [3, 100, 100],
        {0: "AcAd Ah As Kc Kd Qc", 1: "2c3d 4h 7s 9c Jd Tc", 2: "2d3h 5h 8s 9d Jh Th"},
    )
    # When the other two check it down after the bring-in
    hand.play("bring_in", "call", *["check"] * 8)

    # Then player 0 wins the 9-chip main pot only; player 2 wins the side pot (4 + 4 in bets)
    assert hand.state.is_over
    assert hand.stacks() == [9, 93, 101]


# --- third street (4.2) ----------------------------------------------------------------------


def test_third_street_deals_two_down_then_one_up_seat_one_first():
    hand = stacked_hand(Rules(), STAKES, [50, 50, 50], {0: "AsKd 2c", 1: "QhQd 9s", 2: "3c4c 5c"})

    deals = [(e["player"], e["card"], e["up"]) for e in hand.events("deal")]
    assert deals == [
        (0, "As", False), (1, "Qh", False), (2, "3c", False),
        (0, "Kd", False), (1, "Qd", False), (2, "4c", False),
        (0, "2c", True), (1, "9s", True), (2, "5c", True),
    ]  # fmt: skip


# --- who brings in (4.3) ---------------------------------------------------------------------


def test_the_lowest_upcard_brings_in():
    hand = stacked_hand(Rules(), STAKES, [50, 50, 50], {0: "AsKd 5h", 1: "QhQd 3d", 2: "2h4c 9c"})

    assert hand.state.phase is Phase.BRING_IN
    assert hand.state.actor == 1


def test_equal_ranks_bring_in_by_lowest_suit():
    # 2s 2h 2d showing: the 2d brings in (clubs < diamonds < hearts < spades)
    hand = stacked_hand(Rules(), STAKES, [50, 50, 50], {0: "AsKd 2s", 1: "QhQd 2h", 2: "3h4c 2d"})

    assert hand.state.actor == 2


def test_clubs_is_the_lowest_suit_for_the_bring_in():
    hand = stacked_hand(Rules(), STAKES, [50, 50], {0: "AsKd 7d", 1: "QhQd 7c"})

    assert hand.state.actor == 1


@pytest.mark.parametrize("variant", [Variant.STUD_HI, Variant.STUD_8])
def test_the_ace_is_high_for_the_bring_in_in_high_games(variant):
    hand = stacked_hand(Rules(variant), STAKES, [50, 50], {0: "KsKd Ac", 1: "QhQd 3s"})

    assert hand.state.actor == 1


def test_razz_the_highest_upcard_brings_in():
    hand = stacked_hand(
        Rules(Variant.RAZZ), STAKES, [50, 50, 50], {0: "AsKd 5h", 1: "QhQd 3d", 2: "2h4c 9c"}
    )

    assert hand.state.actor == 2


def test_razz_the_ace_is_low_for_the_bring_in():
    hand = stacked_hand(Rules(Variant.RAZZ), STAKES, [50, 50], {0: "KsKd Ac", 1: "QhQd 2s"})

    assert hand.state.actor == 1


def test_razz_equal_ranks_bring_in_by_highest_suit():
    hand = stacked_hand(
        Rules(Variant.RAZZ), STAKES, [50, 50, 50], {0: "AsKd Kc", 1: "QhQd Ks", 2: "2h4c Kh"}
    )

    assert hand.state.actor == 1


def test_the_bring_in_passes_clockwise_when_the_low_card_is_all_in_on_the_ante():
    # Given player 0 (lowest card, 2c) all in on the ante; player 1 shows an ace
    hand = stacked_hand(Rules(), STAKES, [1, 50, 50], {0: "KsKd 2c", 1: "QhQd As", 2: "3h4c 3c"})

    # Then the next player clockwise with chips brings in, whatever their upcard
    assert hand.state.players[0].stack == 0
    assert hand.state.actor == 1
    assert hand.options() == [("bring_in", 1), ("complete", 4)]


def test_the_bring_in_passes_from_the_last_seat_to_seat_one():
    hand = stacked_hand(Rules(), STAKES, [50, 50, 1], {0: "KsKd As", 1: "QhQd 3c", 2: "3h4c 2c"})

    assert hand.state.actor == 0


# --- the bring-in's choice (4.3) -------------------------------------------------------------


def test_the_bring_in_may_only_bring_in_or_complete():
    hand = stacked_hand(Rules(), STAKES, [50, 50], {0: "AsKd 2c", 1: "QhQd 9s"})

    assert hand.options() == [("bring_in", 1), ("complete", 4)]
    assert [o.chips for o in hand.state.legal_actions()] == [1, 4]


@pytest.mark.parametrize("action", ["fold", "check", "call", "bet", "raise"])
def test_the_bring_in_may_not_fold_check_call_bet_or_raise(action):
    hand = stacked_hand(Rules(), STAKES, [50, 50], {0: "AsKd 2c", 1: "QhQd 9s"})
    before = snapshot(hand.state)

    with pytest.raises(IllegalAction, match="the bring-in must bring in or complete"):
        hand.state.act(action)

    assert snapshot(hand.state) == before


def test_posting_the_bring_in_costs_the_bring_in():
    hand = stacked_hand(Rules(), STAKES, [50, 50], {0: "AsKd 2c", 1: "QhQd 9s"})

    hand.act("bring_in")

    assert hand.state.players[0].stack == 48  # ante 1 + bring-in 1
    assert hand.state.bet_level == 1
    assert hand.state.actor == 1


def test_the_bring_in_may_complete_to_the_small_bet():
    hand = stacked_hand(Rules(), STAKES, [50, 50], {0: "AsKd 2c", 1: "QhQd 9s"})

    hand.act("complete")

    assert hand.state.players[0].street_bet == 4
    assert hand.options() == [("fold", 0), ("call", 4), ("raise", 8)]


def test_a_player_short_of_the_bring_in_posts_all_they_have():
    # Given player 0 due to bring in (3) with only 2 chips after the ante
    stakes = Stakes(ante=1, bring_in=3, small_bet=6, big_bet=12)
    hand = stacked_hand(Rules(), stakes, [3, 50], {0: "AsKd 2c", 1: "QhQd 9s"})

    assert hand.options() == [("bring_in", 2)]

    hand.act("bring_in")

    assert hand.state.players[0].stack == 0
    assert hand.state.players[0].street_bet == 2


def test_after_a_partial_all_in_bring_in_others_call_the_full_bring_in():
    # Decision (engine_api.md): calling a short all-in bring-in means the full bring-in
    stakes = Stakes(ante=1, bring_in=3, small_bet=6, big_bet=12)
    hand = stacked_hand(Rules(), stakes, [3, 50, 50], {0: "AsKd 2c", 1: "QhQd 9s", 2: "JhJd Ts"})

    hand.act("bring_in")

    assert hand.options() == [("fold", 0), ("call", 3), ("complete", 6)]


def test_a_bring_in_who_has_exactly_the_bring_in_cannot_complete():
    stakes = Stakes(ante=1, bring_in=3, small_bet=6, big_bet=12)
    hand = stacked_hand(Rules(), stakes, [4, 50], {0: "AsKd 2c", 1: "QhQd 9s"})

    assert hand.options() == [("bring_in", 3)]


def test_a_bring_in_short_of_the_small_bet_may_complete_all_in():
    stakes = Stakes(ante=1, bring_in=3, small_bet=6, big_bet=12)
    hand = stacked_hand(Rules(), stakes, [6, 50], {0: "AsKd 2c", 1: "QhQd 9s"})

    assert hand.options() == [("bring_in", 3), ("complete", 5)]


def test_no_ante_means_no_ante_events():
    hand = HandState(Rules(), NO_ANTE, [50, 50])

    assert [e for e in hand.log if isinstance(e, Ante)] == []
    assert [p.stack for p in hand.players] == [50, 50]
