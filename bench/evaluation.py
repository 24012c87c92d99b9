"""Seven-card evaluations per second: our evaluator against pokerkit's, on the same hands.

Run ``python -m bench.evaluation [seconds]`` for a JSON report.
"""

from __future__ import annotations

import json
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from pokerkit import Card as PokerkitCard
from pokerkit import RegularLowHand, StandardHighHand

from games.engine.cards import FULL_DECK, format_cards
from games.engine.evaluation import high_value, low_value

RUNS = 5
HANDS = 20_000
BATCH = 250
SEED = 20240607


def run(seconds: float = 10.0) -> dict[str, Any]:
    """Measure 7-card high and low evaluations per second, ours and pokerkit's.

    ``seconds`` is the whole budget, shared by 4 evaluators x 5 runs; each figure is the
    median of its 5 runs. Our evaluator's lookup tables fill on first sight, so a first pass
    over the hands warms them (reported apart): the medians are the steady state of a server.
    """
    rng = random.Random(SEED)
    hands = [tuple(rng.sample(FULL_DECK, 7)) for _ in range(HANDS)]
    pokerkit_hands = [tuple(PokerkitCard.parse(format_cards(hand))) for hand in hands]
    # The untimed-for-the-medians warm-up still tells what a fresh process pays.
    first_pass = {
        f"{kind}_ours": round(_first_pass_rate(evaluate, hands))
        for kind, evaluate in (("high", high_value), ("low", low_value))
    }
    slice_seconds = seconds / (4 * RUNS)
    contenders: dict[str, tuple[Callable[[Any], object], Sequence[Any]]] = {
        "high_ours": (high_value, hands),
        "high_pokerkit": (StandardHighHand.from_game, pokerkit_hands),
        "low_ours": (low_value, hands),
        "low_pokerkit": (RegularLowHand.from_game, pokerkit_hands),
    }
    rates = {
        name: round(statistics.median(_rate(evaluate, inputs, slice_seconds) for _ in range(RUNS)))
        for name, (evaluate, inputs) in contenders.items()
    }
    return {
        "cards_per_hand": 7,
        "distinct_hands": HANDS,
        "runs": RUNS,
        "seconds_per_run": slice_seconds,
        "evaluations_per_second": rates,
        "first_pass_evaluations_per_second": first_pass,
        "speedup_over_pokerkit": {
            kind: round(rates[f"{kind}_ours"] / rates[f"{kind}_pokerkit"], 1)
            for kind in ("high", "low")
        },
        "python": sys.version.split()[0],
    }


def _rate(evaluate: Callable[[Any], object], hands: Sequence[Any], seconds: float) -> float:
    """Evaluations per second of ``evaluate`` cycling through ``hands`` for about ``seconds``."""
    done = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        offset = done % len(hands)
        batch = hands[offset : offset + BATCH]
        for hand in batch:
            evaluate(hand)
        done += len(batch)
        now = time.perf_counter()
        if now >= deadline:
            return done / (now - start)


def _first_pass_rate(evaluate: Callable[[Any], object], hands: Sequence[Any]) -> float:
    start = time.perf_counter()
    for hand in hands:
        evaluate(hand)
    return len(hands) / (time.perf_counter() - start)


if __name__ == "__main__":
    print(json.dumps(run(float(sys.argv[1]) if len(sys.argv) > 1 else 10.0), indent=2))
