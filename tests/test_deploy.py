"""deploy/ explains itself, and a Docker build sends no local state (issue 8, defect 16)."""

from __future__ import annotations

import fnmatch
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from django.db import connection

ROOT = Path(__file__).resolve().parent.parent


def _ignored_patterns() -> list[str]:
    lines = (ROOT / ".dockerignore").read_text().splitlines()
    return [line.strip() for line in lines if line.strip() and not line.startswith("#")]


def _ignored(path: str) -> bool:
    return any(
        fnmatch.fnmatch(path, pattern) or path.startswith(pattern.rstrip("/") + "/")
        for pattern in _ignored_patterns()
    )


def test_the_build_context_leaves_out_local_state_and_secrets() -> None:
    for path in (".venv", "var", "var/secret_key", "var/db.sqlite3", ".git", ".pytest_cache"):
        assert _ignored(path), path


def test_everything_the_dockerfile_copies_is_in_the_build_context() -> None:
    dockerfile = (ROOT / "deploy" / "Dockerfile").read_text()
    sources = [
        source
        for line in re.findall(r"^COPY (.+)$", dockerfile, flags=re.MULTILINE)
        for source in line.split()[:-1]
    ]
    assert [source for source in sources if _ignored(source)] == []
    copied = set(sources)
    for package in _installed_packages():
        assert "." in copied or package in copied, f"the image lacks the package {package}"


def _installed_packages() -> list[str]:
    """The packages pyproject installs that the build context holds (not the benchmarks)."""
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    patterns = pyproject["tool"]["setuptools"]["packages"]["find"]["include"]
    names = [pattern.rstrip("*") for pattern in patterns]
    assert "games" in names and "api_conventions" in names
    return [name for name in names if not _ignored(name)]


def test_the_deploy_readme_names_every_file_in_deploy() -> None:
    readme = (ROOT / "deploy" / "README.md").read_text()
    for path in (ROOT / "deploy").iterdir():
        if path.name != "README.md" and not path.name.startswith("."):
            assert f"`{path.name}`" in readme, path.name


PRODUCTION = {
    "SECRET_KEY": "k" * 10 + "-production-secret-key-of-fifty-characters-or-more",
    "ALLOWED_HOSTS": "stud.example.org",
    "CSRF_TRUSTED_ORIGINS": "https://stud.example.org",
    "BEHIND_HTTPS_PROXY": "1",
}
"""The settings deploy/README.md gives for a service behind a TLS proxy."""


@pytest.mark.django_db
def test_check_deploy_is_clean_with_the_production_settings_of_the_deploy_readme() -> None:
    readme = (ROOT / "deploy" / "README.md").read_text()
    for name in PRODUCTION:
        assert f"`{name}`" in readme, name
    environment = {
        name: value
        for name, value in os.environ.items()
        if name not in ("DEBUG", "ALLOWED_HOSTS", "CSRF_TRUSTED_ORIGINS", "SECRET_KEY")
    }
    environment |= PRODUCTION | {"STUD_DB_NAME": str(connection.settings_dict["NAME"])}
    checked = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        check=False,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "no issues" in checked.stdout
