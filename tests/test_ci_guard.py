"""A `postgres` test skipped on SQLite is fine locally but fails the run in CI."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

PROJECT_DIR = Path(__file__).resolve().parents[1]
SAMPLE = "tests/ci_guard/needs_postgres.py"


def run_sample(*, ci: str) -> subprocess.CompletedProcess[str]:
    """Run the sample `postgres` test on the embedded SQLite database."""
    env = {name: value for name, value in os.environ.items() if name != "DATABASE_URL"}
    env["CI"] = ci
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:randomly", SAMPLE],
        cwd=PROJECT_DIR,
        env=env,
        capture_output=True,
        text=True,
    )


def test_a_skipped_postgres_test_passes_outside_ci() -> None:
    result = run_sample(ci="")

    assert result.returncode == pytest.ExitCode.OK, result.stdout
    assert "1 skipped" in result.stdout


def test_a_skipped_postgres_test_fails_the_run_in_ci() -> None:
    result = run_sample(ci="true")

    assert result.returncode == pytest.ExitCode.TESTS_FAILED, result.stdout
    assert "PostgreSQL tests skipped in CI" in result.stdout
    assert "needs_postgres.py::test_marked_for_postgres" in result.stdout
