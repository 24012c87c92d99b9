"""Complete random hands per second, our engine against pokerkit on the same workload.

The workload is fixed first: for each variant and table size, seeded random hands are played
by our engine and recorded (deck and decisions). Both engines then replay exactly those hands
(the same cards dealt one by one, the same decisions); pokerkit runs with its automations
for antes, bet collection, showdown, hand killing and chip pushing/pulling. Each figure is the
median of several runs. Run ``python -m bench.engine [--quick]`` for a JSON report.
"""

from __future__ import annotations

import argparse
import datetime
import json
import platform
import statistics
import sys
import time
import warnings
from collections.abc import Callable, Sequence
from random import Random
from typing import Any

from pokerkit import Mode

from bench.pokerkit_oracle import AUTOMATIONS, POKERKIT_CARDS, POKERKIT_GAMES, apply_option
from games.engine.cards import Card, shuffled_deck
from games.engine.play import deal_pending
from games.engine.rules import Rules, Stakes, Variant
from games.engine.state import HandState, Option, Phase

STAKES = Stakes(ante=1, bring_in=2, small_bet=5, big_bet=10)
STACK = 200
TABLE_SIZES = (2, 6, 8)
SEED = 20240607

Recorded = tuple[list[Card], list[Option]]
"""A hand for our engine: its deck (dealt from the end) and every decision in order."""
Script = list[tuple[str, Any]]
"""The same hand for pokerkit: ``("deal", card)`` and ``("act", option)`` steps in order
(showdown decisions left out: pokerkit's automation shows and mucks)."""


def record_hands(
    variant: Variant, players: int, count: int, seed: int
) -> tuple[list[Recorded], list[Script]]:
    """Seeded random hands played by our engine, recorded for both engines.

    No open-pair option (pokerkit has none) and no hand where the deck runs short (pokerkit
    deals that community card differently), so both engines play the same game.
    """
    rng = Random(seed)
    rules = Rules(variant, open_pair_double=False)
    hands: list[Recorded] = []
    scripts: list[Script] = []
    while len(hands) < count:
        deck = shuffled_deck(rng)
        state = HandState(rules, STAKES, [STACK] * players)
        remaining = list(deck)
        decisions: list[Option] = []
        script: Script = []
        while not state.is_over:
            while state.next_deal is not None:
                card = remaining.pop()
                script.append(("deal", POKERKIT_CARDS[card]))
                state.deal(card)
            if state.is_over:
                break
            options = state.legal_actions()
            staying = [o for o in options if o.action != "fold"]
            option = rng.choice(staying if staying and rng.random() < 0.8 else options)
            decisions.append(option)
            if state.phase is not Phase.SHOWDOWN:
                script.append(("act", option))
            state.act(option.action, option.to)
        if state.community is None:
            hands.append((deck, decisions))
            scripts.append(script)
    return hands, scripts


def play_ours(variant: Variant, players: int, hands: Sequence[Recorded]) -> None:
    """Replay the recorded hands in our engine."""
    rules = Rules(variant, open_pair_double=False)
    for deck, decisions in hands:
        state = HandState(rules, STAKES, [STACK] * players)
        remaining = list(deck)
        moves = iter(decisions)
        while not state.is_over:
            deal_pending(state, remaining)
            if state.is_over:
                break
            option = next(moves)
            state.act(option.action, option.to)


def play_pokerkit(variant: Variant, players: int, scripts: Sequence[Script]) -> None:
    """Replay the same hands in pokerkit: the same cards and decisions."""
    game = POKERKIT_GAMES[variant]
    for script in scripts:
        pk = game.create_state(
            AUTOMATIONS,
            True,
            STAKES.ante,
            STAKES.bring_in,
            STAKES.small_bet,
            STAKES.big_bet,
            [STACK] * players,
            players,
            mode=Mode.TOURNAMENT,
        )
        for kind, value in script:
            if kind == "deal":
                pk.deal_hole((value,))
            else:
                apply_option(pk, value)
        assert not pk.status, "pokerkit did not finish the hand"


def _rate(run: Callable[[], None], hands: int, repeats: int, clock: Callable[[], float]) -> float:
    """Median hands per second of ``repeats`` runs, timed by ``clock``."""
    rates = []
    for _ in range(repeats):
        start = clock()
        run()
        rates.append(hands / (clock() - start))
    return statistics.median(rates)


def machine() -> dict[str, Any]:
    """The machine the figures come from."""
    model = "unknown"
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as cpuinfo:
            model = next(
                (
                    line.split(":", 1)[1].strip()
                    for line in cpuinfo
                    if line.startswith("model name")
                ),
                model,
            )
    except OSError:
        pass
    return {
        "cpu": model,
        "python": sys.version.split()[0],
        "implementation": platform.python_implementation(),
        "date": datetime.date.today().isoformat(),
    }


def hands_per_second(
    hands: int, repeats: int, clock: Callable[[], float] = time.perf_counter
) -> dict[str, Any]:
    """Both engines' hands per second for every variant and table size, and the ratio.

    ``clock`` is wall time by default; ``time.process_time`` (CPU time) keeps a shared,
    busy machine from swinging the ratios, since both engines are single-threaded."""
    results: dict[str, Any] = {}
    for variant in Variant:
        for players in TABLE_SIZES:
            recorded, scripts = record_hands(variant, players, hands, SEED + players)
            ours = _rate(lambda: play_ours(variant, players, recorded), hands, repeats, clock)  # noqa: B023
            theirs = _rate(lambda: play_pokerkit(variant, players, scripts), hands, repeats, clock)  # noqa: B023
            results[f"{variant}/{players}"] = {
                "ours": round(ours),
                "pokerkit": round(theirs),
                "ratio": round(ours / theirs, 1),
            }
    return results


def evaluations(seconds: float) -> dict[str, Any]:
    """Seven-card high and low evaluations per second (bench.evaluation), if present."""
    try:
        from bench import evaluation
    except ImportError:
        return {"error": "bench.evaluation is not there"}
    return evaluation.run(seconds)


def main(argv: Sequence[str] | None = None) -> int:
    """Print the JSON report; ``--quick`` for a short run."""
    parser = argparse.ArgumentParser(prog="stud bench", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="fewer hands and runs (seconds)")
    parser.add_argument(
        "--cpu-time",
        action="store_true",
        help="time by CPU time (process_time), not wall time: steadier on a busy machine",
    )
    args = parser.parse_args(argv)
    hands, repeats, seconds = (40, 3, 2.0) if args.quick else (300, 5, 10.0)
    # Pokerkit warns for every card not dealt from its own (unshuffled) deck: expected here.
    warnings.filterwarnings("ignore", category=UserWarning, module="pokerkit")
    report = {
        "machine": machine(),
        "workload": {
            "stakes": STAKES.to_dict(),
            "stack": STACK,
            "hands_per_run": hands,
            "runs": repeats,
            "figure": "median hands per second over the runs",
            "clock": "cpu" if args.cpu_time else "wall",
        },
        "hands_per_second": hands_per_second(
            hands, repeats, time.process_time if args.cpu_time else time.perf_counter
        ),
        "evaluations": evaluations(seconds),
    }
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
