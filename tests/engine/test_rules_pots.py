"""End of a hand: everyone folds, uncalled bets, side pots (docs/rules.md 6)."""

from games.engine.rules import Rules, Stakes, Variant
from tests.engine.helpers import NO_ANTE, STAKES, stacked_hand

THREE = {
    0: "AsKd 2c 3d 4h 5s 6c",
    1: "QhQd Ks 8h Jd Tc 9c",
    2: "JhJs 9s 7d 6h 4s 3h",
}


def test_everyone_else_folds_the_last_player_wins_and_no_more_cards_are_dealt():
    hand = stacked_hand(Rules(), STAKES, [50, 50, 50], THREE)
    hand.play("bring_in", "complete", "fold", "fold")

    assert hand.state.is_over
    assert hand.state.next_deal is None
    assert len(hand.events("deal")) == 9  # third street only
    assert hand.stacks() == [48, 53, 49]
    assert hand.events("award") == [
        {"type": "award", "pot": 0, "player": 1, "amount": 5, "half": None, "hand": None}
    ]


def test_the_uncalled_part_of_a_bet_goes_back_before_the_award():
    # Player 1 completes to 4 over the bring-in of 1; both others fold: 3 were never called
    hand = stacked_hand(Rules(), NO_ANTE, [50, 50, 50], THREE)
    hand.play("bring_in", "complete", "fold", "fold")

    assert hand.events("return") == [{"type": "return", "player": 1, "amount": 3}]
    assert hand.stacks() == [49, 51, 50]


def test_an_uncalled_bet_on_a_later_street_is_returned():
    hand = stacked_hand(Rules(), NO_ANTE, [50, 50], {0: THREE[0], 1: THREE[1]})
    hand.play("bring_in", "call", "bet", "fold")

    assert hand.events("return") == [{"type": "return", "player": 1, "amount": 4}]
    assert hand.stacks() == [49, 51]


def test_a_bet_called_all_in_for_less_returns_the_excess():
    # Player 0 is left with 3 chips on fourth street and calls a bet of 4 all in
    cards = {0: THREE[0], 1: THREE[1]}
    hand = stacked_hand(Rules(), NO_ANTE, [4, 50], cards).play("bring_in", "call", "bet", "call")

    assert hand.events("return") == [{"type": "return", "player": 1, "amount": 1}]
    # No one left to bet: the cards ran out; player 1's king-high straight showed first
    hand.act("muck")
    assert hand.stacks() == [0, 54]


def test_an_all_in_player_runs_the_cards_out_with_no_more_betting():
    cards = {0: THREE[0], 1: THREE[1]}
    hand = stacked_hand(Rules(), NO_ANTE, [1, 50], cards).play("bring_in", "call")

    assert hand.state.is_over
    assert [len(p.down) + len(p.up) for p in hand.state.players] == [7, 7]
    assert [e["action"] for e in hand.events("action")] == ["bring_in", "call"]
    assert hand.stacks() == [0, 51]


def test_side_pots_for_several_all_in_amounts_go_to_their_eligible_players():
    # Given antes of 10 that put players 0 and 1 all in (3 and 6) and player 2 nearly (10 of 11)
    stakes = Stakes(ante=10, bring_in=2, small_bet=20, big_bet=40)
    cards = {
        0: "AcAd Ah As Kc Kd Qc",  # four aces: best
        1: "KhKs Qh Qd Qs 9c 9d",  # queens full of kings: second
        2: "JcJd 2c Jh 3d 4h 5s",  # three jacks: third (and brings in with the 2c)
        3: "6c7d 8h Ts 2d 3h 4c",  # ten high: worst
    }
    hand = stacked_hand(Rules(), stakes, [3, 6, 11, 50], cards)
    assert hand.state.pots() == [(12, (0, 1, 2, 3)), (9, (1, 2, 3)), (8, (2, 3))]

    # When player 2 brings in all in for 1 and player 3 calls the full bring-in (2)
    hand.play("bring_in", "call")

    # Then the uncalled chip goes back, every pot goes to its best eligible hand
    assert hand.events("return") == [{"type": "return", "player": 3, "amount": 1}]
    assert hand.events("showdown") == [{"type": "showdown", "order": [0, 1, 2, 3]}]
    hand.act("muck")  # player 3 cannot win any pot
    assert [(e["pot"], e["player"], e["amount"]) for e in hand.events("award")] == [
        (0, 0, 12),
        (1, 1, 9),
        (2, 2, 10),
    ]
    assert hand.stacks() == [12, 9, 10, 39]


def test_folded_chips_stay_in_the_pot_but_their_owner_is_not_eligible():
    hand = stacked_hand(Rules(), NO_ANTE, [50, 50, 50], THREE).play("bring_in", "complete")
    hand.act("call").act("fold")

    assert hand.state.pots() == [(9, (1, 2))]


# Issue 8, defect 7: a mucked all-in hand must not merge its pots. Player 0 is all in for 2
# (ante and bring-in); players 1 and 2 tie for high with aces and kings, queen kicker, and
# nobody has a qualifying low. Main pot 9 (players 0, 1, 2; player 3 folded his ante, player 4
# his 2), side pot 17 (players 1 and 2; player 4's 3 more). Each odd chip goes to player 2,
# who holds the As (TDA 20-B), so 5 + 9 = 14 against 4 + 8 = 12; one merged pot of 26 would
# be split 13/13.
TIED_HIGH_WITH_AN_ALL_IN_LOSER = {
    0: "TsTd 3s 4h 5h Jh 2c",
    1: "AhAd Kc Kd Qs Jc 9h",
    2: "AsAc Kh Ks Qc Jd 9d",
    3: "6c4c 9s",
    4: "5c5d 8d 6s",
}


def _all_in_loser_reaches_the_showdown():
    hand = stacked_hand(
        Rules(Variant.STUD_8), STAKES, [2, 100, 100, 100, 100], TIED_HIGH_WITH_AN_ALL_IN_LOSER
    )
    hand.play("bring_in", "complete", "call", "fold", "call")  # player 0 all in for 2
    hand.play(("bet", 4), "call", "fold")  # fourth street; player 4 gave up 5 in all
    while hand.state.phase != "showdown":
        hand.act("check")
    assert hand.state.pots() == [(9, (0, 1, 2)), (17, (1, 2))]
    assert hand.state.actor == 0  # players 1 and 2 had to show; player 0 may muck
    return hand


def test_a_mucked_all_in_hand_leaves_each_pot_split_on_its_own():
    hand = _all_in_loser_reaches_the_showdown().act("muck")

    assert [(e["pot"], e["player"], e["amount"]) for e in hand.events("award")] == [
        (0, 2, 5),
        (0, 1, 4),
        (1, 2, 9),
        (1, 1, 8),
    ]
    assert hand.stacks() == [0, 103, 105, 99, 95]  # merged, it was [0, 104, 104, 99, 95]


def test_the_pots_are_the_same_whether_the_all_in_loser_shows_or_mucks():
    shown = _all_in_loser_reaches_the_showdown().act("show")
    mucked = _all_in_loser_reaches_the_showdown().act("muck")

    assert shown.stacks() == mucked.stacks() == [0, 103, 105, 99, 95]
    assert [(e["pot"], e["player"], e["amount"]) for e in shown.events("award")] == [
        (e["pot"], e["player"], e["amount"]) for e in mucked.events("award")
    ]


# Issue 36, defect 1: heads-up third street, the bring-in not yet called, showed a side pot of
# 2 that nobody was all in for. The pots are what is in the middle; bets of the street being
# played stand in front of their players until the round closes.
def test_a_bet_nobody_has_called_yet_is_in_front_of_its_player_not_a_side_pot():
    hand = stacked_hand(Rules(), STAKES, [50, 50], {0: THREE[0], 1: THREE[1]})
    hand.play("bring_in")
    bring_in = hand.state.players[0].street_bet

    assert hand.state.pots_in_middle() == [(2 * STAKES.ante, (0, 1))]
    assert bring_in == STAKES.bring_in
    assert len(hand.state.pots()) == 2  # the engine's own accounting cuts at every amount

    hand.play("complete")
    assert hand.state.pots_in_middle() == [(2 * STAKES.ante, (0, 1))]
    hand.play("call")  # the round closes: the bets go to the middle, still one pot
    assert hand.state.pots_in_middle() == [(2 * STAKES.ante + 2 * STAKES.small_bet, (0, 1))]


def test_a_side_pot_appears_in_the_middle_once_someone_is_all_in_for_less():
    stakes = Stakes(ante=10, bring_in=2, small_bet=20, big_bet=40)
    hand = stacked_hand(
        Rules(),
        stakes,
        [3, 6, 11, 50],
        {
            0: "AcAd Ah As Kc Kd Qc",
            1: "KhKs Qh Qd Qs 9c 9d",
            2: "JcJd 2c Jh 3d 4h 5s",
            3: "6c7d 8h Ts 2d 3h 4c",
        },
    )
    # Antes all in for 3 and 6 are closed: side pots for those all in for less.
    assert hand.state.pots_in_middle() == [(12, (0, 1, 2, 3)), (9, (1, 2, 3)), (8, (2, 3))]
