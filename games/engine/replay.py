"""The log is the source of truth: replay it, and round-trip a hand through JSON.

>>> from games.engine.rules import Rules, Stakes
>>> hand = HandState(Rules(), Stakes(1, 2, 5, 10), [50, 50])
>>> from_json(to_json(hand)) == hand
True
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from games.engine.cards import Card
from games.engine.rules import Rules, Stakes
from games.engine.state import Event, HandState, IllegalAction

INPUT_EVENTS = frozenset({"deal", "burn", "action", "show", "muck"})
EVENT_TYPES = INPUT_EVENTS | {"ante", "street", "return", "showdown", "award"}
"""Every type of event the engine writes to a hand's log (a table's log holds others too)."""


class ReplayError(ValueError):
    """A log that the rules do not produce: names the event and why."""


def header(state: HandState) -> dict[str, Any]:
    """What a hand starts from: rules, stakes and stacks (the log does the rest)."""
    return {
        "rules": state.rules.to_dict(),
        "stakes": state.stakes.to_dict(),
        "stacks": [p.starting_stack for p in state.players],
        "recorded": state.recorded,
    }


def apply_input(state: HandState, event: Event) -> None:
    """Feed one input event (a deal, a decision, a show or muck) to the state."""
    kind = event["type"]
    if kind in ("deal", "burn"):
        card = event["card"]
        state.deal(None if card is None else Card.parse(card))
    elif kind == "action":
        state.act(event["action"], event["to"], player=event["player"])
    elif kind == "show":
        state.act("show", player=event["player"])
    elif kind == "muck":
        state.act("muck", player=event["player"])
    else:
        raise ReplayError(f"{kind!r} is not an input event")


def replay(start: dict[str, Any], log: Sequence[Event]) -> HandState:
    """Rebuild a hand from its header and log, checking every event against the rules.

    Events the state produces itself (antes, streets, returns, mandatory shows, awards) must
    match the log exactly; inputs are applied in order. No RNG is involved.
    """
    state = HandState(
        Rules.from_dict(start["rules"]),
        Stakes.from_dict(start["stakes"]),
        start["stacks"],
        recorded=start.get("recorded", False),
    )
    for index, event in enumerate(log):
        if index >= len(state.log):
            if event.get("type") not in INPUT_EVENTS:
                raise ReplayError(
                    f"event {index} ({event.get('type')}) should have followed from the rules "
                    f"but did not: expected an input (deal, action, show or muck)"
                )
            try:
                apply_input(state, event)
            except IllegalAction as error:
                raise ReplayError(f"event {index} {event}: {error}") from error
        if state.log[index] != event:
            raise ReplayError(
                f"event {index} differs: log has {event}, rules give {state.log[index]}"
            )
    if len(state.log) != len(log):
        raise ReplayError(
            f"the log stops at event {len(log)} but the rules go on with {state.log[len(log)]}"
        )
    return state


def to_dict(state: HandState) -> dict[str, Any]:
    """The hand as a JSON-ready dict: its header and its log."""
    return {**header(state), "log": [dict(event) for event in state.log]}


def to_json(state: HandState) -> str:
    """The hand as JSON text."""
    return json.dumps(to_dict(state), separators=(",", ":"))


def from_dict(data: dict[str, Any]) -> HandState:
    """The inverse of :func:`to_dict` (replays and checks the log)."""
    return replay(data, data["log"])


def from_json(text: str) -> HandState:
    """The inverse of :func:`to_json`."""
    return from_dict(json.loads(text))
