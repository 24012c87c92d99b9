"""Our engine against pokerkit in machine instructions, not seconds.

``bench.engine`` times both engines on the same hands, and its ratios move with the machine:
on this project's shared 2-core machine our heads-up stud_hi gave 16,500 hands/s one day and
4,900 two days later, while pokerkit fell only from 509 to 248, so the same code measured
32x and 20x. Valgrind's callgrind counts the instructions a program executes, which no
other load on the machine changes (``../.library/env``: "the same total twice, once with
the other core loaded").

For each workload (variant and players, ``bench.engine``'s seeded hands) four processes run
under ``valgrind --tool=callgrind``: each records the hands, then replays them in one engine,
once or twice over. An engine's instructions a hand are its twice-over count less its
once-over count, divided by the hands: the recording, the start-up and the first pass's
warming (both engines fill lookup tables as they go) cancel out, as the timed benchmark's
median over its runs leaves them out. The ratio is pokerkit's over ours. Python's hash seed
is fixed, so a count repeats.

Slow (valgrind runs Python about fifty times slower; pokerkit's replays take most of it):
``python -m bench instructions [--hands N] [--workloads stud_hi/2,razz/8] [--jobs N]`` prints
one JSON report, its progress on stderr. Needs valgrind (``apt-get install valgrind``).
Never part of ``make bench``'s default run.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import re
import shutil
import subprocess
import sys
import warnings
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from typing import Any

from bench.engine import SEED, TABLE_SIZES, machine, play_ours, play_pokerkit, record_hands
from bench.stack import PROJECT_DIR
from games.engine.rules import Variant

ENGINES = ("ours", "pokerkit")
TIMES = (1, 2)
HASH_SEED = "0"
_COLLECTED = re.compile(r"Collected\s*:\s*(\d+)")


def workloads() -> list[str]:
    """Every workload of ``bench.engine``: ``variant/players``."""
    return [f"{variant.value}/{players}" for variant in Variant for players in TABLE_SIZES]


def play(workload: str, hands: int, engine: str, times: int) -> None:
    """Record ``hands`` of ``workload``, then replay them in ``engine`` ``times`` over: what
    each process under valgrind does."""
    name, players = workload.split("/")
    variant = Variant(name)
    recorded, scripts = record_hands(variant, int(players), hands, SEED)
    # as bench.engine: pokerkit warns for every card not dealt from its own deck
    warnings.filterwarnings("ignore", category=UserWarning, module="pokerkit")
    for _ in range(times):
        if engine == "ours":
            play_ours(variant, int(players), recorded)
        else:
            play_pokerkit(variant, int(players), scripts)


def collected(valgrind_output: str) -> int:
    """The instructions callgrind reports it collected (its ``Collected : N`` line)."""
    found = _COLLECTED.search(valgrind_output)
    if found is None:
        raise ValueError(f"no instruction count in valgrind's output: {valgrind_output[-500:]!r}")
    return int(found.group(1))


def count(workload: str, hands: int, engine: str, times: int) -> int:
    """Instructions of one process that records ``hands`` of ``workload`` and replays them
    in ``engine`` ``times`` over."""
    command = [
        "valgrind",
        "--tool=callgrind",
        "--callgrind-out-file=/dev/null",
        sys.executable,
        "-m",
        "bench.instructions",
        "--play",
        workload,
        "--hands",
        str(hands),
        "--engine",
        engine,
        "--times",
        str(times),
    ]
    environment = {**os.environ, "PYTHONHASHSEED": HASH_SEED}
    done = subprocess.run(
        command, cwd=PROJECT_DIR, env=environment, capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        raise RuntimeError(f"{workload} {engine} under valgrind failed: {done.stderr[-800:]}")
    return collected(done.stderr)


def ratios(counts: dict[tuple[str, int], int], hands: int) -> dict[str, Any]:
    """Instructions a hand for each engine (its twice-over count less its once-over count)
    and pokerkit's over ours."""
    per_hand = {engine: (counts[engine, 2] - counts[engine, 1]) / hands for engine in ENGINES}
    return {
        "instructions_per_hand": {engine: round(n) for engine, n in per_hand.items()},
        "ratio": round(per_hand["pokerkit"] / per_hand["ours"], 1),
    }


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench instructions", description=__doc__)
    parser.add_argument("--hands", type=int, default=100, help="hands a workload (100)")
    parser.add_argument(
        "--workloads",
        default=",".join(workloads()),
        help="comma-separated variant/players (all nine)",
    )
    parser.add_argument(
        "--jobs", type=int, default=1, help="valgrind processes at once (counts are the same)"
    )
    parser.add_argument("--play", metavar="WORKLOAD", help=argparse.SUPPRESS)
    parser.add_argument("--engine", choices=ENGINES, default="ours", help=argparse.SUPPRESS)
    parser.add_argument("--times", type=int, choices=TIMES, default=1, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    chosen = args.workloads.split(",") if args.play is None else [args.play]
    unknown = [w for w in chosen if w not in workloads()]
    if unknown:
        parser.error(f"unknown workload {unknown[0]!r}: choose from {', '.join(workloads())}")
    if args.hands < 1 or args.jobs < 1:
        parser.error("--hands and --jobs must be at least 1")
    args.workloads = chosen
    return args


def main(argv: Sequence[str] | None = None) -> int:
    """Print the JSON report; 2 when valgrind is missing."""
    args = parse_args(argv)
    if args.play is not None:
        play(args.play, args.hands, args.engine, args.times)
        return 0
    if shutil.which("valgrind") is None:
        print("bench.instructions: valgrind is missing: apt-get install valgrind", file=sys.stderr)
        return 2
    report: dict[str, Any] = {
        "benchmark": "instructions",
        "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "machine": machine(),
        "hands_per_workload": args.hands,
        "counted_by": "valgrind --tool=callgrind, PYTHONHASHSEED=0: (twice over - once) / hands",
        "workloads": {},
    }
    runs = [(w, engine, times) for w in args.workloads for engine in ENGINES for times in TIMES]
    counts: dict[str, dict[tuple[str, int], int]] = {w: {} for w in args.workloads}
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = {pool.submit(count, w, args.hands, *run): (w, *run) for w, *run in runs}
        for done, future in enumerate(as_completed(futures), 1):
            workload, engine, times = futures[future]
            counts[workload][engine, times] = future.result()
            print(
                f"bench.instructions: {done}/{len(runs)} counted ({workload} {engine} x{times})",
                file=sys.stderr,
                flush=True,
            )
    for workload in args.workloads:
        report["workloads"][workload] = ratios(counts[workload], args.hands)
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
