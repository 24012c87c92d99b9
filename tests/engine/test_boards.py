"""Exposed boards: bring-in and who acts first (docs/rules.md section 4, items 3 and 7)."""

import pytest

from games.engine.boards import (
    bring_in_key,
    high_board_key,
    high_card_by_suit_key,
    low_board_key,
    low_card_by_suit_key,
)
from games.engine.cards import parse_cards


def high_board(text: str) -> tuple[int, ...]:
    return high_board_key(parse_cards(text))


def low_board(text: str) -> tuple[int, ...]:
    return low_board_key(parse_cards(text))


def bring_in(text: str, razz: bool) -> str:
    return repr(min(parse_cards(text), key=lambda card: bring_in_key(card, razz)))


# --- high boards ----------------------------------------------------------------------------


def test_a_pair_beats_high_cards():
    assert high_board("2c 2d") > high_board("As Kh")


def test_two_pair_beats_a_pair():
    assert high_board("3c 3d 2h 2s") > high_board("Ac Ad Kh Qs")


def test_trips_beat_two_pair():
    assert high_board("2c 2d 2h 5s") > high_board("Ac Ad Kh Ks")


def test_quads_beat_trips():
    assert high_board("2c 2d 2h 2s") > high_board("Ac Ad Ah Ks")


def test_the_higher_pair_wins():
    assert high_board("9c 9d 2h") > high_board("8c 8d Ah")


def test_two_pair_compares_the_top_pair_then_the_second():
    assert high_board("Kc Kd 2h 2s") > high_board("Qc Qd Jh Js")
    assert high_board("Kc Kd 5h 5s") > high_board("Kh Ks 4h 4s")


def test_kickers_decide_equal_pairs():
    assert high_board("9c 9d Ah 3s") > high_board("9h 9s Kh Qs")
    assert high_board("9c 9d Ah 4s") > high_board("9h 9s Ac 3s")


def test_high_cards_compare_from_the_top_down():
    assert high_board("Ac 7d") > high_board("Kc Qd")
    assert high_board("Ac 7d 3h") > high_board("Ah 6s 5c")


def test_straights_and_flushes_do_not_count_on_a_board():
    assert high_board("5h 6h 7h 8h") < high_board("2c 2d 3h 4s")
    assert high_board("5h 6h 7h 8h") < high_board("Ac 3d 4h 5s")


def test_suits_tie_on_a_high_board():
    assert high_board("Ac Kd") == high_board("Ah Ks")


def test_board_key_shape():
    assert high_board("9c 9d Ah") == (1, 9, 14)
    assert high_board("Ks") == (0, 13)


@pytest.mark.parametrize("count", [0, 5])
def test_a_board_has_one_to_four_cards(count):
    with pytest.raises(ValueError, match=f"not {count}"):
        high_board_key(parse_cards("2c 3d 4h 5s 6c")[:count])


# --- low boards (razz, and "leads low" in stud_8) ------------------------------------------------


def test_the_lower_board_is_the_better_low_board():
    assert low_board("7c 2d") > low_board("8c Ad")
    assert low_board("7c 5d 4h") > low_board("7h 6s Ac")


def test_aces_are_low_on_a_low_board():
    assert low_board("Ac 5d") > low_board("2c 5h")


def test_any_unpaired_low_board_beats_a_paired_one():
    assert low_board("Kc Qd") > low_board("Ac Ad")


def test_the_lower_pair_is_the_better_low_board():
    assert low_board("3c 3d Kh") > low_board("4c 4d 2h")


def test_two_pair_beats_trips_on_a_low_board():
    assert low_board("Kc Kd Qh Qs") > low_board("2c 2d 2h As")


def test_straights_and_flushes_do_not_spoil_a_low_board():
    assert low_board("2h 3h 4h 5h") == low_board("2c 3d 4s 5c")


# --- bring-in ------------------------------------------------------------------------------------


def test_the_lowest_upcard_brings_in():
    assert bring_in("Kc 3s 9d", razz=False) == "3s"


def test_the_ace_is_high_for_the_bring_in_in_stud():
    assert bring_in("Ac Kd", razz=False) == "Kd"


def test_the_lowest_suit_brings_in_among_equal_ranks():
    assert bring_in("2s 2h 2d", razz=False) == "2d"
    assert bring_in("5h 5c 5s", razz=False) == "5c"


def test_in_razz_the_highest_upcard_brings_in_with_the_ace_low():
    assert bring_in("Kc 3s Qd", razz=True) == "Kc"
    assert bring_in("Ac 2d", razz=True) == "2d"


def test_in_razz_the_highest_suit_brings_in_among_equal_ranks():
    assert bring_in("Kc Ks Kd", razz=True) == "Ks"


# --- card by suit (odd chips, board_tie = suit) --------------------------------------------------


def test_high_card_by_suit_takes_the_rank_first_then_the_suit():
    assert high_card_by_suit_key(parse_cards("Kc Kh 5d")) == (13, 2)
    assert high_card_by_suit_key(parse_cards("Ac 5s")) == (14, 0)
    assert high_card_by_suit_key(parse_cards("9s Kh")) > high_card_by_suit_key(parse_cards("9h Kd"))


def test_low_card_by_suit_prefers_the_lowest_rank_with_the_ace_low_then_the_lowest_suit():
    assert low_card_by_suit_key(parse_cards("Kc Ah")) > low_card_by_suit_key(parse_cards("2c 3d"))
    assert low_card_by_suit_key(parse_cards("Kc 2d")) > low_card_by_suit_key(parse_cards("2h 3c"))
