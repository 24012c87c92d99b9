"""The docs hold what the code and the README point to: every rule-book section the code
cites (``docs/rules.md 4.6``: section 4, item 6) is in docs/rules.md, and every file the
README or a doc under docs/ links to exists."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

PROJECT_DIR = Path(__file__).resolve().parent.parent
DOCS = PROJECT_DIR / "docs"
RULES = DOCS / "rules.md"
CITATION = re.compile(r"docs/rules\.md(?: section)? (\d+)(?:\.(\d+))?")
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


def rule_book_items(text: str) -> dict[int, set[int]]:
    """The rule book's numbered sections (``## 4. ...``), each with its numbered items."""
    sections: dict[int, set[int]] = {}
    current = None
    for line in text.splitlines():
        heading = re.match(r"## (\d+)\. ", line)
        item = re.match(r"(\d+)\. ", line)
        if heading:
            current = int(heading.group(1))
            sections[current] = set()
        elif item and current is not None:
            sections[current].add(int(item.group(1)))
    return sections


def citations() -> list[tuple[str, int, int | None]]:
    """Every ``docs/rules.md N[.M]`` in the project's tracked files (where, section, item)."""
    found = subprocess.run(
        ["git", "grep", "--untracked", "-nF", "docs/rules.md"],
        cwd=PROJECT_DIR,
        capture_output=True,
        text=True,
        check=False,
    ).stdout
    cited = []
    for line in found.splitlines():
        where = line.split(":", 2)[:2]
        for match in CITATION.finditer(line):
            item = match.group(2)
            cited.append((":".join(where), int(match.group(1)), int(item) if item else None))
    return cited


def test_the_rule_book_is_read_as_sections_and_items():
    text = "# Rules\n## 1. Variants\n1. one\n2. two\n## 4. The hand\n1. antes\n   1. not an item"
    assert rule_book_items(text) == {1: {1, 2}, 4: {1}}
    assert [m.groups() for m in CITATION.finditer("docs/rules.md 4.10, docs/rules.md 8")] == [
        ("4", "10"),
        ("8", None),
    ]


def test_every_rule_book_citation_names_a_section_and_item_that_exist():
    sections = rule_book_items(RULES.read_text())
    cited = citations()
    assert len(cited) > 50, "the code's citations of the rule book were not found"
    missing = [
        f"{where}: {section}" + (f".{item}" if item else "")
        for where, section, item in cited
        if section not in sections or (item is not None and item not in sections[section])
    ]
    assert missing == []


def test_no_file_cites_the_rule_book_outside_the_repository():
    found = subprocess.run(
        ["git", "grep", "--untracked", "-lF", "RULES.md", "--", ".", ":!tests/test_docs.py"],
        cwd=PROJECT_DIR,
        capture_output=True,
        text=True,
        check=False,
    ).stdout.split()
    assert found == [], "cite docs/rules.md, the rule book in the repository"


def test_every_file_the_readme_and_the_docs_link_to_exists():
    pages = [PROJECT_DIR / "README.md", *DOCS.rglob("*.md")]
    broken = [
        f"{page.relative_to(PROJECT_DIR)}: {target}"
        for page in pages
        for target in LINK.findall(page.read_text())
        if "://" not in target and not (page.parent / target).exists()
    ]
    assert broken == []
