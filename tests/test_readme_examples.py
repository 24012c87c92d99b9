"""The README's Python example runs as written, and its fenced blocks are found as the
walkthrough test (tests/e2e/test_readme.py, against a live service) reads them.

A block right after a line ``<!-- not run by tests/e2e/test_readme.py: why -->`` is left out.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

PROJECT_DIR = Path(__file__).resolve().parent.parent
README = PROJECT_DIR / "README.md"
NOT_RUN = "<!-- not run by tests/e2e/test_readme.py"
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


def test_every_fenced_block_of_the_readme_is_closed_before_the_next_heading():
    opened_at = None
    for number, line in enumerate(README.read_text().splitlines(), start=1):
        if opened_at is None:
            opened_at = number if line.startswith("```") else None
        elif line == "```":
            opened_at = None
        else:
            assert not line.startswith("## "), (
                f"README line {number}: the block of line {opened_at} is not closed"
            )
    assert opened_at is None, f"README: the block of line {opened_at} is never closed"


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
