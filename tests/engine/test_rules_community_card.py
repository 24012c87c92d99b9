"""Running out of cards on seventh street: one community card (docs/rules.md 5)."""

from games.engine.events import to_dicts
from games.engine.rules import Rules
from tests.engine.helpers import STAKES, stacked_hand

# Eight players, 48 cards to sixth street; player 0's pair of nines leads from fourth street.
# The community As would give player 1 a pair of aces on board (but the seventh card is
# not a board card) and player 7 an ace-high flush.
EIGHT = {
    0: "2c2d 9c 9d 8h 3s",
    1: "2h2s Ac Kd Qh 4s",
    2: "3c3d Kc 5s 6c 7d",
    3: "3h4c Qc 5d 6d 7h",
    4: "4d4h Jc 5h 6h 7s",
    5: "5c8c Tc Jd Qd 6s",
    6: "8d8s Td Jh Kh 7c",
    7: "9h9s Th Js Ks Qs",
}


def to_seventh(hand):
    hand.act("bring_in")
    while hand.state.street_name == "third":
        hand.act("call")
    while hand.state.street_name != "seventh":
        hand.act("check")
    return hand


def seventh_street_deals(hand):
    log = to_dicts(hand.state.log)
    start = log.index({"type": "street", "street": "seventh"})
    return [e for e in log[start:] if e["type"] in ("deal", "burn")]


def test_eight_players_on_seventh_street_share_one_community_card_face_up():
    hand = to_seventh(stacked_hand(Rules(), STAKES, [100] * 8, EIGHT, community="As"))

    assert seventh_street_deals(hand) == [
        {"type": "deal", "player": None, "card": "As", "up": True}
    ]
    assert repr(hand.state.community) == "As"
    assert all(len(hand.state.hole_cards(i)) == 7 for i in range(8))
    assert all(len(p.up) == 4 and len(p.down) == 2 for p in hand.state.players)


def test_the_community_card_plays_in_every_hand():
    hand = to_seventh(stacked_hand(Rules(), STAKES, [100] * 8, EIGHT, community="As"))
    while not hand.state.is_over:
        hand.act("check" if hand.state.phase != "showdown" else "muck")

    awards = hand.events("award")
    assert [(e["player"], e["hand"]) for e in awards] == [(7, "a flush, ace high")]


def test_the_sixth_street_first_actor_acts_first_with_a_community_card():
    # The face-up As would pair player 1's board if it counted as a board card
    hand = to_seventh(stacked_hand(Rules(), STAKES, [100] * 8, EIGHT, community="As"))

    assert hand.state.actor == 0


def test_enough_cards_for_everyone_after_a_fold_means_no_community_card():
    # One fold on third street: 45 cards dealt by sixth, 7 left for 7 players
    hand = stacked_hand(Rules(), STAKES, [100] * 8, {}, fill=True).act("bring_in")
    folder = hand.state.actor
    hand.act("fold")
    while hand.state.street_name == "third":
        hand.act("call")
    while hand.state.street_name != "seventh":
        hand.act("check")

    deals = seventh_street_deals(hand)
    assert [(e["player"], e["up"]) for e in deals] == [(i, False) for i in range(8) if i != folder]
    assert hand.state.community is None
    assert hand.state.cards_left() == 0


def test_seven_players_without_burns_get_their_own_seventh_card():
    hand = to_seventh(stacked_hand(Rules(), STAKES, [100] * 7, {}, fill=True))

    assert [(e["player"], e["up"]) for e in seventh_street_deals(hand)] == [
        (i, False) for i in range(7)
    ]


def test_burn_cards_one_burn_before_each_street():
    hand = to_seventh(stacked_hand(Rules(burn_cards=True), STAKES, [100] * 7, {}, fill=True))

    streets_and_burns = [e.type for e in hand.state.log if e.type in ("street", "burn")]
    assert streets_and_burns[:10] == ["street", "burn"] * 5


def test_burn_cards_make_seven_players_run_short_burn_then_community_card():
    # 21 + 21 dealt and 4 burned by sixth street: 6 left for 7 players
    hand = to_seventh(stacked_hand(Rules(burn_cards=True), STAKES, [100] * 7, {}, fill=True))

    deals = seventh_street_deals(hand)
    assert [(e["type"], e.get("player"), e.get("up")) for e in deals] == [
        ("burn", None, None),
        ("deal", None, True),
    ]
    assert hand.state.community is not None


def test_burn_cards_with_eight_players_the_community_card_comes_from_the_burns():
    # 48 dealt and 4 burned: the deck is empty, so a burned card is dealt face up to all
    hand = stacked_hand(
        Rules(burn_cards=True), STAKES, [100] * 8, EIGHT, burns="Ts Ad Ah As", community="As"
    )
    to_seventh(hand)

    assert len(hand.events("burn")) == 4
    assert seventh_street_deals(hand) == [
        {"type": "deal", "player": None, "card": "As", "up": True}
    ]
    assert hand.state.actor == 0
