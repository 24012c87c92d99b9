"""The import contracts cover every app: no package of the project is left out of the
contract that forbids import cycles (``make lint`` runs them, ``lint-imports``)."""

from __future__ import annotations

import tomllib
from pathlib import Path

PROJECT_DIR = Path(__file__).resolve().parent.parent
NOT_APPS = {"tests", "bench"}
"""Top-level packages that are not part of the service (the contracts leave them out)."""


def _importlinter() -> dict:
    return tomllib.loads((PROJECT_DIR / "pyproject.toml").read_text())["tool"]["importlinter"]


def _apps() -> set[str]:
    return {
        path.parent.name
        for path in PROJECT_DIR.glob("*/__init__.py")
        if path.parent.name not in NOT_APPS
    }


def test_every_app_is_a_root_package_of_the_contracts():
    assert set(_importlinter()["root_packages"]) == _apps()


def test_no_app_may_have_an_import_cycle():
    acyclic = [c for c in _importlinter()["contracts"] if c["type"] == "acyclic_siblings"]
    covered = {ancestor for contract in acyclic for ancestor in contract["ancestors"]}
    assert covered == _apps()
