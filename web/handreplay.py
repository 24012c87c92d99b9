"""A finished hand, street by street, as one player may see it: the hand replayer's steps.

Built only from the log the API's history gives that player (``games.selectors.hand_history``:
the engine's ``log_for`` with every unshown down card of another player as ``??``), so the
replayer cannot show what the history hides: a card it never receives it cannot draw.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from web.cards import HIDDEN, CardFace, card_face
from web.games import STREET_LABELS


@dataclass
class SeatView:
    """One player at the end of a step: their cards so far, chips put in and whether out."""

    name: str
    you: bool
    cards: list[CardFace] = field(default_factory=list)
    put_in: int = 0
    folded: bool = False
    won: int = 0


@dataclass
class Step:
    """One street (or the showdown): what happened in it and where everyone stands after."""

    title: str
    lines: list[str]
    seats: list[SeatView]
    pot: int


def _copy(seats: list[SeatView]) -> list[SeatView]:
    return [SeatView(s.name, s.you, list(s.cards), s.put_in, s.folded, s.won) for s in seats]


def _action_line(name: str, action: str, to: int) -> str:
    texts = {
        "fold": _("%(name)s folds"),
        "check": _("%(name)s checks"),
        "call": _("%(name)s calls (%(to)s in)"),
        "bet": _("%(name)s bets %(to)s"),
        "raise": _("%(name)s raises to %(to)s"),
        "bring_in": _("%(name)s brings it in for %(to)s"),
        "complete": _("%(name)s completes to %(to)s"),
    }
    text = texts.get(action, _("%(name)s: %(action)s"))
    return text % {"name": name, "to": to, "action": action}


def hand_steps(
    log: list[dict[str, Any]], lineup: list[dict[str, Any]], you: int | None
) -> list[Step]:
    """The hand's steps from ``log`` (already redacted for the viewer) and its ``lineup``.

    A step closes at each new street and at the showdown; the last step holds the awards.
    The viewer's own down cards show from the deal; another player's stay face down until
    their show (and for good when they fold or muck: the log holds them as "??").
    """
    seats = [SeatView(entry["name"], i == you) for i, entry in enumerate(lineup)]
    steps: list[Step] = []
    title, lines = _("Antes"), []
    street_bets = [0] * len(seats)
    pot = 0

    def close() -> None:
        steps.append(Step(title, lines, _copy(seats), pot))

    for event in log:
        kind = event["type"]
        player = event.get("player")
        name = seats[player].name if isinstance(player, int) else ""
        if kind == "ante":
            seats[player].put_in += event["amount"]
            pot += event["amount"]
            lines.append(_("%(name)s antes %(amount)s") % {"name": name, "amount": event["amount"]})
        elif kind == "street":
            if steps or any(seat.cards for seat in seats):  # the antes open third street
                close()
                lines = []
            title = STREET_LABELS.get(event["street"], event["street"])
            street_bets = [0] * len(seats)
        elif kind == "deal" and player is not None:
            # another player's down card stays face down until their show, as at the table
            known = event["up"] or player == you
            face = card_face(event["card"] or HIDDEN if known else HIDDEN, down=not event["up"])
            seats[player].cards.append(face)
        elif kind == "action":
            added = (
                event["to"] - street_bets[player] if event["action"] not in ("fold", "check") else 0
            )
            street_bets[player] = max(street_bets[player], event["to"])
            seats[player].put_in += added
            pot += added
            seats[player].folded = event["action"] == "fold"
            lines.append(_action_line(name, event["action"], event["to"]))
        elif kind == "return":
            seats[player].put_in -= event["amount"]
            pot -= event["amount"]
            lines.append(
                _("%(amount)s uncalled goes back to %(name)s")
                % {"amount": event["amount"], "name": name}
            )
        elif kind == "showdown":
            close()
            title, lines = _("Showdown"), []
        elif kind == "show":
            shown = iter(event["cards"])
            seats[player].cards = [
                card_face(next(shown, c.code), down=True) if c.down else c
                for c in seats[player].cards
            ]
            lines.append(_("%(name)s shows") % {"name": name})
        elif kind == "muck":
            lines.append(_("%(name)s mucks") % {"name": name})
        elif kind == "award":
            seats[player].won += event["amount"]
            line = _("%(name)s wins %(amount)s") % {"name": name, "amount": event["amount"]}
            if event.get("hand"):
                line += _(" with %(hand)s") % {"hand": event["hand"]}
            lines.append(line)
    close()
    return steps
