"""The ``stud`` command: replay PHH files, verify a provably fair deal, run the benchmark.

stud replay FILE.phh [FILE.phh ...]
stud verify card ROOT --position N --card As --salt HEX --path HEX [HEX ...]
stud verify seed SEED_HEX COMMITMENT [--client-seeds TEXT ...] [--root ROOT] [--cards AsKd2c...]
stud verify file VERIFY.json [--root HEX]   (the answer of GET /api/v1/hands/{id}/verify/ or
    .../audit/; without --root, the root is read from the table's log with BASE_URL, STUD_TOKEN)
stud bench [ARGS ...]
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from games.engine.cards import format_cards, parse_cards
from games.engine.fairness import CardProof, commit_deck, verify_card, verify_commitment
from games.engine.phh import (
    PhhError,
    check_finishing_stacks,
    finishing_stacks_match,
    load_phh,
    replay_phh,
    stacks_after,
)
from games.engine.proof_check import AnswerError, check_answer
from games.engine.published_root import (
    PublishedRoot,
    RootUnavailable,
    card_root_hex,
    root_from_table_log,
)

BENCH_MODULE = "bench.engine"


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``stud`` with ``argv`` (default: the command line); returns the exit status."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    if arguments[:1] == ["bench"]:
        return _bench(arguments[1:])  # every option after "bench" is the benchmark's own
    args = _parser().parse_args(arguments)
    status: int = args.run(args)
    return status


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="stud",
        description="Seven Card Stud engine tools: hand histories, fair-deal checks, benchmark.",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    replay = commands.add_parser(
        "replay",
        help="replay Poker Hand History (PHH) files strictly",
        description=(
            "Replay each PHH file (variants F7S, F7S/8, FR) with the engine, refusing any "
            "out-of-turn or illegal action. Prints one JSON line per file: file, variant, the "
            "finishing stacks our replay computes, and 'matches' when the file has "
            "finishing_stacks to compare with (a bad file gets an 'error' line instead). "
            "Problems go to stderr; the exit status is 1 if any file failed, after all of "
            "them have been replayed."
        ),
    )
    replay.add_argument("files", nargs="+", metavar="FILE.phh", help="hand history files")
    replay.set_defaults(run=_replay)

    verify = commands.add_parser(
        "verify",
        help="check a hand's dealing: card proofs against the card root, or the server seed",
        description=(
            "Check a provably fair deal (scheme stud-merkle-v1, see games/engine/fairness.py): "
            "one card's Merkle proof against the card root published before the first card "
            "(card), the revealed server seed against its commitment and the card root "
            "(seed), or every proof and check in a saved answer of the verify or audit "
            "endpoint (file). Prints a JSON line; exit status 1 if a check fails, 2 on bad "
            "input."
        ),
    )
    checks = verify.add_subparsers(dest="check", required=True, metavar="CHECK")
    card = checks.add_parser(
        "card",
        help="one card's proof against the published card root",
        description="Recompute the card root from one card, its position, salt and path.",
    )
    card.add_argument("root", metavar="ROOT", help="the card root published at hand start")
    card.add_argument("--position", type=int, required=True, help="0 = first card dealt")
    card.add_argument("--card", required=True, help="the card, e.g. As")
    card.add_argument("--salt", required=True, metavar="HEX", help="the position's salt")
    card.add_argument(
        "--path", nargs="*", default=[], metavar="HEX", help="the audit path, leaf upwards"
    )
    card.set_defaults(run=_verify_card)
    seed = checks.add_parser(
        "seed",
        help="a revealed server seed against its commitment and the card root",
        description=(
            "Check that SHA-256(seed) is the published commitment, rebuild the deck from the "
            "seed and the client seeds (lineup order) and, with --root, the card root; with "
            "--cards, that the cards were dealt in the deck's order (burn cards included). "
            "Prints the dealing order."
        ),
    )
    seed.add_argument("seed", metavar="SEED_HEX", help="the revealed server seed, in hex")
    seed.add_argument("commitment", metavar="COMMITMENT", help="the published SHA-256 hex")
    seed.add_argument(
        "--client-seeds",
        nargs="*",
        default=[],
        metavar="TEXT",
        help="the hand's client seeds in lineup order ('' for one left empty)",
    )
    seed.add_argument("--root", default=None, help="the card root published at hand start")
    seed.add_argument(
        "--cards",
        nargs="+",
        default=None,
        metavar="CARDS",
        help="the cards in the order they were dealt, e.g. 'AsKd 2c' or As Kd 2c",
    )
    seed.set_defaults(run=_verify_seed)
    saved = checks.add_parser(
        "file",
        help="a saved verify or audit answer, against the card root you saw at the hand's start",
        description=(
            "Check a saved answer of GET /api/v1/hands/{id}/verify/ (or .../audit/) against "
            "the card root published in the hand's hand_start event, never the root in the "
            "file: --root HEX, or read from the table's log over the API with BASE_URL (the "
            "service's address, e.g. https://stud.example.com) and STUD_TOKEN (your API "
            "token) in the environment. Each proof's position must be one the engine dealt, "
            "to the player and face it names (the dealing order is replayed from the hand's "
            "header and log), and the file must prove your own cards, every up card and "
            "every card its log shows; with the server seed, the seed too. Exit status 1 "
            "if a check fails, 2 if the file or the root cannot be read."
        ),
    )
    saved.add_argument("file", metavar="VERIFY.json", help="the saved JSON ('-': stdin)")
    saved.add_argument(
        "--root",
        default=None,
        metavar="HEX",
        help="the card_root of the hand's hand_start event, as you saw it at the hand's start",
    )
    saved.add_argument(
        "--seat",
        type=int,
        default=None,
        metavar="N",
        help="the seat you sat in: checks that the file is yours (its 'you'), so that your "
        "own cards are required",
    )
    saved.set_defaults(run=_verify_file)

    # Listed for --help only: main() hands everything after "bench" to the benchmark.
    commands.add_parser(
        "bench",
        help="run the engine benchmark (hands and evaluations per second, next to pokerkit); "
        "options after it go to the benchmark (stud bench --help)",
    )
    return parser


def _replay(args: argparse.Namespace) -> int:
    failed = 0
    for name in args.files:
        line, problem = replay_file(name)
        print(json.dumps(line), flush=True)
        if problem is not None:
            failed += 1
            print(f"stud replay: {name}: {problem}", file=sys.stderr, flush=True)
    return 1 if failed else 0


def replay_file(name: str) -> tuple[dict[str, Any], str | None]:
    """Replay one PHH file: its JSON line and the problem (None when it replays cleanly)."""
    try:
        phh = load_phh(Path(name).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, PhhError) as error:
        return {"file": name, "error": str(error)}, str(error)
    try:
        state = replay_phh(phh)
    except PhhError as error:
        return {"file": name, "variant": phh.variant, "error": str(error)}, str(error)
    line: dict[str, Any] = {
        "file": name,
        "variant": phh.variant,
        "finishing_stacks": stacks_after(state),
    }
    matches = finishing_stacks_match(phh, state)
    if matches is not None:
        line["matches"] = matches
    try:
        check_finishing_stacks(phh, state)
    except PhhError as error:
        return line, str(error)
    return line, None


def _verify_card(args: argparse.Namespace) -> int:
    try:
        proof = CardProof.from_dict(
            {"position": args.position, "card": args.card, "salt": args.salt, "path": args.path}
        )
    except ValueError as error:
        return _bad_input(str(error))
    return _report(
        {
            "card": repr(proof.card),
            "position": proof.position,
            "card_ok": verify_card(args.root, proof),
        }
    )


def _verify_seed(args: argparse.Namespace) -> int:
    try:
        seed = bytes.fromhex(args.seed)
    except ValueError:
        return _bad_input(f"SEED_HEX is not hex: {args.seed!r}")
    deck = commit_deck(seed, args.client_seeds)
    result: dict[str, Any] = {"commitment_ok": verify_commitment(seed, args.commitment)}
    if args.root is not None:
        result["root_ok"] = deck.root.hex() == args.root.lower()
    if args.cards is not None:
        try:
            dealt = parse_cards(" ".join(args.cards))
        except ValueError as error:
            return _bad_input(f"--cards: {error}")
        pairs = enumerate(zip(dealt, deck.order, strict=False))
        wrong = next((k for k, (card, due) in pairs if card != due), None)
        result["cards_ok"] = wrong is None and len(dealt) <= len(deck.order)
        if wrong is not None:
            result["first_mismatch"] = {
                "position": wrong,
                "dealt": repr(dealt[wrong]),
                "deck": repr(deck.order[wrong]),
            }
    result["card_root"] = deck.root.hex()
    result["deal_order"] = format_cards(deck.order)
    return _report(result)


def _verify_file(args: argparse.Namespace) -> int:
    try:
        text = sys.stdin.read() if args.file == "-" else Path(args.file).read_text("utf-8")
        saved = json.loads(text)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        return _bad_input(f"{args.file}: {error}")
    if not isinstance(saved, dict):
        return _bad_input(f"{args.file}: not a verify or audit answer (not a JSON object)")
    try:
        root = _trusted_root(args.root, saved)
        result = check_answer(saved, root.hex)
    except (AnswerError, RootUnavailable) as error:
        return _bad_input(f"{args.file}: {error}")
    if root.lineup is not None:  # the table's log also says who was dealt in, and where
        result["lineup_ok"] = saved.get("lineup") == root.lineup
        result["you_ok"] = saved.get("you") == root.you
    if args.seat is not None:
        index = _lineup_index(saved, args.seat)
        mine = index is not None and saved.get("you") == index
        result["you_ok"] = result.get("you_ok", True) and mine
    return _report({"root_from": root.source, **result})


def _lineup_index(saved: dict[str, Any], seat: int) -> int | None:
    """The place in the file's lineup of the player in ``seat`` (None: nobody)."""
    lineup = saved.get("lineup")
    entries = lineup if isinstance(lineup, list) else []
    seats = [entry.get("seat") if isinstance(entry, dict) else None for entry in entries]
    return seats.index(seat) if seat in seats else None


def _trusted_root(given: str | None, saved: dict[str, Any]) -> PublishedRoot:
    """The card root to check against: ``--root``, else the hand's ``hand_start`` event read
    from the table's log with ``BASE_URL`` and ``STUD_TOKEN``; never the file's own."""
    if given is not None:
        return PublishedRoot(card_root_hex(given), "--root")
    base_url, token = os.environ.get("BASE_URL", ""), os.environ.get("STUD_TOKEN", "")
    if not base_url or not token:
        raise RootUnavailable(
            "could not check: no card root to check against (the root in the file proves "
            "nothing, a forger writes their own). Pass --root HEX, the card_root of the "
            "hand's hand_start event as you saw it at the hand's start, or set BASE_URL (the "
            "service's address) and STUD_TOKEN (your API token) to read it from the table's log"
        )
    return root_from_table_log(base_url, token, saved)


def _report(result: dict[str, Any]) -> int:
    print(json.dumps(result))
    return 0 if all(v for k, v in result.items() if k.endswith("_ok")) else 1


def _bad_input(problem: str) -> int:
    print(f"stud verify: {problem}", file=sys.stderr)
    return 2


def _bench(argv: list[str]) -> int:
    try:
        bench = importlib.import_module(BENCH_MODULE)
    except ModuleNotFoundError as error:
        if error.name not in ("bench", BENCH_MODULE):
            raise
        print(
            f"stud bench: the benchmark module {BENCH_MODULE} is not available "
            f"({error}): run it from a source checkout that has bench/engine.py "
            "(reinstall with pip install -e . if bench/ came after the install)",
            file=sys.stderr,
        )
        return 2
    status: int | None = bench.main(argv)
    return status or 0


if __name__ == "__main__":
    raise SystemExit(main())
