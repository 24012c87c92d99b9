"""``bench.instructions``: what it counts and how it reads valgrind (valgrind itself is too slow
for the suite: ``python -m bench instructions`` runs it)."""

from __future__ import annotations

import types

import pytest

from bench import instructions

VALGRIND_END = """==123== Events    : Ir
==123== Collected : 2991779067
==123==
==123== I   refs:      2,991,779,067
"""


def test_the_count_is_callgrinds_collected_line():
    assert instructions.collected(VALGRIND_END) == 2_991_779_067


def test_output_without_a_count_is_an_error_that_shows_it():
    with pytest.raises(ValueError, match="no instruction count"):
        instructions.collected("==1== valgrind: failed to start tool 'callgrind'")


def test_each_engine_a_hand_is_its_twice_over_less_its_once_over_count():
    counts = {
        ("ours", 1): 1_500_000,
        ("ours", 2): 2_000_000,
        ("pokerkit", 1): 21_000_000,
        ("pokerkit", 2): 41_000_000,
    }
    assert instructions.ratios(counts, hands=100) == {
        "instructions_per_hand": {"ours": 5_000, "pokerkit": 200_000},
        "ratio": 40.0,
    }


def test_the_workloads_are_the_engine_benchmarks_nine():
    assert instructions.workloads() == [
        f"{variant}/{players}" for variant in ("stud_hi", "stud_8", "razz") for players in (2, 6, 8)
    ]


@pytest.mark.parametrize("engine", instructions.ENGINES)
@pytest.mark.parametrize("times", instructions.TIMES)
def test_a_play_process_records_and_replays_the_hands(engine, times, monkeypatch):
    played = []
    for name in ("play_ours", "play_pokerkit"):
        real = getattr(instructions, name)
        monkeypatch.setattr(
            instructions,
            name,
            lambda *args, real=real, name=name: (played.append(name), real(*args)),
        )
    instructions.main(
        ["--play", "razz/6", "--hands", "3", "--engine", engine, "--times", str(times)]
    )
    assert played == [f"play_{engine}"] * times


@pytest.mark.parametrize(
    "argv, complaint",
    [
        (["--workloads", "stud_hi/3"], "unknown workload 'stud_hi/3'"),
        (["--hands", "0"], "at least 1"),
        (["--jobs", "0"], "at least 1"),
    ],
)
def test_bad_arguments_are_refused_saying_what_is_allowed(argv, complaint, capsys):
    with pytest.raises(SystemExit) as stopped:
        instructions.main(argv)
    assert stopped.value.code == 2
    assert complaint in capsys.readouterr().err


def test_without_valgrind_it_says_how_to_install_it(monkeypatch, capsys):
    monkeypatch.setattr(instructions.shutil, "which", lambda name: None)
    assert instructions.main(["--workloads", "razz/2"]) == 2
    assert "apt-get install valgrind" in capsys.readouterr().err


def test_python_m_bench_instructions_runs_it_with_its_options(monkeypatch):
    import bench.__main__ as bench_main

    ran = []
    monkeypatch.setattr(
        bench_main.subprocess,
        "run",
        lambda command, cwd: ran.append(command) or types.SimpleNamespace(returncode=0),
    )
    assert bench_main.main(["instructions", "--hands", "5", "--jobs", "2"]) == 0
    assert ran[0][1:] == ["-m", "bench.instructions", "--hands", "5", "--jobs", "2"]
