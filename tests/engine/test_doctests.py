"""The engine's docstring examples run with the suite, so they stay true (issue 15)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import games.engine

MODULES = sorted(
    info.name for info in pkgutil.walk_packages(games.engine.__path__, prefix="games.engine.")
)
"""Every module of the engine, in its subpackages too."""


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_hold(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {name}"


def test_the_engine_has_examples() -> None:
    attempted = sum(doctest.testmod(importlib.import_module(name)).attempted for name in MODULES)
    assert attempted >= 38
