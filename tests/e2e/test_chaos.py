"""The short chaos run in the suite (``bench/chaos.py``): 75 seconds of API clients doing
random valid and invalid things at ring tables and in a tournament, while two worker
processes are SIGKILLed and a Redis of the run's own is restarted; no invariant may break.

It needs PostgreSQL (the run makes and drops a database of its own next to DATABASE_URL's)
and ``redis-server`` on the PATH, as CI has both.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest

from tests.e2e.workers import PROJECT_DIR

pytestmark = [pytest.mark.e2e, pytest.mark.postgres]

RUN_SECONDS = 75
GIVE_UP_SECONDS = 600


def test_a_short_chaos_run_breaks_no_invariant():
    assert shutil.which("redis-server"), "the chaos run starts a redis-server of its own"
    command = [sys.executable, "-m", "bench.chaos", "--minutes", str(RUN_SECONDS / 60)]
    command += ["--kills", "2", "--seed", "8"]
    result = subprocess.run(
        command,
        cwd=PROJECT_DIR,
        env={**os.environ},
        capture_output=True,
        text=True,
        timeout=GIVE_UP_SECONDS,
    )
    assert result.stdout, result.stderr[-5000:]
    report = json.loads(result.stdout)
    assert report["violations"] == 0, json.dumps(report, indent=2) + result.stderr[-8000:]
    assert result.returncode == 0
    assert (report["kills"], report["redis_restarts"]) == (2, 1)
    assert report["requests"] >= 200 and report["hands"] >= 20, report
    assert not any(status.startswith("5") for status in report["statuses"])
