"""The docs' examples run as written: the engine's Python example here, the walkthroughs'
``sh`` blocks in tests/e2e/test_readme.py (against a live service), found as they are read
here.

A block right after a line ``<!-- not run by tests/e2e/test_readme.py: why -->`` is left out.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

PROJECT_DIR = Path(__file__).resolve().parent.parent
README = PROJECT_DIR / "README.md"
DOCS = PROJECT_DIR / "docs"
ENGINE = DOCS / "engine.md"
"""The page whose ``python`` example is run."""
WALKTHROUGHS = tuple(
    DOCS / "walkthroughs" / name
    for name in (
        "ring-game.md",
        "floor.md",
        "money.md",
        "tournament.md",
        "live-tournament.md",
        "director.md",
        "leagues.md",
    )
)
"""The walkthroughs, in the order their ``sh`` blocks are pasted into one shell: each takes
its helpers (``call``, ``field``, ``token``, ``json_id``) and ids from the ones before."""
NOT_RUN = "<!-- not run by tests/e2e/test_readme.py"


def fenced_blocks(text: str, language: str) -> list[str]:
    """The bodies of the page's blocks fenced as ``language``, in order, without the ones
    marked as not run."""
    blocks: list[str] = []
    body: list[str] | None = None
    marked = skip = False
    for line in text.splitlines():
        if body is None:
            if line == f"```{language}":
                body, skip = [], marked
            marked = line.startswith(NOT_RUN)
        elif line == "```":
            if not skip:
                blocks.append("\n".join(body))
            body = None
        else:
            body.append(line)
    return blocks


def walkthrough_blocks() -> list[str]:
    """Every walkthrough's ``sh`` blocks to run, in order."""
    return [block for page in WALKTHROUGHS for block in fenced_blocks(page.read_text(), "sh")]


def test_the_fenced_blocks_are_found_and_the_marked_ones_left_out():
    marked = NOT_RUN + ": slow -->"
    text = f"a\n```sh\necho 1\n```\n{marked}\n```sh\nsleep 99\n```\n```python\nx\n```\n"
    text += "```sh\necho 2\n```"
    assert fenced_blocks(text, "sh") == ["echo 1", "echo 2"]
    assert fenced_blocks(text, "python") == ["x"]


def test_every_walkthrough_under_docs_is_run():
    assert set(WALKTHROUGHS) == set((DOCS / "walkthroughs").glob("*.md"))
    for page in WALKTHROUGHS:
        assert fenced_blocks(page.read_text(), "sh"), f"{page.name} has no block to run"


def test_every_fenced_block_of_the_readme_and_the_docs_is_closed_before_the_next_heading():
    for page in [README, *DOCS.rglob("*.md")]:
        opened_at = None
        for number, line in enumerate(page.read_text().splitlines(), start=1):
            if opened_at is None:
                opened_at = number if line.startswith("```") else None
            elif line == "```":
                opened_at = None
            else:
                assert not line.startswith("## "), (
                    f"{page.name} line {number}: the block of line {opened_at} is not closed"
                )
        assert opened_at is None, f"{page.name}: the block of line {opened_at} is never closed"


def test_the_python_example_runs_as_written():
    (example,) = fenced_blocks(ENGINE.read_text(), "python")
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
