"""The README's walkthroughs work as written: the ``sh`` blocks of the ring-game and
tournament-director walkthroughs (``WALKTHROUGHS``), pasted in order into one ``bash -e``
against the live service (gunicorn, Celery workers and beat on the test database), and its
Python example.

A block right after a line ``<!-- not run by tests/e2e/test_readme.py: why -->`` is left out.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator

import pytest

from tests.e2e.live import LiveService, service_env
from tests.e2e.workers import PROJECT_DIR, WorkerPool

README = PROJECT_DIR / "README.md"
NOT_RUN = "<!-- not run by tests/e2e/test_readme.py"
WALKTHROUGH_SECONDS = 900


WALKTHROUGHS = (
    "Playing through the API (ring game, with curl)",
    "The ring-game floor (wait lists, seat offers, moves, rotation)",
    "An online tournament (our tables deal)",
    "A live tournament (the club's dealers)",
    "The director's toolkit (clock, floor, rulings, settings in play, read-back)",
    "Club leagues (a league director's walkthrough)",
)
"""The sections whose ``sh`` blocks are run, in this order (each up to the next heading)."""
ENGINE_SECTION = "The engine (`games/engine/`)"
"""The section whose ``python`` example is run."""


def fenced_blocks(text: str, language: str, sections: tuple[str, ...] | None = None) -> list[str]:
    """The bodies of the README's blocks fenced as ``language``, in order, without the ones
    marked as not run; only those under the headings ``sections`` if given."""
    blocks: list[str] = []
    body: list[str] | None = None
    marked = skip = False
    wanted = sections is None
    for line in text.splitlines():
        if body is None:
            if line.startswith("#") and sections is not None:
                wanted = line.lstrip("#").strip() in sections
            if line == f"```{language}":
                body, skip = [], marked or not wanted
            marked = line.startswith(NOT_RUN)
        elif line == "```":
            if not skip:
                blocks.append("\n".join(body))
            body = None
        else:
            body.append(line)
    return blocks


def test_the_fenced_blocks_are_found_and_the_marked_ones_left_out():
    marked = NOT_RUN + ": slow -->"
    text = f"a\n```sh\necho 1\n```\n{marked}\n```sh\nsleep 99\n```\n```sh\necho 2\n```"
    assert fenced_blocks(text, "sh") == ["echo 1", "echo 2"]
    sections = f"## One\n```sh\necho 1\n```\n### Other\n```sh\necho 2\n```\n## Two\n{text}"
    assert fenced_blocks(sections, "sh", ("One", "Two")) == ["echo 1", "echo 1", "echo 2"]


@pytest.fixture
def live_service(celery_workers: WorkerPool) -> Iterator[LiveService]:
    service = LiveService(celery_workers)
    yield service
    service.stop()


@pytest.mark.e2e
def test_the_shell_walkthroughs_run_as_written(live_service: LiveService) -> None:
    blocks = fenced_blocks(README.read_text(), "sh", WALKTHROUGHS)
    assert len(blocks) >= 20, "the README's walkthroughs were not found"
    script = "set -o pipefail\n" + "\n\n".join(blocks)
    env = {**service_env(), "PORT": str(live_service.port)}
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
        f"a README step failed (exit {result.returncode}):\n--- stdout\n{result.stdout[-6000:]}"
        f"\n--- stderr\n{result.stderr[-6000:]}\n{live_service.logs()}"
    )
    assert "the draw replays" in result.stdout
    assert '"status":"winner"' in result.stdout  # the live tournament was played to its end


def test_the_python_example_runs_as_written():
    (example,) = fenced_blocks(README.read_text(), "python", (ENGINE_SECTION,))
    result = subprocess.run(
        [sys.executable, "-c", example],
        cwd=PROJECT_DIR,
        env={**os.environ},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("third - player to act: 1\n")
