"""The ``stud`` command (games.engine.cli): replay, verify and bench."""

import json
import subprocess
import sys
import types
from pathlib import Path

import pytest

from games.engine import cli
from games.engine.actions import Action
from games.engine.fairness import CardProof, commit_deck, commitment, dealt_positions
from games.engine.play import first_not_fold
from games.engine.proof_check import dealing_order
from games.engine.replay import header
from games.engine.rules import Rules, Stakes
from games.engine.state import HandState, Option
from games.engine.views import HIDDEN, event_for, log_for

DATA = Path(__file__).parent / "data" / "phh"
ROOT = Path(__file__).resolve().parents[2]
SEED = bytes(range(32))


def json_lines(text: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in text.splitlines()]


def bad_copy(tmp_path: Path, name: str, old: str, new: str) -> str:
    text = (DATA / name).read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / f"bad-{name}"
    path.write_text(text.replace(old, new), encoding="utf-8")
    return str(path)


# ----------------------------------------------------------------------------- replay


def test_replay_prints_one_json_line_per_file(capsys):
    files = [str(DATA / "10.phh"), str(DATA / "85.phh")]

    status = cli.main(["replay", *files])

    out, err = capsys.readouterr()
    assert status == 0
    assert err == ""
    assert json_lines(out) == [
        {
            "file": files[0],
            "variant": "F7S",
            "finishing_stacks": [2550000, 11150000, 4425000, 6925000, 4650000],
            "matches": True,
        },
        {"file": files[1], "variant": "FR", "finishing_stacks": [0, 29700000], "matches": True},
    ]


def test_replay_of_all_30_wsop_hands_matches(capsys):
    files = sorted(str(path) for path in DATA.glob("*.phh"))

    status = cli.main(["replay", *files])

    lines = json_lines(capsys.readouterr().out)
    assert status == 0
    assert [line["file"] for line in lines] == files
    assert all(line["matches"] is True for line in lines)


def test_replay_leaves_out_matches_when_the_file_has_no_finishing_stacks(tmp_path, capsys):
    path = bad_copy(
        tmp_path, "10.phh", "finishing_stacks = [2550000, 11150000, 4425000, 6925000, 4650000]", ""
    )

    status = cli.main(["replay", path])

    assert status == 0
    assert json_lines(capsys.readouterr().out) == [
        {
            "file": path,
            "variant": "F7S",
            "finishing_stacks": [2550000, 11150000, 4425000, 6925000, 4650000],
        }
    ]


def test_a_bad_file_fails_the_run_but_the_others_are_still_replayed(tmp_path, capsys):
    bad = bad_copy(tmp_path, "10.phh", "'p4 cbr 200000'", "'p4 cbr 300000'")
    files = [str(DATA / "11.phh"), bad, str(DATA / "85.phh")]

    status = cli.main(["replay", *files])

    out, err = capsys.readouterr()
    why = (
        "actions[7] 'p4 cbr 300000': complete to 300000 is not a legal amount: fixed limit "
        "allows complete to 200000 (the amount is your total on this street)"
    )
    assert status == 1
    assert json_lines(out) == [
        {
            "file": files[0],
            "variant": "F7S",
            "finishing_stacks": [4750000, 9500000, 4175000, 6675000, 4600000],
            "matches": True,
        },
        {"file": bad, "variant": "F7S", "error": why},
        {"file": files[2], "variant": "FR", "finishing_stacks": [0, 29700000], "matches": True},
    ]
    assert err == f"stud replay: {bad}: {why}\n"


def test_a_file_whose_finishing_stacks_differ_fails_with_matches_false(tmp_path, capsys):
    bad = bad_copy(
        tmp_path, "85.phh", "finishing_stacks = [0, 29700000]", "finishing_stacks = [1, 29700000]"
    )

    status = cli.main(["replay", bad])

    out, err = capsys.readouterr()
    assert status == 1
    assert json_lines(out) == [
        {"file": bad, "variant": "FR", "finishing_stacks": [0, 29700000], "matches": False}
    ]
    assert err == (
        f"stud replay: {bad}: finishing stacks differ for player(s) p1: the history says "
        "[1, 29700000], the replay gives [0, 29700000]\n"
    )


def test_an_unreadable_file_is_reported_by_name(tmp_path, capsys):
    bad = bad_copy(tmp_path, "10.phh", "bring_in = 50000", "bring_in = 50000\nnot phh")

    status = cli.main(["replay", bad])

    out, err = capsys.readouterr()
    why = "not valid PHH (TOML): Expected '=' after a key in a key/value pair (at line 5, column 5)"
    assert status == 1
    assert json_lines(out) == [{"file": bad, "error": why}]
    assert err == f"stud replay: {bad}: {why}\n"


def test_the_installed_command_replays_in_a_subprocess(tmp_path):
    stud = ROOT / ".venv" / "bin" / "stud"
    command = [str(stud)] if stud.exists() else [sys.executable, "-m", "games.engine.cli"]
    bad = bad_copy(tmp_path, "10.phh", "'p3 f', 'p4 cbr 200000'", "'p4 cbr 200000', 'p3 f'")

    done = subprocess.run(
        [*command, "replay", str(DATA / "49.phh"), bad],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )

    assert done.returncode == 1
    assert [line.get("matches") for line in json_lines(done.stdout)] == [True, None]
    assert done.stderr == (
        f"stud replay: {bad}: actions[6] 'p4 cbr 200000': it is not player 4's turn "
        "(player 3 is to act)\n"
    )


def test_no_command_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as exit_:
        cli.main([])

    assert exit_.value.code == 2
    assert "stud: error: the following arguments are required: COMMAND" in capsys.readouterr().err


# ----------------------------------------------------------------------------- verify


CLIENTS = ["alice's words", ""]
DECK = commit_deck(SEED, CLIENTS)
ROOT_HEX = DECK.root.hex()


def dealt_text(count: int) -> str:
    return "".join(repr(card) for card in DECK.order[:count])


def card_args(proof: CardProof, root: str = ROOT_HEX) -> list[str]:
    data = proof.to_dict()
    return [
        "verify", "card", root, "--position", str(data["position"]), "--card", data["card"],
        "--salt", data["salt"], "--path", *data["path"],
    ]  # fmt: skip


def test_verify_card_accepts_a_cards_proof_against_the_root(capsys):
    status = cli.main(card_args(DECK.proof(4)))

    assert status == 0
    result = json.loads(capsys.readouterr().out)
    assert result == {"card": repr(DECK.order[4]), "position": 4, "card_ok": True}


def test_verify_card_fails_for_another_card_or_position(capsys):
    proof = DECK.proof(4)
    other = DECK.order[5]

    assert cli.main(card_args(CardProof(4, other, proof.salt, proof.path))) == 1
    assert cli.main(card_args(CardProof(5, proof.card, proof.salt, proof.path))) == 1
    results = json_lines(capsys.readouterr().out)
    assert [r["card_ok"] for r in results] == [False, False]


def test_verify_card_refuses_a_malformed_salt(capsys):
    args = card_args(DECK.proof(0))
    args[args.index("--salt") + 1] = "00ff"

    assert cli.main(args) == 2
    assert "salt must be 64 hex digits" in capsys.readouterr().err


def test_verify_seed_accepts_the_seed_its_commitment_root_and_cards_in_dealing_order(capsys):
    status = cli.main(
        ["verify", "seed", SEED.hex(), commitment(SEED), "--client-seeds", *CLIENTS,
         "--root", ROOT_HEX, "--cards", dealt_text(7)]
    )  # fmt: skip

    result = json.loads(capsys.readouterr().out)
    assert status == 0
    assert result["commitment_ok"] is True and result["root_ok"] is True
    assert result["cards_ok"] is True
    assert result["deal_order"][:14] == dealt_text(7)
    assert result["card_root"] == ROOT_HEX


def test_verify_seed_fails_on_other_client_seeds_or_another_commitment(capsys):
    wrong_clients = ["verify", "seed", SEED.hex(), commitment(SEED), "--root", ROOT_HEX]
    wrong_commitment = ["verify", "seed", SEED.hex(), commitment(b"other")]

    assert cli.main(wrong_clients) == 1
    assert cli.main(wrong_commitment) == 1
    first, second = json_lines(capsys.readouterr().out)
    assert first["commitment_ok"] is True and first["root_ok"] is False
    assert second["commitment_ok"] is False


def test_verify_seed_names_the_first_card_that_was_not_dealt_from_the_deck(capsys):
    dealt = dealt_text(3)
    swapped = dealt[:2] + dealt[4:6] + dealt[2:4]

    status = cli.main(
        ["verify", "seed", SEED.hex(), commitment(SEED), "--client-seeds", *CLIENTS,
         "--cards", swapped]
    )  # fmt: skip

    result = json.loads(capsys.readouterr().out)
    assert status == 1
    assert result["cards_ok"] is False
    assert result["first_mismatch"] == {"position": 1, "dealt": dealt[4:6], "deck": dealt[2:4]}


def test_verify_seed_refuses_a_seed_that_is_not_hex(capsys):
    status = cli.main(["verify", "seed", "xyz", commitment(SEED)])

    assert status == 2
    assert capsys.readouterr().err == "stud verify: SEED_HEX is not hex: 'xyz'\n"


def fold_for(folder: int):
    """Player ``folder`` folds at once; the others call or check down."""

    def choose(state: HandState, options: list[Option]) -> Option:
        if state.actor == folder and options[0].action is Action.FOLD:
            return options[0]
        return first_not_fold(state, options)

    return choose


def played(folder: int = 2) -> HandState:
    """Three players dealt from DECK (position 0 first), ``folder`` folding."""
    state, deck, choose = (
        HandState(Rules(), Stakes(1, 2, 5, 10), [100] * 3),
        [*DECK.order][::-1],
        fold_for(folder),
    )
    while not state.is_over:
        state.deal_from(deck)
        if not state.is_over:
            option = choose(state, state.legal_actions())
            state.act(option.action, option.to)
    return state


def answer_for(state: HandState, you: int | None, *, seed: bool = False) -> dict[str, object]:
    """What the verify endpoint answers ``you`` for this hand (games.fair_dealing)."""
    cards = [
        {**DECK.proof(p).to_dict(), "kind": e.type, "player": getattr(e, "player", None),
         "up": getattr(e, "up", False)}
        for i, p in dealt_positions(state.log)
        if event_for(e := state.log[i], you, state)["card"] != HIDDEN
    ]  # fmt: skip
    return {
        "hand": 1, "table": 1, "start_seq": 1, "you": you, "header": header(state),
        "log": log_for(state, you), "card_root": ROOT_HEX, "commitment": commitment(SEED),
        "client_seeds": CLIENTS, "seed": SEED.hex() if seed else None, "cards": cards,
    }  # fmt: skip


def saved_answer(tmp_path: Path, answer: dict[str, object]) -> str:
    path = tmp_path / "verify.json"
    path.write_text(json.dumps(answer), encoding="utf-8")
    return str(path)


def verify_file(tmp_path: Path, answer: dict[str, object], *args: str) -> int:
    return cli.main(["verify", "file", saved_answer(tmp_path, answer), *args])


def test_dealing_order_is_the_engines_round_by_round_from_seat_1_for_the_live_players():
    state = played(folder=2)

    order = dealing_order(header(state), log_for(state, 0))

    slots = [(d.position, d.street, d.player, d.up) for d in order]
    assert slots[:11] == [
        (0, "third", 0, False), (1, "third", 1, False), (2, "third", 2, False),
        (3, "third", 0, False), (4, "third", 1, False), (5, "third", 2, False),
        (6, "third", 0, True), (7, "third", 1, True), (8, "third", 2, True),
        (9, "fourth", 0, True), (10, "fourth", 1, True),  # player 2 folded on third street
    ]  # fmt: skip
    assert [d.card for d in order if d.player == 2 and not d.up] == [None, None]  # hidden
    first = state.players[0]
    assert [d.card for d in order if d.player == 0] == [*first.down[:2], *first.up, *first.down[2:]]


def test_verify_file_round_trips_the_commitment_scheme_with_and_without_the_seed(tmp_path, capsys):
    state = played()

    assert verify_file(tmp_path, answer_for(state, 0), "--root", ROOT_HEX) == 0
    assert verify_file(tmp_path, answer_for(state, 0, seed=True), "--root", ROOT_HEX.upper()) == 0

    proofs_only, with_seed = json_lines(capsys.readouterr().out)
    mine = [d for d in dealing_order(header(state), log_for(state, 0)) if d.player == 0]
    assert proofs_only["cards_checked"] == len(answer_for(state, 0)["cards"])
    assert proofs_only["your_cards"] == [
        {"position": d.position, "street": d.street, "up": d.up, "card": repr(d.card)} for d in mine
    ]
    assert {k: v for k, v in with_seed.items() if k.endswith("_ok")} == {
        "file_root_ok": True, "cards_ok": True, "deal_order_ok": True, "required_ok": True,
        "commitment_ok": True, "seed_root_ok": True, "seed_cards_ok": True,
    }  # fmt: skip


def test_verify_file_names_the_positions_whose_proofs_fail(tmp_path, capsys):
    answer = answer_for(played(), 0)
    tampered = {**answer["cards"][1], "card": repr(DECK.order[8])}
    answer["cards"] = [answer["cards"][0], tampered, *answer["cards"][2:]]

    status = verify_file(tmp_path, answer, "--root", ROOT_HEX)

    result = json.loads(capsys.readouterr().out)
    assert status == 1
    assert result["cards_ok"] is False and result["failed_positions"] == [tampered["position"]]
    assert result["misplaced"] == [{
        "position": tampered["position"],
        "problem": f"the log deals {DECK.order[tampered['position']]!r} here, the proof "
        f"{DECK.order[8]!r}",
    }]  # fmt: skip


def test_verify_file_requires_the_viewers_own_cards_and_every_up_card(tmp_path, capsys):
    state = played()
    answer = answer_for(state, 0)
    without_one_own_card = [c for c in answer["cards"] if c["position"] != 0]

    assert verify_file(tmp_path, {**answer, "cards": without_one_own_card}, "--root", ROOT_HEX) == 1
    assert verify_file(tmp_path, {**answer, "cards": []}, "--root", ROOT_HEX) == 1

    one_missing, none = json_lines(capsys.readouterr().out)
    assert one_missing["missing_positions"] == [0]
    assert none["missing_positions"] == [c["position"] for c in answer["cards"]]


def test_verify_file_refuses_a_file_that_is_not_a_verify_answer_or_a_root_that_is_no_root(
    tmp_path, capsys
):
    path = tmp_path / "other.json"
    path.write_text('{"hand": 1}', encoding="utf-8")

    assert cli.main(["verify", "file", str(path), "--root", ROOT_HEX]) == 2
    assert "not a verify or audit answer" in capsys.readouterr().err
    assert verify_file(tmp_path, answer_for(played(), 0), "--root", "xyz") == 2
    assert "a card root is 64 hex digits, not 'xyz'" in capsys.readouterr().err


def test_verify_file_without_a_root_says_how_to_give_one(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("BASE_URL", raising=False)
    monkeypatch.setenv("STUD_TOKEN", "abc")

    assert verify_file(tmp_path, answer_for(played(), 0)) == 2

    err = capsys.readouterr().err
    assert "could not check" in err and "--root HEX" in err and "BASE_URL" in err


# ----------------------------------------------------------------------------- bench


def test_bench_runs_the_benchmark_module_with_its_arguments(monkeypatch):
    calls = []
    fake = types.ModuleType("bench.fake")
    fake.main = lambda argv: calls.append(argv) or 0  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "bench.fake", fake)
    monkeypatch.setattr(cli, "BENCH_MODULE", "bench.fake")

    status = cli.main(["bench", "--quick", "--players", "6"])

    assert status == 0
    assert calls == [["--quick", "--players", "6"]]


def test_bench_without_the_benchmark_module_says_so(monkeypatch, capsys):
    monkeypatch.setattr(cli, "BENCH_MODULE", "bench.no_such_module")

    status = cli.main(["bench"])

    assert status == 2
    assert capsys.readouterr().err.startswith(
        "stud bench: the benchmark module bench.no_such_module is not available"
    )
