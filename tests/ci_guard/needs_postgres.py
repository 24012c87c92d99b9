"""Not collected by default (no test_ prefix): run by tests/test_ci_guard.py in a subprocess."""

import pytest


@pytest.mark.postgres
def test_marked_for_postgres() -> None:
    assert True
