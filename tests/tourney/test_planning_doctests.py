"""The tournament planners' docstring examples run with the suite, so they stay true."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import tourney.planning

MODULES = sorted(
    info.name for info in pkgutil.walk_packages(tourney.planning.__path__, "tourney.planning.")
)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_hold(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {name}"
