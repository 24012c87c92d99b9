"""The Makefile's install step is safe to race: `make run` and `make test` started together on
a fresh clone both work (issue 8, defect 9: one saw the other's half-made .venv and failed
with "No module named pip")."""

from __future__ import annotations

import shutil
import subprocess
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
OFFLINE = "PIP_INSTALL=--version"  # pip runs (so it must be there) but installs nothing

pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="needs make")


def _fresh_clone(tmp_path: Path) -> Path:
    for name in ("Makefile", "pyproject.toml"):
        shutil.copy(ROOT / name, tmp_path / name)
    return tmp_path


def _install(clone: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        ["make", "--no-print-directory", ".venv/.installed", OFFLINE],
        cwd=clone,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


def test_two_makes_at_once_on_a_fresh_clone_both_succeed(tmp_path: Path) -> None:
    clone = _fresh_clone(tmp_path)

    first = _install(clone)
    time.sleep(1)  # the second starts while the first is creating .venv (ensurepip)
    second = _install(clone)
    outputs = [process.communicate(timeout=300)[0] for process in (first, second)]

    assert [first.returncode, second.returncode] == [0, 0], outputs
    assert "No module named pip" not in "".join(outputs)
    assert (clone / ".venv" / ".installed").exists()
    pip = subprocess.run([clone / ".venv/bin/python", "-m", "pip", "--version"], check=False)
    assert pip.returncode == 0
    stamp = (clone / ".venv" / ".installed").stat().st_mtime_ns
    again = subprocess.run(["make", ".venv/.installed", OFFLINE], cwd=clone, capture_output=True)
    assert again.returncode == 0
    assert (clone / ".venv" / ".installed").stat().st_mtime_ns == stamp  # nothing redone


def test_a_venv_left_without_pip_is_built_again(tmp_path: Path) -> None:
    # Given a .venv that an interrupted build left with a python but no pip
    clone = _fresh_clone(tmp_path)
    subprocess.run(["python3", "-m", "venv", "--without-pip", ".venv"], cwd=clone, check=True)

    result = subprocess.run(
        ["make", "--no-print-directory", ".venv/.installed", OFFLINE],
        cwd=clone,
        capture_output=True,
        text=True,
        timeout=300,
    )

    assert result.returncode == 0, result.stdout + result.stderr
    assert (clone / ".venv" / ".installed").exists()
