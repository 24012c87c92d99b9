"""The walkthroughs under docs/walkthroughs/ work as written: their ``sh`` blocks, pasted in
order (``tests.test_readme_examples.WALKTHROUGHS``) into one ``bash -e`` against the live
service (gunicorn, Celery workers and beat on the test database).

A block right after a line ``<!-- not run by tests/e2e/test_readme.py: why -->`` is left out
(``tests.test_readme_examples.fenced_blocks``, which also runs the engine's Python example).
"""

from __future__ import annotations

import subprocess
from collections.abc import Iterator

import pytest

from tests.e2e.live import LiveService
from tests.e2e.workers import PROJECT_DIR, WorkerPool, on_test_database
from tests.test_readme_examples import walkthrough_blocks

WALKTHROUGH_SECONDS = 900


@pytest.fixture
def live_service(celery_workers: WorkerPool) -> Iterator[LiveService]:
    service = LiveService(celery_workers)
    yield service
    service.stop()


@pytest.mark.e2e
def test_the_shell_walkthroughs_run_as_written(live_service: LiveService) -> None:
    blocks = walkthrough_blocks()
    assert len(blocks) >= 40, "the walkthroughs were not found"
    script = "set -o pipefail\n" + "\n\n".join(blocks)
    env = {**on_test_database(), "PORT": str(live_service.port)}
    try:
        result = subprocess.run(
            ["bash", "-e", "-c", script],
            cwd=PROJECT_DIR,
            env=env,
            capture_output=True,
            text=True,
            timeout=WALKTHROUGH_SECONDS,
        )
    except subprocess.TimeoutExpired as error:
        pytest.fail(f"the walkthroughs did not end in {WALKTHROUGH_SECONDS} s:\n{error.stdout}")
    assert result.returncode == 0, (
        f"a walkthrough step failed (exit {result.returncode}):"
        f"\n--- stdout\n{result.stdout[-6000:]}"
        f"\n--- stderr\n{result.stderr[-6000:]}\n{live_service.logs()}"
    )
    assert "the draw replays" in result.stdout
    assert '"status":"winner"' in result.stdout  # the live tournament was played to its end
