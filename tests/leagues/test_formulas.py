"""Points formulas: each preset against a worked example, monotonic by place (Hypothesis),
and directors' expressions refused with a clear message when they cannot be evaluated."""

from __future__ import annotations

import time
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from leagues.formulas import Finish, FormulaError, formula_check, formula_points, points_round


def _points(formula: str, params: dict, **finish) -> Decimal:
    return points_round(formula_points(formula, params, Finish(**finish)), 2)


def test_pokerstars_worked_example_150_entrants_third_place_20_buy_in():
    # 10 * sqrt(150 / 3) * (1 + log10(20.25)) = 10 * 7.0711 * 2.3064 = 163.09
    assert _points("pokerstars", {}, n=150, k=3, b=20) == Decimal("163.09")


def test_neau_worked_example():
    # sqrt(100 * 10 * 10 / 20) / (1 + 1) = sqrt(500) / 2 = 22.3607 / 2 = 11.18 (a player
    # who spent 20: the buy-in of 10 and one rebuy of 10)
    assert _points("neau", {}, n=100, k=1, b=10, e=20) == Decimal("11.18")
    # without the rebuy: sqrt(100 * 100 / 10) / 2 = sqrt(1000) / 2 = 15.81
    assert _points("neau", {}, n=100, k=1, b=10, e=10) == Decimal("15.81")
    # a freeroll (nothing spent) gives 0 rather than dividing by zero
    assert _points("neau", {}, n=100, k=1, b=0, e=0) == Decimal("0.00")


def test_reverse_rank_and_table_worked_examples():
    assert _points("reverse_rank", {"multiplier": "2"}, n=10, k=3) == Decimal("16.00")
    assert _points("reverse_rank", {"multiplier": "1"}, n=10, k=10) == Decimal("1.00")
    table = formula_check("table", {"points": [10, "7.5", 5]})
    assert [_points("table", table, n=9, k=k) for k in (1, 2, 3, 4)] == [
        Decimal("10.00"),
        Decimal("7.50"),
        Decimal("5.00"),
        Decimal("0.00"),
    ]


def test_an_expression_gives_what_the_preset_gives():
    params = formula_check("expression", {"expression": "10 * sqrt(n / k) * (1 + log10(b + 0.25))"})
    assert _points("expression", params, n=150, k=3, b=20) == Decimal("163.09")


def test_rounding_is_half_up_to_the_seasons_decimals():
    assert points_round(Decimal("0.125"), 2) == Decimal("0.13")
    assert points_round(Decimal("163.0889"), 0) == Decimal("163")
    assert points_round(Decimal("2.5"), 0) == Decimal("3")


@pytest.mark.parametrize(
    ("expression", "says"),
    [
        ("9**9**9", "too large"),
        ("(2 ** 1000) ** 1000", "too large"),
        ("exp(1000)", "too large"),
        ("1e308 * 10", "not a finite number"),
        ("n / (k - 1)", "division by zero"),
        ("n / b", "division by zero"),
        ("n +", "syntax error"),
        ("points * 2", "unknown name 'points'"),
        ("__import__('os')", "unknown function '__import__'"),
        ("__import__('os').system('true')", "attributes are not allowed"),
        ("n.real", "attributes are not allowed"),
        ("'ab' * 3", "only numbers"),
        ("", "empty"),
        ("n" + " + n" * 200, "longer than"),
    ],
)
def test_a_bad_expression_is_refused_with_what_to_fix(expression, says):
    started = time.monotonic()
    with pytest.raises(FormulaError, match=says):
        formula_check("expression", {"expression": expression})
    assert time.monotonic() - started < 1


@pytest.mark.parametrize(
    ("formula", "params"),
    [
        ("pokerstars", {"x": 1}),
        ("reverse_rank", {"multiplier": "0"}),
        ("reverse_rank", {"multiplier": 1.5}),
        ("table", {"points": [5, 7]}),
        ("table", {"points": []}),
        ("table", {"points": ["-1"]}),
        ("expression", {}),
        ("expression", {"expression": ["n"]}),
        ("expression", {"expression": 5}),
        ("astrology", {}),
    ],
)
def test_bad_parameters_are_refused(formula, params):
    with pytest.raises(FormulaError):
        formula_check(formula, params)


PRESETS = [
    ("pokerstars", {}),
    ("neau", {}),
    ("reverse_rank", {"multiplier": "1.5"}),
    ("table", {"points": ["100", "60", "60", "30", "1"]}),
]


@settings(deadline=None)  # a property, not a timing: machines under load are slow
@given(
    preset=st.sampled_from(PRESETS),
    n=st.integers(min_value=1, max_value=5000),
    data=st.data(),
    b=st.integers(min_value=0, max_value=10_000),
    extra=st.integers(min_value=0, max_value=10_000),
)
def test_points_never_increase_with_a_worse_place(preset, n, data, b, extra):
    k = data.draw(st.integers(min_value=1, max_value=n))
    worse = data.draw(st.integers(min_value=k, max_value=n))
    formula, params = preset
    better_points = formula_points(formula, params, Finish(n=n, k=k, b=b, e=b + extra))
    worse_points = formula_points(formula, params, Finish(n=n, k=worse, b=b, e=b + extra))
    assert worse_points <= better_points
