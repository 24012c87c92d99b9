"""One benchmark of this checkout against the same benchmark of another commit, run
alternately in one session: the ratio that the machine's speed of the day does not move.

This project's 2-core machine is shared, and its speed swings: ``pgbench`` on the same
PostgreSQL gave 2,686 transactions/s one night and 652 two days later, and every absolute
figure of the stack moved with it (``bench tables`` 146.7 hands/s one day, 76.6 on the slow
one, the code unchanged). A figure of one day cannot be compared with a figure of another;
two codes measured in turn, in the same hour, can.

``python -m bench versus REF NAME [--runs N] [--figure PATH ...] [-- OPTIONS]`` extracts
commit ``REF`` (``git archive``, into a temporary folder; nothing in this checkout changes)
and runs ``python -m bench.NAME OPTIONS`` there and here ``--runs`` times each, in the order
ref, this, this, ref, ref, this, ... (each pair in the other order than the one before, so a
machine that slows down through the hour favours neither). Both run with this checkout's
Python and packages: a commit whose dependencies differ from this one's cannot be compared
this way.

Each run's JSON report is read for its figures (``--figure``: a dotted path into the report;
``tables`` and ``tournament`` have theirs by default, with the older reports' paths too).
Reported per figure: every run's value, the medians, the ratio of the medians (this over
ref) and the median of the pairs' ratios. A run that fails, or whose report lacks a figure,
stops the comparison with what it printed. Progress on stderr; one JSON report on stdout.

Example: ``make bench BENCH_ARGS="versus c05b911 tables --runs 4"`` compares the tables
with the code issue 13 was measured on (its 31 hands/s).
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.stack import PROJECT_DIR, machine

FIGURES: dict[str, dict[str, tuple[str, ...]]] = {
    "tables": {"hands_per_second": ("hands_per_second", "stack.hands_per_second")},
    "tournament": {
        "until_half_out_hands_per_second": (
            "tournament.until_half_the_field_was_out.hands_per_second",
        ),
        "hands_per_second": ("tournament.hands_per_second",),
    },
}
"""Each benchmark's default figures: a name, and the dotted paths where a report (of this
commit or an older one) gives it, the first found is taken."""

THIS = "this"
REF = "ref"


def parse_args(argv: Sequence[str] | None) -> tuple[argparse.Namespace, list[str]]:
    """The comparison's options, and the benchmark's own (after ``--``)."""
    args = list(sys.argv[1:] if argv is None else argv)
    own: list[str] = []
    if "--" in args:
        at = args.index("--")
        args, own = args[:at], args[at + 1 :]
    parser = argparse.ArgumentParser(prog="python -m bench versus", description=__doc__)
    parser.add_argument("ref", help="the commit to compare with (a sha, tag or branch)")
    parser.add_argument("name", help="the benchmark: a module of bench/ (tables, tournament...)")
    parser.add_argument("--runs", type=int, default=3, help="runs of each (default 3)")
    parser.add_argument(
        "--figure",
        action="append",
        default=[],
        metavar="PATH",
        help="a dotted path into the report (default: the benchmark's own figures)",
    )
    parsed = parser.parse_args(args)
    if parsed.runs < 1:
        parser.error("need --runs >= 1")
    if not parsed.figure and parsed.name not in FIGURES:
        parser.error(f"name the figures of bench.{parsed.name} with --figure PATH")
    return parsed, own


def figures_asked(name: str, paths: Sequence[str]) -> dict[str, tuple[str, ...]]:
    """The figures to read: those given (each named by its path) or the benchmark's own."""
    if paths:
        return {path: (path,) for path in paths}
    return FIGURES[name]


def figure(report: dict[str, Any], paths: Sequence[str]) -> float:
    """The value at the first of ``paths`` found in ``report``; a KeyError names them all."""
    for path in paths:
        value: Any = report
        for key in path.split("."):
            if not isinstance(value, dict) or key not in value:
                break
            value = value[key]
        else:
            if isinstance(value, int | float) and not isinstance(value, bool):
                return float(value)
    raise KeyError(f"the report has no number at {' or '.join(paths)}")


def order(runs: int) -> list[str]:
    """Which code runs when: pairs alternating ref-this and this-ref (ABBA)."""
    pairs = [(REF, THIS) if i % 2 == 0 else (THIS, REF) for i in range(runs)]
    return [side for pair in pairs for side in pair]


def commit_of(project: Path, ref: str) -> str:
    """The full sha ``ref`` names in the repository at ``project``; SystemExit if none."""
    done = subprocess.run(
        ["git", "-C", str(project), "rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}"],
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        raise SystemExit(
            f"bench versus: {ref!r} names no commit of {project}: give a sha, tag or branch "
            "(a shallow clone may lack it: git fetch --unshallow)"
        )
    return done.stdout.strip()


def this_commit(project: Path) -> str:
    """HEAD's sha, with ``+changes`` when the work tree differs from it."""
    head = commit_of(project, "HEAD")
    dirty = subprocess.run(
        ["git", "-C", str(project), "status", "--porcelain", "--untracked-files=no"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    return f"{head}+changes" if dirty else head


@contextmanager
def extracted(project: Path, sha: str) -> Iterator[Path]:
    """The files of commit ``sha`` in a temporary folder, removed on the way out."""
    with tempfile.TemporaryDirectory(prefix=f"bench-versus-{sha[:7]}-") as folder:
        archive = subprocess.Popen(
            ["git", "-C", str(project), "archive", "--format=tar", sha],
            stdout=subprocess.PIPE,
        )
        assert archive.stdout is not None
        with tarfile.open(fileobj=archive.stdout, mode="r|") as tar:
            tar.extractall(folder, filter="data")
        if archive.wait() != 0:
            raise SystemExit(f"bench versus: git archive {sha} failed")
        yield Path(folder)


def run_bench(directory: Path, name: str, options: Sequence[str]) -> dict[str, Any]:
    """``python -m bench.NAME OPTIONS`` with ``directory``'s code; its JSON report.
    RuntimeError with the end of its output when it fails or prints no report."""
    done = subprocess.run(
        [sys.executable, "-m", f"bench.{name}", *options],
        cwd=directory,
        env={**os.environ, "PYTHONPATH": str(directory)},
        capture_output=True,
        text=True,
    )
    said = f"{done.stdout[-1500:]}\n{done.stderr[-1500:]}".strip()
    if done.returncode != 0:
        raise RuntimeError(f"bench.{name} in {directory} exited {done.returncode}:\n{said}")
    try:
        return dict(json.loads(done.stdout))
    except json.JSONDecodeError:
        lines = [line for line in done.stdout.splitlines() if line.strip()]
        try:
            return dict(json.loads(lines[-1]))
        except (IndexError, json.JSONDecodeError):
            raise RuntimeError(
                f"bench.{name} in {directory} printed no JSON report:\n{said}"
            ) from None


@dataclass
class Side:
    """One code's runs: each figure's values, in the order run."""

    values: dict[str, list[float]] = field(default_factory=dict)

    def add(self, report: dict[str, Any], figures: dict[str, tuple[str, ...]]) -> dict[str, float]:
        got = {name: figure(report, paths) for name, paths in figures.items()}
        for name, value in got.items():
            self.values.setdefault(name, []).append(value)
        return got


def summary(this: list[float], ref: list[float]) -> dict[str, Any]:
    """One figure's runs, medians and ratios (this over ref)."""
    ratios = [t / r for t, r in zip(this, ref, strict=True) if r]
    median_ref = statistics.median(ref)
    return {
        THIS: this,
        REF: ref,
        "median_this": round(statistics.median(this), 2),
        "median_ref": round(median_ref, 2),
        "ratio_of_medians": round(statistics.median(this) / median_ref, 3) if median_ref else None,
        "median_pair_ratio": round(statistics.median(ratios), 3) if ratios else None,
    }


def compare(
    project: Path,
    ref: str,
    name: str,
    *,
    runs: int,
    options: Sequence[str] = (),
    figures: dict[str, tuple[str, ...]],
    say: Callable[[str], None] = lambda message: None,
) -> dict[str, Any]:
    """Run bench ``name`` of ``project`` and of commit ``ref`` alternately, ``runs`` each."""
    sha = commit_of(project, ref)
    sides = {THIS: Side(), REF: Side()}
    started = datetime.datetime.now(datetime.UTC)
    with extracted(project, sha) as ref_directory:
        where = {THIS: project, REF: ref_directory}
        sequence = order(runs)
        for n, side in enumerate(sequence, 1):
            label = "this checkout" if side == THIS else f"{ref} ({sha[:7]})"
            say(f"run {n}/{len(sequence)}: bench.{name} of {label} ...")
            report = run_bench(where[side], name, options)
            got = sides[side].add(report, figures)
            say(f"run {n}/{len(sequence)}: {', '.join(f'{k} {v:g}' for k, v in got.items())}")
    return {
        "benchmark": "versus",
        "name": name,
        "options": list(options),
        "this_commit": this_commit(project),
        "ref": ref,
        "ref_commit": sha,
        "started": started.isoformat(timespec="seconds"),
        "finished": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "machine": machine(),
        "order": sequence,
        "figures": {
            figure_name: summary(sides[THIS].values[figure_name], sides[REF].values[figure_name])
            for figure_name in figures
        },
    }


def main(argv: Sequence[str] | None = None) -> int:
    args, options = parse_args(argv)

    def say(message: str) -> None:
        print(f"bench versus: {message}", file=sys.stderr, flush=True)

    try:
        report = compare(
            PROJECT_DIR,
            args.ref,
            args.name,
            runs=args.runs,
            options=options,
            figures=figures_asked(args.name, args.figure),
            say=say,
        )
    except (RuntimeError, KeyError) as problem:
        say(f"stopped: {problem}")
        return 1
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
