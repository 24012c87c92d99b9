"""PHH import, strict replay and export (games.engine.phh), on the 30 real WSOP stud hands.

The hands are in tests/engine/data/phh (see its README for the source and licence).
"""

import random
import tomllib
from pathlib import Path

import pytest

from games.engine.events import Muck, Show, to_dicts
from games.engine.phh import (
    Phh,
    PhhError,
    check_finishing_stacks,
    dump_phh,
    finishing_stacks_match,
    load_phh,
    replay_phh,
    stacks_after,
)
from games.engine.play import first_not_fold, play_hand, random_choice_with
from games.engine.rules import Rules, Stakes, Variant
from games.engine.state import HandState

DATA = Path(__file__).parent / "data" / "phh"
WSOP_FILES = sorted(DATA.glob("*.phh"), key=lambda path: int(path.stem))
HAND_50_FINISH = [4575000, 1700000, 14750000, 5900000, 2775000]  # 50.phh's finishing_stacks


def read(name: str) -> str:
    return (DATA / name).read_text(encoding="utf-8")


def replayed(text: str) -> tuple[Phh, HandState]:
    phh = load_phh(text)
    return phh, replay_phh(phh)


def actions_line(text: str) -> list[str]:
    actions: list[str] = tomllib.loads(text)["actions"]
    return actions


def with_actions(text: str, actions: list[str]) -> str:
    lines = [
        f"actions = {actions!r}" if line.startswith("actions = ") else line
        for line in text.splitlines()
    ]
    return "\n".join(lines) + "\n"


def error_of(text: str) -> str:
    with pytest.raises(PhhError) as caught:
        phh, state = replayed(text)
        check_finishing_stacks(phh, state)
    return str(caught.value)


# ----------------------------------------------------------------------------- the WSOP hands


def test_the_dataset_has_the_30_wsop_hands_of_all_three_variants():
    variants = [load_phh(path.read_text(encoding="utf-8")).variant for path in WSOP_FILES]

    assert len(WSOP_FILES) == 30
    assert (variants.count("F7S"), variants.count("F7S/8"), variants.count("FR")) == (13, 7, 10)


@pytest.mark.parametrize("path", WSOP_FILES, ids=lambda path: path.name)
def test_every_wsop_hand_replays_to_its_finishing_stacks(path):
    phh, state = replayed(path.read_text(encoding="utf-8"))

    assert state.is_over
    assert phh.finishing_stacks is not None
    assert stacks_after(state) == list(phh.finishing_stacks)
    assert finishing_stacks_match(phh, state) is True


@pytest.mark.parametrize("path", WSOP_FILES, ids=lambda path: path.name)
def test_every_wsop_hand_exported_back_to_phh_replays_the_same(path):
    phh, state = replayed(path.read_text(encoding="utf-8"))

    public = dump_phh(state, players=phh.players, **phh.metadata)
    internal = dump_phh(state, players=phh.players, show_all_cards=True, **phh.metadata)

    again_phh, again = replayed(public)
    assert stacks_after(again) == list(phh.finishing_stacks or ())
    assert again_phh.finishing_stacks == phh.finishing_stacks
    assert again_phh.players == phh.players
    assert again_phh.metadata == phh.metadata
    assert replayed(internal)[1] == state  # every card known: the very same log


def test_exports_are_read_by_pokerkit_to_the_same_stacks():
    hand_history = pytest.importorskip("pokerkit").HandHistory
    for path in WSOP_FILES:
        _phh, state = replayed(path.read_text(encoding="utf-8"))
        for show_all_cards in (False, True):
            *_, last = hand_history.loads(dump_phh(state, show_all_cards=show_all_cards))
            assert list(last.stacks) == stacks_after(state), path.name


# ----------------------------------------------------------------------------- strict replay


def test_an_out_of_turn_action_is_an_error_naming_the_action_and_the_player_to_act():
    text = read("10.phh").replace("'p3 f', 'p4 cbr 200000'", "'p4 cbr 200000', 'p3 f'")

    assert error_of(text) == (
        "actions[6] 'p4 cbr 200000': it is not player 4's turn (player 3 is to act)"
    )


def test_an_illegal_amount_is_an_error_naming_the_legal_one():
    text = read("10.phh").replace("'p4 cbr 200000'", "'p4 cbr 300000'")

    assert error_of(text) == (
        "actions[7] 'p4 cbr 300000': complete to 300000 is not a legal amount: fixed limit "
        "allows complete to 200000 (the amount is your total on this street)"
    )


def test_a_garbage_line_is_an_error_naming_the_line():
    text = read("10.phh").replace("bring_in = 50000", "bring_in = 50000\nthis is not phh")

    assert error_of(text) == (
        "not valid PHH (TOML): Expected '=' after a key in a key/value pair (at line 5, column 6)"
    )


def test_a_garbage_action_is_an_error_naming_the_action():
    text = read("10.phh").replace("'p3 f',", "'p3 xx',")

    assert error_of(text) == (
        "actions[6] 'p3 xx': not a stud action (expected 'd dh pN CARDS', 'd db CARD', "
        "'pN pb', 'pN cbr AMOUNT', 'pN cc', 'pN f' or 'pN sm [CARDS]')"
    )


def test_an_unknown_player_is_an_error():
    text = read("10.phh").replace("'p3 f',", "'p6 f',")

    assert error_of(text) == "actions[6] 'p6 f': 'p6' is not a player p1..p5"


def test_an_action_before_the_deal_is_complete_is_an_error():
    text = read("10.phh").replace("'d dh p5 Qc9c9s', ", "")

    assert (
        error_of(text) == "actions[4] 'p2 pb': cards are still due: the next card is for player 5"
    )


def test_more_cards_than_the_street_deals_is_an_error():
    text = read("10.phh").replace("'d dh p1 5d2sAd'", "'d dh p1 5d2sAdKc'")

    assert error_of(text) == (
        "actions[0] 'd dh p1 5d2sAdKc': deals more cards to player 1 than the hand needs now "
        "(player 2 is to act)"
    )


def test_a_card_dealt_twice_is_an_error():
    text = read("10.phh").replace("'d dh p2 7h3s4h'", "'d dh p2 7h3s5d'")

    assert error_of(text) == "actions[1] 'd dh p2 7h3s5d': card dealt twice: 5d"


def test_a_history_that_stops_before_the_hand_is_over_is_an_error():
    text = read("10.phh").replace(", 'p2 f']", "]")

    assert error_of(text) == (
        "the history stops after actions[9] 'p1 f' before the hand is over: player 2 is to act"
    )


def test_finishing_stacks_that_differ_from_the_replay_are_an_error():
    text = read("10.phh").replace("finishing_stacks = [2550000", "finishing_stacks = [2550001")

    assert error_of(text) == (
        "finishing stacks differ for player(s) p1: the history says "
        "[2550001, 11150000, 4425000, 6925000, 4650000], the replay gives "
        "[2550000, 11150000, 4425000, 6925000, 4650000]"
    )


def test_antes_that_differ_between_players_are_an_error():
    text = read("10.phh").replace("antes = [50000, 50000,", "antes = [50000, 25000,")

    assert error_of(text) == (
        "antes differ between players [50000, 25000, 50000, 50000, 50000]: the engine takes one "
        "ante for every player"
    )


def test_a_variant_that_is_not_stud_is_an_error():
    assert error_of(read("10.phh").replace("'F7S'", "'NT'")) == (
        "variant 'NT' is not a stud game: use one of F7S, F7S/8, FR"
    )


def test_fractional_chips_are_an_error():
    assert error_of(read("10.phh").replace("bring_in = 50000", "bring_in = 0.5")) == (
        "bring_in must be a whole number of chips >= 0, not 0.5"
    )


def test_a_missing_field_is_an_error():
    assert error_of(read("10.phh").replace("small_bet = 200000\n", "")) == (
        "missing field(s): small_bet"
    )


def test_comments_in_actions_are_ignored():
    text = read("10.phh").replace("'p3 f',", "'p3 f # folds fast', '# a note',")

    assert stacks_after(replayed(text)[1]) == [2550000, 11150000, 4425000, 6925000, 4650000]


def test_the_variant_gives_the_engine_rules_with_default_options():
    assert load_phh(read("10.phh")).rules == Rules(Variant.STUD_HI)
    assert load_phh(read("49.phh")).rules == Rules(Variant.STUD_8)
    assert load_phh(read("85.phh")).rules == Rules(Variant.RAZZ)


# ----------------------------------------------------------------------------- readings


def test_a_raise_to_the_only_opponents_all_in_is_taken_as_the_fixed_raise():
    # 85.phh, sixth street: p1 bets 600000 with 750000 left on the street; p2 "raises to
    # 750000", p1's all-in. The fixed raise is to 1200000; p1 calls all in for 750000 and the
    # uncalled 450000 goes back to p2.
    _phh, state = replayed(read("85.phh"))

    log = to_dicts(state.log)
    raise_at = log.index({"type": "action", "player": 1, "action": "raise", "to": 1200000})
    assert log[raise_at - 1 : raise_at + 3] == [
        {"type": "action", "player": 0, "action": "bet", "to": 600000},
        {"type": "action", "player": 1, "action": "raise", "to": 1200000},
        {"type": "action", "player": 0, "action": "call", "to": 750000},
        {"type": "return", "player": 1, "amount": 450000},
    ]


def test_a_raise_to_less_than_the_opponents_all_in_is_still_an_error():
    text = read("85.phh").replace("'p2 cbr 750000'", "'p2 cbr 700000'")

    assert error_of(text) == (
        "actions[18] 'p2 cbr 700000': raise to 700000 is not a legal amount: fixed limit allows "
        "raise to 1200000 (the amount is your total on this street)"
    )


def test_the_all_in_reading_needs_a_single_opponent_with_chips():
    # 10.phh: p4 completes with three opponents still holding chips; "to" p1's whole street
    # total is not the fixed completion.
    text = read("10.phh").replace("'p4 cbr 200000'", "'p4 cbr 2550000'")

    assert error_of(text) == (
        "actions[7] 'p4 cbr 2550000': complete to 2550000 is not a legal amount: fixed limit "
        "allows complete to 200000 (the amount is your total on this street)"
    )


def test_shows_before_the_last_card_while_all_in_are_taken_at_the_showdown():
    _phh, state = replayed(read("85.phh"))

    shows = [event.to_dict() for event in state.log if event.type == "show"]
    assert shows == [
        {"type": "show", "player": 1, "cards": ["4h", "3d", "7h"]},
        {"type": "show", "player": 0, "cards": ["8c", "2h", "Kh"]},
    ]


def test_a_show_before_the_showdown_while_betting_goes_on_is_an_error():
    actions = actions_line(read("11.phh"))
    actions.insert(14, "p1 sm QhTcTh")  # after third street, before fourth is dealt

    assert error_of(with_actions(read("11.phh"), actions)) == (
        "actions[14] 'p1 sm QhTcTh': show is only for the showdown"
    )


def test_a_history_that_ends_at_the_showdown_is_completed_by_the_mandatory_shows():
    actions = [a for a in actions_line(read("50.phh")) if " sm " not in a]
    _phh, state = replayed(with_actions(read("50.phh"), actions))

    assert stacks_after(state) == HAND_50_FINISH
    assert [e.player for e in state.log if isinstance(e, Show | Muck)] == [0, 2]


def test_a_show_tells_cards_dealt_as_unknown():
    actions = actions_line(read("50.phh"))
    actions[0] = "d dh p1 ????6d"
    actions[24] = "d dh p1 ??"
    _phh, state = replayed(with_actions(read("50.phh"), actions))

    assert [repr(card) for card in state.players[0].down] == ["6s", "5h", "Jc"]
    assert stacks_after(state) == HAND_50_FINISH


def test_a_show_may_name_only_the_down_cards():
    actions = actions_line(read("50.phh"))
    actions[-2] = "p1 sm 6s5hJc"

    assert stacks_after(replayed(with_actions(read("50.phh"), actions))[1]) == HAND_50_FINISH


def test_a_show_that_contradicts_the_dealt_cards_is_an_error():
    actions = actions_line(read("50.phh"))
    actions[-2] = "p1 sm 6s5h6dAs4h7sJd"

    assert error_of(with_actions(read("50.phh"), actions)) == (
        "actions[29] 'p1 sm 6s5h6dAs4h7sJd': shows Jd where Jc was dealt"
    )


def test_unknown_cards_that_must_be_shown_are_an_error():
    actions = [a for a in actions_line(read("50.phh")) if " sm " not in a]
    actions[0] = "d dh p1 ????6d"

    assert error_of(with_actions(read("50.phh"), actions)) == (
        "the history ends at the showdown, which cannot be completed: player 1's cards are "
        "unknown and cannot be shown"
    )


def test_the_dealing_lines_of_a_street_may_come_in_any_seat_order():
    actions = actions_line(read("10.phh"))
    actions[:5] = reversed(actions[:5])

    assert stacks_after(replayed(with_actions(read("10.phh"), actions))[1]) == [
        2550000,
        11150000,
        4425000,
        6925000,
        4650000,
    ]


# ----------------------------------------------------------------------------- export


def test_export_hides_the_down_cards_of_players_who_did_not_show():
    # 11.phh: p1 shows, p2 mucks at the showdown, p3 and p4 folded on third street.
    _phh, state = replayed(read("11.phh"))

    actions = actions_line(dump_phh(state))

    assert actions[:5] == [
        "d dh p1 QhTcTh",
        "d dh p2 ????2c",
        "d dh p3 ????8c",
        "d dh p4 ????4s",
        "d dh p5 ????8d",
    ]
    assert actions[29:] == [
        "d dh p1 6d",
        "d dh p2 ??",
        "p1 cc",
        "p2 cc",
        "p1 sm QhTcTh6cKcAh6d",
        "p2 sm",
    ]


def test_export_with_show_all_cards_writes_every_card():
    _phh, state = replayed(read("11.phh"))

    actions = actions_line(dump_phh(state, show_all_cards=True))

    assert actions[1] == "d dh p2 JsJc2c"
    assert actions[30] == "d dh p2 9c"


def test_export_writes_the_game_fields_players_metadata_and_finishing_stacks():
    _phh, state = replayed(read("10.phh"))

    text = dump_phh(state, players=["A", "B", "C", "D", "E"], event="O'Brien's game", hand=10)

    assert text.splitlines()[:6] == [
        "variant = 'F7S'",
        "antes = [50000, 50000, 50000, 50000, 50000]",
        "bring_in = 50000",
        "small_bet = 200000",
        "big_bet = 400000",
        "starting_stacks = [2600000, 11250000, 4475000, 6675000, 4700000]",
    ]
    assert text.splitlines()[7:] == [
        "event = \"O'Brien's game\"",
        "hand = 10",
        "players = ['A', 'B', 'C', 'D', 'E']",
        "finishing_stacks = [2550000, 11150000, 4425000, 6925000, 4650000]",
    ]
    assert load_phh(text).metadata == {"event": "O'Brien's game", "hand": 10}


def test_export_refuses_metadata_that_would_overwrite_a_game_field():
    _phh, state = replayed(read("10.phh"))

    with pytest.raises(ValueError, match="metadata may not set the game fields antes"):
        dump_phh(state, antes=[0])


def test_random_hands_round_trip_through_phh_and_never_leak_unshown_down_cards():
    for seed in range(300):
        rng = random.Random(seed)
        stacks = [rng.choice([1, 3, 8, 20, 60, 200]) for _ in range(rng.randint(2, 8))]
        rules = Rules(rng.choice(list(Variant)))
        state = play_hand(rules, Stakes(2, 3, 10, 20), stacks, rng, random_choice_with(rng))

        public = dump_phh(state)
        internal = replay_phh(load_phh(dump_phh(state, show_all_cards=True)))

        assert stacks_after(replay_phh(load_phh(public))) == stacks_after(state), seed
        assert internal.log == state.log, seed
        hidden = [c for p in state.players if not p.shown for c in p.down]
        assert [repr(card) for card in hidden if repr(card) in public] == [], seed


def test_the_community_card_is_written_and_read_as_a_board_card():
    # Eight players who all call to seventh street: four cards are left for eight players.
    state = play_hand(Rules(), Stakes(1, 2, 5, 10), [100] * 8, random.Random(3), first_not_fold)

    text = dump_phh(state)

    assert "'d db 6s'" in text
    assert replay_phh(load_phh(text)).community == state.community


def test_a_hand_in_fives_round_trips_with_its_smallest_chip():
    # Ties are shared in the smallest chip in play (docs/rules.md 8): the export says which in the
    # PHH user-defined field _chip_unit, so a replay shares them the same way
    for seed in range(200):
        rng = random.Random(seed)
        stacks = [rng.choice([5, 15, 40, 100, 300]) for _ in range(rng.randint(2, 8))]
        rules = Rules(rng.choice(list(Variant)))
        stakes = Stakes(5, 5, 10, 20, unit=5)
        state = play_hand(rules, stakes, stacks, rng, random_choice_with(rng))

        text = dump_phh(state, show_all_cards=True)
        phh = load_phh(text)

        assert "_chip_unit = 5" in text and phh.chip_unit == 5 and not phh.metadata, seed
        assert replay_phh(phh).log == state.log, seed
        assert all(stack % 5 == 0 for stack in stacks_after(state)), seed
    plain = play_hand(Rules(), Stakes(1, 2, 5, 10), [50, 50], rng, first_not_fold)
    assert "_chip_unit" not in dump_phh(plain)


def test_pokerkit_reads_an_export_with_the_smallest_chip():
    hand_history = pytest.importorskip("pokerkit").HandHistory
    state = play_hand(
        Rules(), Stakes(5, 5, 10, 20, unit=5), [100, 100], random.Random(1), first_not_fold
    )
    *_, last = hand_history.loads(dump_phh(state))
    assert sum(last.stacks) == 200
