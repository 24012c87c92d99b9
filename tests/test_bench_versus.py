"""``bench.versus``: a benchmark of this checkout against another commit's, alternately.

The comparison itself runs on a repository made here, whose "benchmark" prints a figure its
commit decides, so the test knows what each side must report."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from bench import versus

FAKE_BENCH = """
import json, pathlib, sys
speed = float(pathlib.Path("speed.txt").read_text())
if "--fail" in sys.argv:
    print("the stack did not start", file=sys.stderr)
    sys.exit(3)
print(json.dumps({"stack": {"hands_per_second": speed}, "argv": sys.argv[1:]}, indent=2))
"""


def git(repo: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-C", str(repo), *args], capture_output=True, text=True, check=True
    )
    return done.stdout.strip()


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A repository whose bench.fake reports hands/s 10 at its first commit (tagged ``old``)
    and 40 in its work tree."""
    repo = tmp_path / "project"
    (repo / "bench").mkdir(parents=True)
    (repo / "bench" / "__init__.py").write_text("")
    (repo / "bench" / "fake.py").write_text(textwrap.dedent(FAKE_BENCH))
    (repo / "speed.txt").write_text("10")
    git(repo, "init", "-q")
    git(repo, "add", ".")
    git(repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "old")
    git(repo, "tag", "old")
    (repo / "speed.txt").write_text("40")
    return repo


def test_the_first_of_a_figures_paths_found_is_read():
    paths = ("hands_per_second", "stack.hands_per_second")
    assert versus.figure({"stack": {"hands_per_second": 15.83}}, paths) == 15.83
    assert versus.figure({"hands_per_second": 76, "stack": {"hands_per_second": 1}}, paths) == 76


@pytest.mark.parametrize("report", [{}, {"stack": {}}, {"stack": {"hands_per_second": "fast"}}])
def test_a_report_without_the_figure_names_every_path_looked_at(report):
    with pytest.raises(KeyError, match=r"hands_per_second or stack\.hands_per_second"):
        versus.figure(report, ("hands_per_second", "stack.hands_per_second"))


def test_pairs_alternate_their_order_so_a_slowing_machine_favours_neither():
    assert versus.order(3) == ["ref", "this", "this", "ref", "ref", "this"]


def test_the_summary_gives_medians_and_both_ratios():
    got = versus.summary(this=[80.0, 70.0, 90.0], ref=[16.0, 20.0, 15.0])
    assert got["median_this"] == 80.0
    assert got["median_ref"] == 16.0
    assert got["ratio_of_medians"] == 5.0
    assert got["median_pair_ratio"] == 5.0  # 5.0, 3.5, 6.0


def test_tables_and_tournament_have_default_figures_and_others_need_one():
    args, own = versus.parse_args(["abc123", "tables", "--runs", "2", "--", "--seconds", "5"])
    assert (args.ref, args.name, args.runs, own) == ("abc123", "tables", 2, ["--seconds", "5"])
    assert versus.figures_asked("tournament", []) == versus.FIGURES["tournament"]
    assert versus.figures_asked("ledger", ["one_thread.per_second"]) == {
        "one_thread.per_second": ("one_thread.per_second",)
    }
    with pytest.raises(SystemExit):
        versus.parse_args(["abc123", "ledger"])


def test_the_commit_and_the_work_tree_each_run_their_own_code(repo):
    said: list[str] = []
    report = versus.compare(
        repo,
        "old",
        "fake",
        runs=2,
        options=["--seconds", "1"],
        figures={"hands_per_second": ("hands_per_second", "stack.hands_per_second")},
        say=said.append,
    )
    got = report["figures"]["hands_per_second"]
    assert got["this"] == [40.0, 40.0]
    assert got["ref"] == [10.0, 10.0]
    assert got["ratio_of_medians"] == 4.0
    assert got["median_pair_ratio"] == 4.0
    assert report["ref_commit"] == git(repo, "rev-parse", "old")
    assert report["this_commit"] == f"{report['ref_commit']}+changes"  # speed.txt changed
    assert report["order"] == ["ref", "this", "this", "ref"]
    assert len(said) == 8 and "run 4/4" in said[-1]
    assert (repo / "speed.txt").read_text() == "40"  # the work tree untouched
    json.dumps(report)  # printable


def test_a_failing_run_stops_the_comparison_with_what_it_printed(repo):
    with pytest.raises(RuntimeError, match=r"(?s)exited 3:.*the stack did not start"):
        versus.compare(repo, "old", "fake", runs=1, options=["--fail"], figures={"x": ("x",)})


def test_a_ref_that_names_no_commit_says_what_to_give(repo):
    with pytest.raises(SystemExit, match="names no commit"):
        versus.compare(repo, "no-such-ref", "fake", runs=1, figures={"x": ("x",)})


def test_make_bench_passes_versus_its_own_options(monkeypatch):
    from bench import __main__ as bench_main

    ran = []
    monkeypatch.setattr(
        bench_main.subprocess,
        "run",
        lambda command, cwd: ran.append(command) or subprocess.CompletedProcess(command, 0),
    )
    assert bench_main.main(["versus", "c05b911", "tables", "--runs", "4"]) == 0
    assert ran == [[sys.executable, "-m", "bench.versus", "c05b911", "tables", "--runs", "4"]]
