"""A ring game's tables: creating the game, opening its tables (online at once, live when
staff confirm), breaking short-handed ones and rotating a table's game by orbit.

Every function runs under the game's lock (``games.locks.game_for_update``), taken before any
of its tables' locks.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from games.codes import Code
from games.engine.rules import Variant
from games.errors import Conflict, Invalid
from games.locks import game_for_update, table_for_update
from games.models import (
    Game,
    GameMode,
    GameTable,
    HoldReason,
    PendingTableStatus,
    Table,
    TableRole,
    TableStatus,
)
from games.selectors import running_hand
from games.services import schedule
from games.services.hands import append_event
from games.services.seating import seat_leave
from games.services.tables import table_create, table_set_status

GAME_FIELDS = (
    "mode",
    "seat_count",
    "buy_in_min",
    "buy_in_max",
    "offer_seconds",
    "misses_allowed",
    "open_at_list_length",
    "max_tables",
    "short_players",
    "short_seconds",
    "rotate_every_hands",
)


def game_create(
    *,
    name: str,
    variant: str,
    ante: int,
    bring_in: int,
    small_bet: int,
    big_bet: int,
    tables: int = 1,
    must_move: bool = False,
    rotation: list[str] | None = None,
    table_options: dict[str, Any] | None = None,
    **fields: Any,
) -> Game:
    """Create a ring game and open its first tables (plus a must-move table feeding the
    first one, if asked). The stakes and house rules are checked by ``table_create``."""
    rotation = list(rotation or [])
    unknown = [v for v in rotation if v not in Variant._value2member_map_]
    if unknown:
        raise Invalid(
            gettext("unknown variants %(unknown)s in the rotation: use %(names)s")
            % {"unknown": unknown, "names": ", ".join(v.value for v in Variant)},
            code=Code.INVALID_ROTATION,
        )
    if rotation and rotation[0] != variant:
        raise Invalid(
            gettext("the rotation starts with the game's variant %(variant)s, not %(value)s")
            % {"variant": repr(variant), "value": repr(rotation[0])},
            code=Code.INVALID_ROTATION,
        )
    if not 1 <= tables <= fields.get("max_tables", 8):
        raise Invalid(
            gettext("a game opens with 1 table up to its max_tables"), code=Code.INVALID_TABLES
        )
    with transaction.atomic():
        game = Game.objects.create(
            name=name,
            variant=variant,
            ante=ante,
            bring_in=bring_in,
            small_bet=small_bet,
            big_bet=big_bet,
            rotation=rotation,
            table_options=dict(table_options or {}),
            **{k: v for k, v in fields.items() if k in GAME_FIELDS},
        )
        first = None
        for _ in range(tables):
            link = game_table_open(game)
            first = first or link
        if must_move:
            game_table_open(game, role=TableRole.MUST_MOVE, feeds=first)
        return game


def game_table_open(
    game: Game, *, role: str = TableRole.MAIN, feeds: GameTable | None = None
) -> GameTable:
    """Open one more table of the game (the game locked or just created)."""
    number = game.game_tables.count() + 1
    label = "must-move" if role == TableRole.MUST_MOVE else f"table {number}"
    table = table_create(
        name=f"{game.name} - {label}"[:60],
        variant=game.variant,
        ante=game.ante,
        bring_in=game.bring_in,
        small_bet=game.small_bet,
        big_bet=game.big_bet,
        seat_count=game.seat_count,
        buy_in_min=game.buy_in_min,
        buy_in_max=game.buy_in_max,
        hold_reason=HoldReason.LIVE if game.mode == GameMode.LIVE else HoldReason.NONE,
        **game.table_options,
    )
    return GameTable.objects.create(game=game, table=table, role=role, feeds=feeds)


def game_table_propose(game: Game) -> GameTable:
    """Live: ask staff to open a table (one proposal at a time)."""
    proposed = game.game_tables.filter(status=PendingTableStatus.PROPOSED).first()
    return proposed or GameTable.objects.create(game=game, status=PendingTableStatus.PROPOSED)


def game_table_confirm(*, game_id: int) -> GameTable:
    """Staff confirm the live table the floor proposed: it opens and its seats are offered."""
    with transaction.atomic():
        game = game_for_update(game_id)
        proposed = game.game_tables.filter(status=PendingTableStatus.PROPOSED).first()
        if proposed is None:
            raise Conflict(
                gettext(
                    "no table is proposed for this game: the floor proposes one when the "
                    "list reaches the game's open_at_list_length"
                ),
                code=Code.NOTHING_PROPOSED,
            )
        proposed.delete()
        link = game_table_open(game)
        schedule.floor_fill_now(game.id)
        return link


# ------------------------------------------------------------------------- breaking


def tables_track_short(game: Game, links: list[GameTable]) -> None:
    """Start, reset or end each open table's short-handed clock; a table short for the
    game's ``short_seconds`` breaks (its players get seats elsewhere first) when the game
    has another open table to send them to."""
    if not game.short_players:
        return
    now = timezone.now()
    open_links = [link for link in links if link.status == PendingTableStatus.OPEN]
    for link in open_links:
        assert link.table is not None
        seated = link.table.seats.filter(player__isnull=False).count()
        if seated >= game.short_players:
            if link.short_since is not None:
                link.short_since = None
                link.save(update_fields=["short_since"])
            continue
        if link.short_since is None:
            link.short_since = now
            link.save(update_fields=["short_since"])
        elif (now - link.short_since).total_seconds() >= game.short_seconds and len(
            [other for other in open_links if other.status == PendingTableStatus.OPEN]
        ) > 1:
            link.status = PendingTableStatus.BREAKING
            link.save(update_fields=["status"])
            append_event(link.table, "breaking", {"game": game.id})


def table_close_if_empty(link: GameTable) -> bool:
    """Close a breaking table once its last player has moved (the table locked)."""
    table = link.table
    assert table is not None
    if table.seats.filter(player__isnull=False).exists() or running_hand(table) is not None:
        return False
    table_set_status(table_id=table.id, status=TableStatus.CLOSED)
    link.status = PendingTableStatus.CLOSED
    link.save(update_fields=["status"])
    return True


# ------------------------------------------------------------------------- rotation


def rotation_step(*, table_id: int, players: int) -> None:
    """After a hand at a rotating table (its lock held by the settling transaction): count
    it, tell the players one hand ahead which game comes next, and switch the variant the
    next hand deals once the game's hands or orbit are done (docs/rules.md 11).

    An orbit is one hand per player dealt in when the game's turn began (stud has no button).
    """
    link = GameTable.objects.select_related("game").filter(table_id=table_id).first()
    if link is None or len(link.game.rotation) < 2:
        return
    game = link.game
    table = Table.objects.get(pk=table_id)
    if link.rotation_length == 0:
        link.rotation_length = game.rotate_every_hands or max(players, 2)
    link.rotation_hands += 1
    left = link.rotation_length - link.rotation_hands
    following = game.rotation[(link.rotation_index + 1) % len(game.rotation)]
    if left == 1:
        append_event(
            table, "game_next", {"variant": table.variant, "next": following, "hands_left": 1}
        )
    if left <= 0:
        link.rotation_index = (link.rotation_index + 1) % len(game.rotation)
        link.rotation_hands = 0
        link.rotation_length = 0
        Table.objects.filter(pk=table_id).update(variant=following)
        append_event(table, "game_change", {"from": table.variant, "variant": following})
    link.save(update_fields=["rotation_index", "rotation_hands", "rotation_length"])


# ------------------------------------------------------------------------- live


def live_report_left(*, table_id: int, seat: int) -> None:
    """Staff at a live table report that the player in ``seat`` left: the seat is free and
    the next name is called."""
    with transaction.atomic():
        link = GameTable.objects.select_related("game").filter(table_id=table_id).first()
        if link is None or link.game.mode != GameMode.LIVE:
            raise Conflict(
                gettext(
                    "only a live game's tables are reported by staff; online, players "
                    "leave through /api/v1/tables/{id}/leave/"
                ),
                code=Code.NOT_LIVE,
            )
        table = table_for_update(table_id)
        taken = table.seats.filter(number=seat, player__isnull=False).first()
        if taken is None or taken.player is None:
            raise Conflict(
                gettext("seat %(seat)s is empty: report a seat that has a player") % {"seat": seat},
                code=Code.EMPTY,
            )
        seat_leave(table_id=table_id, player=taken.player)
