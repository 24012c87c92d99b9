"""The ``stud`` command: replay PHH files, verify a provably fair deal, run the benchmark.

stud replay FILE.phh [FILE.phh ...]
stud verify SEED_HEX COMMITMENT [--cards AsKd2c...]
stud bench [ARGS ...]
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from games.engine.cards import format_cards, parse_cards
from games.engine.fairness import deck_from_seed, verify_commitment
from games.engine.phh import (
    PhhError,
    check_finishing_stacks,
    finishing_stacks_match,
    load_phh,
    replay_phh,
    stacks_after,
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
        help="check a revealed shuffle seed against its commitment and the dealt cards",
        description=(
            "Rebuild the deck from the revealed seed, check that SHA-256(seed) is the "
            "commitment published before the hand, and optionally that the cards were dealt "
            "in the deck's order (cards are dealt from the END of the shuffled deck, burn "
            "cards included). Prints a JSON line; exit status 1 if a check fails."
        ),
    )
    verify.add_argument("seed", metavar="SEED_HEX", help="the revealed seed, in hex")
    verify.add_argument("commitment", metavar="COMMITMENT", help="the published SHA-256 hex")
    verify.add_argument(
        "--cards",
        nargs="+",
        default=None,
        metavar="CARDS",
        help="the cards in the order they were dealt, e.g. 'AsKd 2c' or As Kd 2c",
    )
    verify.set_defaults(run=_verify)

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


def _verify(args: argparse.Namespace) -> int:
    try:
        seed = bytes.fromhex(args.seed)
    except ValueError:
        print(f"stud verify: SEED_HEX is not hex: {args.seed!r}", file=sys.stderr)
        return 2
    deck = deck_from_seed(seed)
    deal_order = deck[::-1]  # play.deal_pending pops cards from the end of the deck
    result: dict[str, Any] = {"commitment_ok": verify_commitment(seed, args.commitment.lower())}
    if args.cards is not None:
        try:
            dealt = parse_cards(" ".join(args.cards))
        except ValueError as error:
            print(f"stud verify: --cards: {error}", file=sys.stderr)
            return 2
        pairs = enumerate(zip(dealt, deal_order, strict=False))
        wrong = next((k for k, (card, due) in pairs if card != due), None)
        result["cards_ok"] = wrong is None and len(dealt) <= len(deal_order)
        if wrong is not None:
            result["first_mismatch"] = {
                "position": wrong,
                "dealt": repr(dealt[wrong]),
                "deck": repr(deal_order[wrong]),
            }
    result["deal_order"] = format_cards(deal_order)
    print(json.dumps(result))
    return 0 if all(v for k, v in result.items() if k.endswith("_ok")) else 1


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
