"""The log is the source of truth: replay it, and round-trip a hand through JSON.

The log travels as dicts (``Event.to_dict()``, see :mod:`games.engine.events`); a replay
reads each, feeds the inputs to a fresh hand and checks that every event the rules produce
is exactly the one recorded.

>>> from games.engine.rules import Rules, Stakes
>>> hand = HandState(Rules(), Stakes(1, 2, 5, 10), [50, 50])
>>> from_json(to_json(hand)) == hand
True
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from games.engine.actions import Action
from games.engine.events import (
    EVENT_TYPES,
    INPUT_TYPES,
    Burn,
    Deal,
    Event,
    Muck,
    PlayerAction,
    Show,
    event_from_dict,
    to_dicts,
)
from games.engine.recorded import RecordedHand
from games.engine.rules import Rules, Stakes
from games.engine.state import HandState

__all__ = [
    "EVENT_TYPES",
    "ReplayError",
    "apply_input",
    "from_dict",
    "from_json",
    "header",
    "replay",
    "to_dict",
    "to_json",
]


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
    match event:
        case Deal(card=card) | Burn(card=card):
            state.deal(card)
        case PlayerAction(player=player, action=action, to=to):
            state.act(action, to, player=player)
        case Show(player=player):
            state.act(Action.SHOW, player=player)
        case Muck(player=player):
            state.act(Action.MUCK, player=player)
        case _:
            raise ReplayError(f"{event.type!r} is not an input event")


def replay(start: Mapping[str, Any], log: Sequence[Mapping[str, Any]]) -> HandState:
    """Rebuild a hand from its header and log (JSON dicts), checking every event against the
    rules.

    Events the state produces itself (antes, streets, returns, mandatory shows, awards) must
    match the log exactly; inputs are applied in order. No RNG is involved.
    """
    hand_type = RecordedHand if start.get("recorded", False) else HandState
    state = hand_type(
        Rules.from_dict(start["rules"]), Stakes.from_dict(start["stakes"]), start["stacks"]
    )
    for index, event in enumerate(log):
        if index >= len(state.log):
            if event.get("type") not in INPUT_TYPES:
                raise ReplayError(
                    f"event {index} ({event.get('type')}) should have followed from the rules "
                    f"but did not: expected an input (deal, action, show or muck)"
                )
            try:
                apply_input(state, event_from_dict(event))
            except ValueError as error:  # an IllegalAction, or a dict that is no event
                raise ReplayError(f"event {index} {event}: {error}") from error
        produced = state.log[index].to_dict()
        if produced != event:
            raise ReplayError(f"event {index} differs: log has {event}, rules give {produced}")
    if len(state.log) != len(log):
        raise ReplayError(
            f"the log stops at event {len(log)} but the rules go on with "
            f"{state.log[len(log)].to_dict()}"
        )
    return state


def to_dict(state: HandState) -> dict[str, Any]:
    """The hand as a JSON-ready dict: its header and its log."""
    return {**header(state), "log": to_dicts(state.log)}


def to_json(state: HandState) -> str:
    """The hand as JSON text."""
    return json.dumps(to_dict(state), separators=(",", ":"))


def from_dict(data: Mapping[str, Any]) -> HandState:
    """The inverse of :func:`to_dict` (replays and checks the log)."""
    return replay(data, data["log"])


def from_json(text: str) -> HandState:
    """The inverse of :func:`to_json`."""
    return from_dict(json.loads(text))
