"""What the table page shows, put together from ``games.selectors`` (whose view builder
decides what the viewer may see): seats with their cards in dealing order, whose turn and
their clock, pots, the street, the board leaders, the viewer's legal actions as buttons, and
the last hands' results."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games import selectors
from games.models import Player, TableKind
from tourney.selectors import hand_for_hand_at
from web.cards import CardFace, card_face
from web.games import STREET_LABELS, game_name
from web.numbers import whole
from web.words import word

ACTION_LABELS = {
    "fold": gettext_lazy("Fold"),
    "check": gettext_lazy("Check"),
    "call": gettext_lazy("Call %(chips)s"),
    "bet": gettext_lazy("Bet %(to)s"),
    "raise": gettext_lazy("Raise to %(to)s"),
    "bring_in": gettext_lazy("Bring in %(to)s"),
    "complete": gettext_lazy("Complete to %(to)s"),
    "show": gettext_lazy("Show your hand"),
    "muck": gettext_lazy("Muck"),
}
PASSIVE = {"fold", "muck"}


def cards_in_order(down: list[str], up: list[str]) -> list[CardFace]:
    """A stud hand as it was dealt: two down, the up cards, then the last down card."""
    faces = [card_face(code, down=True) for code in down[:2]]
    faces += [card_face(code, down=False) for code in up]
    faces += [card_face(code, down=True) for code in down[2:]]
    return faces


def action_buttons(options: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each legal action with its label (amounts written for the page's language) and the
    amount to send (the total on the street)."""
    return [
        {
            **option,
            "label": str(ACTION_LABELS[option["action"]])
            % {key: whole(option[key]) for key in ("chips", "to") if key in option},
            "amount": None if option["action"] in ("show", "muck") else option["to"],
            "style": "danger" if option["action"] in PASSIVE else "primary",
        }
        for option in options
    ]


def _epoch_ms(iso: str | None) -> int | None:
    return int(datetime.fromisoformat(iso).timestamp() * 1000) if iso else None


def _names(hand: dict[str, Any]) -> dict[int, str]:
    return {i: entry["name"] for i, entry in enumerate(hand["lineup"])}


def hand_result(hand: dict[str, Any]) -> dict[str, Any]:
    """A finished hand as the results list shows it: who won what with which hand, the
    no-low note (stud_8), and every player's cards as the viewer may see them."""
    view = hand["view"]
    names = _names(hand)
    awards = [
        {
            "name": names[award["player"]],
            "amount": award["amount"],
            "pot": _("main pot")
            if award["pot"] == 0
            else _("side pot %(number)s") % {"number": award["pot"]},
            "half": word(award["half"]) if award.get("half") else None,
            "hand": award.get("hand"),
            "note": word(award["note"]) if award.get("note") else None,
        }
        for award in view["winners"]
    ]
    players = [
        {
            "name": names[p["player"]],
            "cards": cards_in_order(p["down"], p["up"]),
            "folded": p["folded"],
            "shown": p["shown"],
            "hand": p.get("hand"),
        }
        for p in view["players"]
    ]
    return {
        "number": hand["number"],
        "id": hand["id"],
        "awards": awards,
        "notes": sorted({a["note"] for a in awards if a["note"]}),
        "players": players,
    }


def _your_client_seed(hand: dict[str, Any] | None) -> str | None:
    """The client seed the running hand published for the viewer (None: not dealt in)."""
    if hand is None or hand["you"] is None or hand["you"] >= len(hand["client_seeds"]):
        return None
    return str(hand["client_seeds"][hand["you"]])


def table_page(table_id: int, viewer: Player | None) -> dict[str, Any]:
    """Everything the table page shows to ``viewer`` (None: an observer), as of one seq: the
    buttons carry the seq of the hand they were drawn from, so a click on them is never
    refused as stale because the hand moved on while the page was being read."""
    table, detail = selectors.table_snapshot(table_id, viewer)
    hand = detail["hand"]
    view = hand["view"] if hand else None
    by_seat: dict[int, dict[str, Any]] = {}
    if hand is not None and view is not None:
        by_seat = {entry["seat"]: view["players"][i] for i, entry in enumerate(hand["lineup"])}
    to_act = set(view["to_act_seats"]) if view else set()
    names = {seat["number"]: seat["name"] for seat in detail["seats"]}
    seats = []
    your_seat = None
    for seat in detail["seats"]:
        played = by_seat.get(seat["number"])
        is_you = viewer is not None and seat["player"] == viewer.id
        if is_you:
            your_seat = seat
        seats.append(
            {
                **seat,
                "you": is_you,
                "in_hand": played is not None,
                "cards": cards_in_order(played["down"], played["up"]) if played else [],
                "play": played,
                "to_act": seat["number"] in to_act,
            }
        )
    leaders = {}
    if view is not None and hand is not None:
        seat_of = [entry["seat"] for entry in hand["lineup"]]
        leaders = {kind: names.get(seat_of[i]) for kind, i in view["leaders"].items()}
    return {
        "table": table,
        "game": game_name(table.variant),
        "seq": detail["seq"],
        "seats": seats,
        "your_seat": your_seat,
        "free_seats": [s["number"] for s in detail["seats"] if s["player"] is None],
        "next_commitment": detail["next_commitment"],
        "your_client_seed": _your_client_seed(hand),
        "hand": hand,
        "view": view,
        "street": STREET_LABELS.get(view["street"], view["street"]) if view else None,
        "leaders": leaders,
        "deadline_ms": _epoch_ms(hand["deadline"]) if hand and to_act else None,
        "actions": action_buttons(view["legal_actions"]) if view else [],
        "results": [hand_result(h) for h in selectors.recent_hands(table, viewer)],
        "hand_for_hand": table.kind == TableKind.TOURNAMENT and hand_for_hand_at(table.id),
    }
