"""Run the benchmarks: ``python -m bench [NAME ...] [--quick] [--full] [--cpu-time]``
(``make bench``; ``make bench BENCH_ARGS="load --full"``; ``--cpu-time`` times the engine
benchmark by CPU time, steadier on a busy machine).

Options after a single name go to that benchmark when it runs in a process of its own, e.g.
``python -m bench tables --workers 4 --json``.

Names: engine (hands/s and evaluations/s against pokerkit), balancing (the TDA planner at
10,000 players), tables (bot tables through PostgreSQL, Redis and real workers) and
tournament (a 1,000-player bot tournament to the end on the same stack), eliminations (the
update pass's cost a bust, in process on PostgreSQL), load (human-paced
people over HTTP, with Locust: 120 at 15 tables for 45 s, or with ``--full`` 400 at 50
tables for 4 minutes; act and table view percentiles against /healthz's), league (standings
of 50 events x 100 players, on SQLite or DATABASE_URL's server) and ledger (transactions/s and
ledger_check over 1,000,000 postings); tables, tournament, eliminations, load and ledger
need DATABASE_URL and REDIS_URL. ``python -m bench chaos [--minutes M] [--kills K]`` is the
chaos run (``bench/chaos.py``: clients doing random things while workers die; never run by
default); ``python -m bench instructions [--hands N] [--jobs N]`` counts both engines'
instructions a hand under valgrind (``bench/instructions.py``: the engine ratio no other
load on the machine moves; slow, never run by default); ``python -m bench versus REF NAME
[--runs N]`` runs benchmark NAME of this checkout and of commit REF alternately and gives
their ratio (``bench/versus.py``: the comparison the machine's speed of the day does not
move; never run by default). With no name, engine and balancing run, and
tables, tournament, eliminations, load and ledger too when DATABASE_URL and REDIS_URL are
set. Every
benchmark prints its own JSON report.

tables and tournament each run in a process of their own: each sets Django up on its own
scratch database, and Django's settings are read once per process.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Sequence
from itertools import takewhile

from bench.stack import PROJECT_DIR

NAMES = ("engine", "balancing", "tables", "tournament", "eliminations", "load", "league", "ledger")
# need PostgreSQL and Redis
ON_THE_STACK = ("tables", "tournament", "eliminations", "load", "ledger")


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    quick = ["--quick"] if "--quick" in args else []
    # load's own options: its full 400-person run; JSON, as every other benchmark prints
    load_options = ["--json", *(["--full"] if "--full" in args else [])]
    if args[:1] in (["chaos"], ["instructions"], ["versus"]):  # its options go to it
        command = [sys.executable, "-m", f"bench.{args[0]}", *args[1:]]
        return subprocess.run(command, cwd=PROJECT_DIR).returncode
    names = list(takewhile(lambda arg: not arg.startswith("-"), args))
    unknown = [n for n in names if n not in NAMES]
    if unknown:
        print(f"unknown benchmark {unknown[0]!r}: choose from {', '.join(NAMES)}", file=sys.stderr)
        return 2
    if not names:
        names = ["engine", "balancing"]
        if os.environ.get("DATABASE_URL") and os.environ.get("REDIS_URL"):
            names.extend(ON_THE_STACK)
        else:
            print(
                "bench: skipping 'tables' and 'tournament' (set DATABASE_URL and REDIS_URL "
                "to run them)",
                file=sys.stderr,
            )
    status = 0
    for name in names:
        print(f"bench: running {name} ...", file=sys.stderr, flush=True)
        if name == "engine":
            from bench import engine

            cpu_time = ["--cpu-time"] if "--cpu-time" in args else []
            status |= engine.main([*quick, *cpu_time])
        elif name == "balancing":
            from bench import balancing

            print(json.dumps(balancing.run(), indent=2))
        elif name == "league":
            from bench import league

            status |= league.main()
        else:
            sys.stdout.flush()  # the reports so far come before the child's
            options = [*quick, *(load_options if name == "load" else [])]
            if len(names) == 1:  # one benchmark named: the options after it are all its own
                options = [*args[1:], *(["--json"] if name == "load" else [])]
            command = [sys.executable, "-m", f"bench.{name}", *options]
            status |= subprocess.run(command, cwd=PROJECT_DIR).returncode
    return status


if __name__ == "__main__":
    raise SystemExit(main())
