"""Points formulas: pure functions of one finish (no Django).

Presets (n entrants, k place, b buy-in, e what the player spent: buy-in, rebuys, add-ons):

- ``pokerstars``: ``10 * sqrt(n / k) * (1 + log10(b + 0.25))``; n=150, k=3, b=20: 163.09.
- ``neau``: ``sqrt(n * b * b / e) / (k + 1)``; a freeroll (e = 0) gives 0.
- ``reverse_rank``: ``(n - k + 1) * multiplier`` (``params["multiplier"]``, default 1).
- ``table``: fixed points per place (``params["points"]``, place 1 first; 0 past its end).
- ``expression``: a director's own formula over :data:`VARIABLES` (``params["expression"]``),
  evaluated by ``simpleeval`` (never ``eval``) on floats only, so every operation costs
  O(1): ``9**9**9`` overflows instead of computing a number of 370 million digits. It is
  checked when saved (:func:`formula_check`) by evaluating it over a grid of fields,
  freerolls and zeros included: a syntax error, an unknown name, a division by zero, an
  overflow or a result that is not a finite number is a :class:`FormulaError`.
"""

from __future__ import annotations

import ast
import functools
import math
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from itertools import pairwise
from typing import Any

import simpleeval

from tourney.planning.refused import PlanRefused

VARIABLES = (
    "n",
    "k",
    "b",
    "e",
    "prize",
    "prize_pool",
    "paid_places",
    "knockouts",
    "rebuys",
    "add_ons",
)
PRESETS = ("pokerstars", "neau", "reverse_rank", "table", "expression")
MAX_EXPRESSION_LENGTH = 500
MAX_TABLE_PLACES = 1000
MAX_POINTS = Decimal(10) ** 9
"""Points of one finish above this are refused (the database keeps 14 digits, 4 decimals)."""


class FormulaError(PlanRefused):
    """A formula that cannot be used, with a message saying what to change (a template and
    its parameters, said in the reader's language by ``tourney.plan_messages``)."""


@dataclass(frozen=True)
class Finish:
    """One player's finish in one event: the formulas' variables."""

    n: int
    k: int
    b: int = 0
    e: int = 0
    prize: int = 0
    prize_pool: int = 0
    paid_places: int = 0
    knockouts: Decimal = Decimal(0)
    rebuys: int = 0
    add_ons: int = 0


FUNCTIONS: Mapping[str, Callable[..., float]] = {
    "sqrt": math.sqrt,
    "ln": math.log,
    "log10": math.log10,
    "exp": math.exp,
    "floor": math.floor,
    "ceil": math.ceil,
    "abs": abs,
    "min": min,
    "max": max,
    "round": round,
}


class _FloatEvaluator(simpleeval.SimpleEval):  # type: ignore[misc]
    """simpleeval with numbers only, all of them floats (bounded cost per operation)."""

    def _eval_constant(self, node: ast.Constant) -> float:
        if isinstance(node.value, bool) or not isinstance(node.value, int | float):
            raise FormulaError("only numbers are allowed, not {value}", value=repr(node.value))
        return float(node.value)

    def _eval_attribute(self, node: ast.Attribute) -> float:
        raise FormulaError(
            "attributes are not allowed ({attr}): use only numbers", attr=repr(node.attr)
        )

    def _eval_subscript(self, node: ast.Subscript) -> float:
        raise FormulaError("subscripts are not allowed: use only numbers")


@functools.lru_cache(maxsize=256)  # a season's expression is parsed once, not per finish
def _parsed(expression: str) -> ast.AST:
    if not expression.strip():
        raise FormulaError("the expression is empty: write one, e.g. 10 * sqrt(n / k)")
    if len(expression) > MAX_EXPRESSION_LENGTH:
        raise FormulaError(
            "the expression is longer than {MAX_EXPRESSION_LENGTH} characters",
            MAX_EXPRESSION_LENGTH=MAX_EXPRESSION_LENGTH,
        )
    try:
        return ast.parse(expression.strip(), mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError) as error:
        raise FormulaError("syntax error in the expression: {error}", error=error) from error


def _evaluate(expression: str, tree: ast.AST, finish: Finish) -> float:
    names = {name: float(value) for name, value in asdict(finish).items()}
    evaluator = _FloatEvaluator(functions=dict(FUNCTIONS), names=names)
    try:
        value = evaluator.eval(expression, previously_parsed=tree)
    except FormulaError:
        raise
    except simpleeval.NameNotDefined as error:
        raise FormulaError(
            "unknown name {name}: use only {names}",
            name=repr(error.name),
            names=", ".join(VARIABLES),
        ) from error
    except simpleeval.FunctionNotDefined as error:
        raise FormulaError(
            "unknown function {func_name}: use only {names}",
            func_name=repr(error.func_name),
            names=", ".join(FUNCTIONS),
        ) from error
    except ZeroDivisionError as error:
        raise FormulaError(
            "division by zero for {where}: guard it, e.g. max(b, 1)", where=_where(finish)
        ) from error
    except (OverflowError, simpleeval.NumberTooHigh) as error:
        raise FormulaError(
            "the result is too large for {where}: keep powers and exp() small", where=_where(finish)
        ) from error
    except simpleeval.InvalidExpression as error:
        raise FormulaError("not allowed in a formula: {error}", error=error) from error
    except (ValueError, TypeError, RecursionError, MemoryError) as error:
        raise FormulaError(
            "cannot evaluate for {where}: {error}", where=_where(finish), error=error
        ) from error
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise FormulaError("the result is not a finite number for {where}", where=_where(finish))
    return float(value)


def _where(finish: Finish) -> str:
    return ", ".join(f"{name}={value}" for name, value in asdict(finish).items())


def _decimal(value: Any, what: str) -> Decimal:
    if isinstance(value, float | bool):
        raise FormulaError("{what} must be exact: give it as a string or an integer", what=what)
    try:
        number = Decimal(str(value))
    except InvalidOperation as error:
        raise FormulaError(
            "{what} is not a number: {value}", what=what, value=repr(value)
        ) from error
    if not number.is_finite() or abs(number) > MAX_POINTS:
        raise FormulaError(
            "{what} must be a number of at most {MAX_POINTS}", what=what, MAX_POINTS=MAX_POINTS
        )
    return number


def formula_points(formula: str, params: Mapping[str, Any], finish: Finish) -> Decimal:
    """The points of ``finish`` by ``formula`` (unrounded).

    >>> formula_points("pokerstars", {}, Finish(n=150, k=3, b=20)).quantize(Decimal("0.01"))
    Decimal('163.09')
    """
    n, k, b, e = finish.n, finish.k, finish.b, finish.e
    if formula == "pokerstars":
        value = 10 * math.sqrt(n / k) * (1 + math.log10(b + 0.25))
    elif formula == "neau":
        value = math.sqrt(n * b * b / e) / (k + 1) if e > 0 else 0.0
    elif formula == "reverse_rank":
        return (n - k + 1) * _decimal(params.get("multiplier", 1), "multiplier")
    elif formula == "table":
        table = params.get("points", [])
        return _decimal(table[k - 1], f"points of place {k}") if k <= len(table) else Decimal(0)
    elif formula == "expression":
        expression = params.get("expression", "")
        value = _evaluate(expression, _parsed(expression), finish)
    else:
        raise FormulaError(
            "unknown formula {formula}: use one of {names}",
            formula=repr(formula),
            names=", ".join(PRESETS),
        )
    result = Decimal(repr(value))
    if abs(result) > MAX_POINTS:
        raise FormulaError(
            "{result} points is more than {MAX_POINTS} for {where}",
            result=result,
            MAX_POINTS=MAX_POINTS,
            where=_where(finish),
        )
    return result


def points_round(value: Decimal, decimals: int) -> Decimal:
    """Round half up to ``decimals`` places (2: 163.0949 -> 163.09, 0.125 -> 0.13)."""
    return value.quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_HALF_UP)


def _sample_finishes() -> list[Finish]:
    """The grid an expression is checked on: small, odd and large fields, every place of
    the small ones, freerolls and zero counts, rebuys and knockouts."""
    finishes = []
    for n in (1, 2, 3, 9, 10, 150, 10_000):
        places = range(1, n + 1) if n <= 10 else (1, 2, 3, n // 2, n - 1, n)
        for k in places:
            paid = max(1, n // 10)
            prize = 100 * n // k if k <= paid else 0
            finishes.append(Finish(n=n, k=k))  # a freeroll: no buy-in, nothing spent
            finishes.append(
                Finish(n=n, k=k, b=110, e=110, prize=prize, prize_pool=100 * n, paid_places=paid)
            )
            finishes.append(
                Finish(
                    n=n,
                    k=k,
                    b=5,
                    e=35,
                    prize=prize,
                    prize_pool=25 * n,
                    paid_places=paid,
                    knockouts=Decimal("2.5"),
                    rebuys=5,
                    add_ons=1,
                )
            )
    return finishes


SAMPLES = _sample_finishes()


def formula_check(formula: str, params: Mapping[str, Any] | None) -> dict[str, Any]:
    """The formula's parameters, normalised, or a :class:`FormulaError` saying what to fix."""
    params = dict(params or {})
    if formula in ("pokerstars", "neau"):
        if params:
            raise FormulaError(
                "{formula} takes no parameters (got {names})",
                formula=formula,
                names=", ".join(params),
            )
        return {}
    if formula == "reverse_rank":
        unknown = set(params) - {"multiplier"}
        if unknown:
            raise FormulaError(
                "reverse_rank takes only multiplier (got {names})", names=", ".join(unknown)
            )
        multiplier = _decimal(params.get("multiplier", 1), "multiplier")
        if multiplier <= 0:
            raise FormulaError("the multiplier must be positive")
        return {"multiplier": str(multiplier)}
    if formula == "table":
        table = params.get("points")
        if set(params) != {"points"} or not isinstance(table, list) or not table:
            raise FormulaError('table takes points: a list by place, e.g. {{"points": [10, 7, 5]}}')
        if len(table) > MAX_TABLE_PLACES:
            raise FormulaError(
                "a table has at most {MAX_TABLE_PLACES} places", MAX_TABLE_PLACES=MAX_TABLE_PLACES
            )
        values = [_decimal(v, f"points of place {i}") for i, v in enumerate(table, start=1)]
        if any(v < 0 for v in values) or any(a < b for a, b in pairwise(values)):
            raise FormulaError("table points are non-negative and never grow with a worse place")
        return {"points": [str(v) for v in values]}
    if formula == "expression":
        if set(params) != {"expression"}:
            raise FormulaError('expression takes expression: {{"expression": "10 * sqrt(n / k)"}}')
        expression = params["expression"]
        if not isinstance(expression, str):
            raise FormulaError('the expression is text, e.g. "10 * sqrt(n / k)"')
        tree = _parsed(expression)
        for finish in SAMPLES:
            value = _evaluate(expression, tree, finish)
            if abs(value) > MAX_POINTS:
                raise FormulaError(
                    "{value} points is more than {MAX_POINTS} for {where}",
                    value=value,
                    MAX_POINTS=MAX_POINTS,
                    where=_where(finish),
                )
        return {"expression": expression.strip()}
    raise FormulaError(
        "unknown formula {formula}: use one of {names}",
        formula=repr(formula),
        names=", ".join(PRESETS),
    )
