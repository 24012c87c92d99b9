"""What a seat or an observer may see of a hand, and of its log (docs/rules.md 10).

This is the one place that decides visibility: a player sees their own down cards, every up
card, the community card, and other players' down cards only once shown at showdown. Nobody
sees burn cards or undealt cards. The shuffle's server seed is not the engine's to show: the
service keeps it from players while it matters and proves only the cards this module lets a
player see (``games.engine.fairness``), so no proof or seed rebuilds an unshown card.
"""

from __future__ import annotations

from typing import Any

from games.engine.boards import high_board_key, low_board_key
from games.engine.cards import Card
from games.engine.evaluation import describe_high, describe_low
from games.engine.events import Award, Burn, Deal, Event
from games.engine.rules import Variant
from games.engine.showdown import hand_value
from games.engine.state import HandState, Phase

HIDDEN = "??"


def view_for(state: HandState, viewer: int | None) -> dict[str, Any]:
    """The hand as player ``viewer`` sees it (None: an observer).

    Includes streets, pots, stacks, boards, whose turn, and the legal actions with their
    amounts when it is the viewer's turn. Never another player's unshown down card.
    """
    players = []
    for i, p in enumerate(state.players):
        sees_down = i == viewer or p.shown
        entry: dict[str, Any] = {
            "player": i,
            "stack": p.stack,
            "street_bet": p.street_bet,
            "in_pot": p.total_in,
            "folded": p.folded,
            "all_in": p.stack == 0 and not p.folded,
            "shown": p.shown,
            "mucked": p.mucked,
            "up": [_card(c) for c in p.up],
            "down": [_card(c) if sees_down else HIDDEN for c in p.down],
        }
        if sees_down and p.cards_known and len(state.hole_cards(i)) >= 5:
            entry["hand"] = _hand_names(state, i)
        players.append(entry)
    your_turn = (
        viewer is not None
        and viewer in state.candidates
        and state.phase
        in (
            Phase.BRING_IN,
            Phase.BETTING,
            Phase.SHOWDOWN,
        )
    )
    view: dict[str, Any] = {
        "variant": str(state.rules.variant),
        "street": state.street_name,
        "phase": str(state.phase),
        "stakes": state.stakes.to_dict(),
        "community": _card(state.community),
        "pots": [
            {"amount": amount, "eligible": list(eligible)}
            for amount, eligible in state.pots_in_middle()
        ]
        if not state.is_over
        else [],
        "bet_level": state.bet_level,
        "to_act": list(state.candidates),
        "players": players,
        "leaders": _leaders(state),
        "legal_actions": [o.to_dict() for o in state.legal_actions()] if your_turn else [],
        "winners": _winners(state),
    }
    if viewer is not None:
        view["you"] = viewer
    return view


def event_for(event: Event, viewer: int | None, state: HandState) -> dict[str, Any]:
    """The event's JSON form as ``viewer`` may see it.

    Down cards stay hidden unless the viewer owns them or their owner has shown them in
    ``state`` (pass the hand's current state); burn cards are never shown.
    """
    seen = event.to_dict()
    if isinstance(event, Burn):
        seen["card"] = HIDDEN
    elif isinstance(event, Deal) and not event.up and event.player is not None:
        owner = event.player
        if owner != viewer and not state.players[owner].shown:
            seen["card"] = HIDDEN
    return seen


def log_for(state: HandState, viewer: int | None) -> list[dict[str, Any]]:
    """The whole log as ``viewer`` may see it."""
    return [event_for(event, viewer, state) for event in state.log]


def _card(card: Card | None) -> str | None:
    return None if card is None else repr(card)


def _hand_names(state: HandState, i: int) -> dict[str, str | None]:
    high, low = hand_value(state.hole_cards(i), state.rules)
    names: dict[str, str | None] = {}
    if high is not None:
        names["high"] = describe_high(high)
    if state.rules.plays_low:
        names["low"] = describe_low(low) if low is not None else None
    return names


def _leaders(state: HandState) -> dict[str, int | None]:
    """Which exposed board leads high and which leads low (stud_8 shows both)."""
    live = [i for i, p in enumerate(state.players) if not p.folded and p.up and p.board_known]
    if not live:
        return {}
    leaders: dict[str, int | None] = {}
    if state.rules.plays_high:
        leaders["high"] = max(live, key=lambda i: (high_board_key(state.board(i)), -i))
    if state.rules.plays_low:
        leaders["low"] = max(live, key=lambda i: (low_board_key(state.board(i)), -i))
    return leaders


def _winners(state: HandState) -> list[dict[str, Any]]:
    """The awards, once the hand is over, with a plain note when no low qualified."""
    if not state.is_over:
        return []
    awards: list[dict[str, Any]] = [
        {"pot": e.pot, "player": e.player, "amount": e.amount, "half": e.half, "hand": e.hand}
        for e in state.log
        if isinstance(e, Award)
    ]
    if state.rules.variant is Variant.STUD_8 and any(a["half"] == "high" for a in awards):
        for pot in {a["pot"] for a in awards}:
            if not any(a["pot"] == pot and a["half"] == "low" for a in awards):
                for a in awards:
                    if a["pot"] == pot:
                        a["note"] = "no low qualified: the high hand takes the whole pot"
    return awards
