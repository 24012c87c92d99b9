"""Seat offers: the floor calls a name for every open seat of a ring game.

``game_fill`` is the floor's one pass over a game, run by the workers (after a seat opens, a
hand ends, a name joins, an offer is declined) and by beat's sweep as the safety net. Under
the game's lock and then its tables' locks (in id order) it:

1. expires offers past their deadline (the name keeps its place ``misses_allowed`` times,
   then drops);
2. carries out moves whose player has finished their hand;
3. starts or stops short-handed clocks and breaks tables short for too long;
4. gives every open seat that is not held to the next candidate, in this order: a player of
   a breaking table, the must-move player who has waited longest (main tables only), a seat
   or table change in request order, then the wait list in its order. A name that missed an
   offer for a seat is not called again for the same vacancy;
5. opens a table when the list is long enough and no seat is free (live: proposes one);
6. closes breaking tables whose players have all moved.

A seat is held by at most one pending offer and an entry or a mover has at most one pending
offer (database constraints); a held seat cannot be taken through ``seat_sit``. Deadlines
live on the offer rows: the countdown task is the fast path, the sweep catches a lost one,
and a duplicate or late run finds nothing due and changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext

from games.codes import Code
from games.errors import Conflict, Forbidden, NotFound
from games.locks import game_for_update, table_for_update
from games.models import (
    ChangeStatus,
    EntryStatus,
    FloorLog,
    Game,
    GameMode,
    GameStatus,
    GameTable,
    Offer,
    OfferKind,
    OfferStatus,
    PendingTableStatus,
    Player,
    Seat,
    SeatChange,
    Table,
    TableEvent,
    TableRole,
    TableStatus,
    WaitEntry,
)
from games.selectors import running_hand
from games.services import schedule
from games.services.chips import chips_move
from games.services.floor_tables import (
    game_table_open,
    game_table_propose,
    table_close_if_empty,
    tables_track_short,
)
from games.services.hands import append_event, table_wake
from games.services.seating import seat_sit
from money.cashier import bankroll

VACATING_EVENTS = ("leave", "move_out")
MAX_ROUNDS = 64
"""Passes of step 4 per fill; each pass can only open seats by moving players, so this
bounds a fill on a game of 8 tables with room to spare."""


@dataclass(frozen=True)
class OpenSeat:
    """A free seat not held by any offer, and the vacancy it belongs to."""

    link: GameTable
    table: Table
    number: int
    vacancy: int
    opened_at: datetime


@dataclass
class FillResult:
    expired: int = 0
    offered: int = 0
    moved: int = 0
    opened: int = 0


# ------------------------------------------------------------------------- the floor's pass


def game_fill(*, game_id: int) -> FillResult:
    """Run the floor's pass over one game (see the module docstring)."""
    with transaction.atomic():
        game = game_for_update(game_id)
        if game.status != GameStatus.RUNNING:
            return FillResult()
        return _fill(game)


def offer_expire(*, offer_id: int) -> str:
    """An offer's deadline passed (fast path): expire it and call the next name. A late or
    duplicate run finds the offer answered or not yet due and does nothing."""
    with transaction.atomic():
        offer = Offer.objects.filter(pk=offer_id).only("game_id").first()
        if offer is None:
            return "no such offer"
        game = game_for_update(offer.game_id)
        offer = Offer.objects.get(pk=offer_id)
        if offer.status != OfferStatus.PENDING:
            return f"offer {offer.status}"
        if offer.expires_at > timezone.now():
            return "not due"
        _fill(game)
        return "expired"


def _fill(game: Game) -> FillResult:
    result = FillResult()
    tables = _lock_tables(game)
    now = timezone.now()
    for offer in Offer.objects.filter(game=game, status=OfferStatus.PENDING, expires_at__lte=now):
        _end(game, offer, OfferStatus.EXPIRED)
        result.expired += 1
    _drop_seated_entries(game, tables)
    for offer in _pending_moves(game):
        result.moved += _try_move(game, offer, tables)
    links = _links(game, tables)
    tables_track_short(game, links)
    for _ in range(MAX_ROUNDS):
        progress = False
        for seat in _open_seats(game, tables):
            made = _offer_next(game, seat, tables)
            if made is not None:
                result.offered += 1
                progress = True
                if made.kind != OfferKind.LIST:
                    result.moved += _try_move(game, made, tables)
        if progress:
            continue
        if not _needs_table(game, tables):
            break
        if game.mode == GameMode.LIVE:
            game_table_propose(game)
            break
        link = game_table_open(game)
        assert link.table is not None
        tables[link.table.id] = table_for_update(link.table.id)
        result.opened += 1
    for link in links:
        if link.status == PendingTableStatus.BREAKING:
            table_close_if_empty(link)
    return result


def _lock_tables(game: Game) -> dict[int, Table]:
    """Lock the game's open and breaking tables in id order; these instances are the ones
    every event is appended through (their seq is current)."""
    ids = (
        GameTable.objects.filter(
            game=game,
            status__in=(PendingTableStatus.OPEN, PendingTableStatus.BREAKING),
            table__isnull=False,
        )
        .order_by("table_id")
        .values_list("table_id", flat=True)
    )
    tables = {table_id: table_for_update(table_id) for table_id in ids if table_id is not None}
    return {k: t for k, t in tables.items() if t.status != TableStatus.CLOSED}


def _links(game: Game, tables: dict[int, Table]) -> list[GameTable]:
    links = list(GameTable.objects.filter(game=game, table_id__in=tables).order_by("table_id"))
    for link in links:
        assert link.table_id is not None
        link.table = tables[link.table_id]
    return links


def _seated_players(tables: dict[int, Table]) -> set[int]:
    return set(
        Seat.objects.filter(table_id__in=tables, player__isnull=False).values_list(
            "player_id", flat=True
        )
    )


def _drop_seated_entries(game: Game, tables: dict[int, Table]) -> None:
    """Nobody waits on a list for a game they are seated in."""
    seated = WaitEntry.objects.filter(
        game=game, status=EntryStatus.WAITING, player_id__in=_seated_players(tables)
    )
    Offer.objects.filter(entry__in=seated, status=OfferStatus.PENDING).update(
        status=OfferStatus.WITHDRAWN, closed_at=timezone.now()
    )
    seated.update(status=EntryStatus.SEATED)


def _open_seats(game: Game, tables: dict[int, Table]) -> list[OpenSeat]:
    held = set(
        Offer.objects.filter(table_id__in=tables, status=OfferStatus.PENDING).values_list(
            "table_id", "seat"
        )
    )
    links = {
        link.table_id: link
        for link in GameTable.objects.filter(
            game=game, table_id__in=tables, status=PendingTableStatus.OPEN
        )
    }
    free = Seat.objects.filter(table_id__in=links, player__isnull=True).order_by(
        "table_id", "number"
    )
    seats = []
    for seat in free:
        if (seat.table_id, seat.number) in held:
            continue
        table = tables[seat.table_id]
        vacated = (
            TableEvent.objects.filter(table=table, kind__in=VACATING_EVENTS, data__seat=seat.number)
            .order_by("-seq")
            .first()
        )
        seats.append(
            OpenSeat(
                link=links[seat.table_id],
                table=table,
                number=seat.number,
                vacancy=vacated.seq if vacated else 0,
                opened_at=vacated.created_at if vacated else table.created_at,
            )
        )
    return seats


def _needs_table(game: Game, tables: dict[int, Table]) -> bool:
    """The list is long enough, every seat is taken or held, and the game may grow."""
    if not game.open_at_list_length or len(tables) >= game.max_tables:
        return False
    if _open_seats(game, tables):
        return False
    unoffered = WaitEntry.objects.filter(game=game, status=EntryStatus.WAITING).exclude(
        offers__status=OfferStatus.PENDING
    )
    return unoffered.count() >= game.open_at_list_length


# ------------------------------------------------------------------------- choosing a name


def _missed(seat: OpenSeat) -> Q:
    """Entries already called (and not seated) for this very vacancy: one subquery, so the
    three conditions hold for the same offer (a multi-valued ``exclude`` would not)."""
    called = Offer.objects.filter(table=seat.table, seat=seat.number, vacancy=seat.vacancy)
    return Q(pk__in=called.exclude(entry__isnull=True).values("entry_id"))


def _offer_next(game: Game, seat: OpenSeat, tables: dict[int, Table]) -> Offer | None:
    for kind, player_id, from_table in _movers(game, seat, tables):
        tried = Offer.objects.filter(
            mover_id=player_id, table=seat.table, seat=seat.number, vacancy=seat.vacancy
        ).exists()
        busy = Offer.objects.filter(mover_id=player_id, status=OfferStatus.PENDING).exists()
        if not tried and not busy:
            return _make_offer(game, seat, kind=kind, mover_id=player_id, from_table=from_table)
    seated = _seated_players(tables)
    entries = (
        WaitEntry.objects.filter(game=game, status=EntryStatus.WAITING)
        .filter(Q(table__isnull=True) | Q(table=seat.table))
        .exclude(offers__status=OfferStatus.PENDING)
        .exclude(_missed(seat))
        .order_by("rank")
    )
    for entry in entries:
        if entry.player_id is None or entry.player_id not in seated:
            return _make_offer(game, seat, kind=OfferKind.LIST, entry=entry)
    return None


def _movers(game: Game, seat: OpenSeat, tables: dict[int, Table]) -> list[tuple[str, int, Table]]:
    """Seated players who may move into ``seat``, in the order they are owed it."""
    movers: list[tuple[str, int, Table]] = []
    links = GameTable.objects.filter(game=game, table_id__in=tables).order_by("table_id")
    for link in links:
        if link.status == PendingTableStatus.BREAKING and link.table_id != seat.table.id:
            table = tables[link.table_id]  # type: ignore[index]
            for player_id in _sitting(table):
                movers.append((OfferKind.BREAK, player_id, table))
    if seat.link.role == TableRole.MAIN:
        for link in links.filter(feeds=seat.link, status=PendingTableStatus.OPEN):
            table = tables[link.table_id]  # type: ignore[index]
            for player_id in _sitting(table):
                movers.append((OfferKind.MUST_MOVE, player_id, table))
    changes = SeatChange.objects.filter(
        game=game, status=ChangeStatus.WAITING, to_table=seat.table
    ).order_by("created_at", "id")
    for change in changes:
        if change.to_seat not in (None, seat.number):
            continue
        if not Seat.objects.filter(table_id=change.from_table_id, player=change.player_id).exists():
            change.status = ChangeStatus.CANCELLED
            change.save(update_fields=["status"])
            continue
        if change.from_table_id in tables:
            movers.append((OfferKind.CHANGE, change.player_id, tables[change.from_table_id]))
    return movers


def _sitting(table: Table) -> list[int]:
    """Players at the table (not leaving), longest there first: by their latest sit event."""
    seats = Seat.objects.filter(table=table, player__isnull=False, leaving=False)
    since = {
        seat.player_id: TableEvent.objects.filter(
            table=table, kind="sit", data__player=seat.player_id
        )
        .order_by("-seq")
        .values_list("seq", flat=True)
        .first()
        or 0
        for seat in seats
    }
    return sorted(since, key=lambda player_id: (since[player_id], player_id))  # type: ignore[arg-type]


def _make_offer(
    game: Game,
    seat: OpenSeat,
    *,
    kind: str,
    entry: WaitEntry | None = None,
    mover_id: int | None = None,
    from_table: Table | None = None,
) -> Offer:
    offer = Offer.objects.create(
        game=game,
        table=seat.table,
        seat=seat.number,
        kind=kind,
        entry=entry,
        mover_id=mover_id,
        from_table=from_table,
        vacancy=seat.vacancy,
        opened_at=seat.opened_at,
        expires_at=timezone.now() + timedelta(seconds=game.offer_seconds),
    )
    FloorLog.objects.create(
        game=game,
        entry=entry,
        kind="offer",
        data={"offer": offer.id, "kind": kind, "table": seat.table.id, "seat": seat.number},
    )
    if entry is not None:
        append_event(seat.table, "seat_offered", {"seat": seat.number, "name": entry.name})
    schedule.offer_expire_later(offer.id, game.offer_seconds)
    return offer


def _end(game: Game, offer: Offer, status: str) -> None:
    """Close an offer unanswered: a name that misses keeps its place ``misses_allowed``
    times, then drops."""
    offer.status = status
    offer.closed_at = timezone.now()
    offer.save(update_fields=["status", "closed_at"])
    entry = offer.entry
    if entry is None or status not in (OfferStatus.EXPIRED, OfferStatus.DECLINED):
        return
    entry.misses += 1
    if entry.misses > game.misses_allowed:
        entry.status = EntryStatus.DROPPED
    entry.save(update_fields=["misses", "status"])
    FloorLog.objects.create(
        game=game, entry=entry, kind=status, data={"offer": offer.id, "misses": entry.misses}
    )


# ------------------------------------------------------------------------- moves


def _pending_moves(game: Game) -> list[Offer]:
    return list(
        Offer.objects.filter(game=game, status=OfferStatus.PENDING)
        .exclude(kind=OfferKind.LIST)
        .order_by("id")
    )


def _try_move(game: Game, offer: Offer, tables: dict[int, Table]) -> int:
    """Move the player between hands; wait while they are in a hand at their table."""
    source = tables.get(offer.from_table_id or 0)
    target = tables.get(offer.table_id)
    seat_from = Seat.objects.filter(table=source, player_id=offer.mover_id).first()
    seat_to = Seat.objects.filter(table=target, number=offer.seat, player__isnull=True).first()
    if source is None or target is None or seat_from is None or seat_to is None:
        offer.status = OfferStatus.WITHDRAWN
        offer.closed_at = timezone.now()
        offer.save(update_fields=["status", "closed_at"])
        return 0
    hand = running_hand(source)
    if hand is not None and any(p["player"] == offer.mover_id for p in hand.lineup):
        return 0
    player = Player.objects.get(pk=offer.mover_id)
    stack = seat_from.stack
    append_event(
        source,
        "move_out",
        {"seat": seat_from.number, "player": player.id, "to_table": target.id, "to": offer.seat},
    )
    Seat.objects.filter(pk=seat_from.pk).update(
        player=None, stack=0, sitting_out=False, leaving=False
    )
    chips_move(from_table_id=source.id, to_table_id=target.id, player_id=player.id, amount=stack)
    Seat.objects.filter(pk=seat_to.pk).update(
        player=player, stack=stack, sitting_out=False, leaving=False
    )
    append_event(
        target,
        "sit",
        {
            "seat": offer.seat,
            "player": player.id,
            "name": player.display_name,
            "bot": player.is_bot,
            "stack": stack,
            "moved_from": source.id,
        },
    )
    offer.status = OfferStatus.ACCEPTED
    offer.closed_at = timezone.now()
    offer.save(update_fields=["status", "closed_at"])
    SeatChange.objects.filter(
        game=game, player_id=player.id, from_table=source, status=ChangeStatus.WAITING
    ).update(status=ChangeStatus.DONE)
    FloorLog.objects.create(
        game=game,
        kind="move",
        data={"offer": offer.id, "kind": offer.kind, "player": player.id, "from": source.id},
    )
    table_wake(target)
    return 1


# ------------------------------------------------------------------------- answering


def _entry_for(entry_id: int, caller: Player | None, staff: bool) -> WaitEntry:
    entry = WaitEntry.objects.filter(pk=entry_id).first()
    if entry is None:
        raise NotFound(
            gettext("no wait-list entry %(entry_id)s: see yours at /api/v1/games/waitlist/")
            % {"entry_id": entry_id}
        )
    if not staff and (caller is None or entry.player_id != caller.id):
        raise Forbidden(gettext("this is someone else's wait-list entry"), code=Code.NOT_YOUR_ENTRY)
    return entry


def _pending_offer(entry: WaitEntry) -> Offer:
    offer = entry.offers.filter(status=OfferStatus.PENDING).first()
    if offer is not None and offer.expires_at > timezone.now():
        return offer
    last = offer or entry.offers.order_by("-id").first()
    if last is not None and last.status in (OfferStatus.PENDING, OfferStatus.EXPIRED):
        raise Conflict(
            gettext(
                "the offer of table %(table_id)s seat %(seat)s expired at "
                "%(expires_at)s: wait for the next call"
            )
            % {
                "table_id": last.table_id,
                "seat": last.seat,
                "expires_at": last.expires_at.isoformat(),
            },
            code=Code.OFFER_EXPIRED,
            detail={"entry_status": entry.status},
        )
    raise Conflict(
        gettext("no seat is offered to this entry: wait for the call"), code=Code.NO_OFFER
    )


def offer_accept(*, entry_id: int, caller: Player | None, staff: bool, buy_in: int) -> Offer:
    """Take the offered seat with a buy-in: seated at once, dealt in at the next hand."""
    entry = _entry_for(entry_id, caller, staff)
    with transaction.atomic():
        game_for_update(entry.game_id)
        entry = WaitEntry.objects.get(pk=entry_id)
        offer = _pending_offer(entry)
        walk_in = entry.player is None
        player = entry.player or _walk_in_player(entry)
        if walk_in and buy_in > 0:  # a live walk-in pays the buy-in in cash at the desk
            bankroll(player_id=player.id, amount=buy_in, memo="walk-in buy-in paid in cash")
        if Seat.objects.filter(table__game_table__game_id=entry.game_id, player=player).exists():
            raise Conflict(gettext("you are already seated at this game"), code=Code.ALREADY_SEATED)
        table_for_update(offer.table_id)
        offer.status = OfferStatus.ACCEPTED
        offer.closed_at = timezone.now()
        offer.save(update_fields=["status", "closed_at"])
        entry.status = EntryStatus.SEATED
        entry.player = player
        entry.save(update_fields=["status", "player"])
        seat_sit(
            table_id=offer.table_id,
            player=player,
            seat_number=offer.seat,
            buy_in=buy_in,
            by_staff=staff,
            via_floor=True,
        )
        FloorLog.objects.create(
            game_id=entry.game_id, entry=entry, kind="accepted", data={"offer": offer.id}
        )
        return offer


def offer_decline(*, entry_id: int, caller: Player | None, staff: bool) -> WaitEntry:
    """Turn the offered seat down: the next name is called (a decline counts as a miss)."""
    entry = _entry_for(entry_id, caller, staff)
    with transaction.atomic():
        game = game_for_update(entry.game_id)
        entry = WaitEntry.objects.get(pk=entry_id)
        offer = _pending_offer(entry)
        _end(game, offer, OfferStatus.DECLINED)
        _fill(game)
        entry.refresh_from_db()
        return entry


def _walk_in_player(entry: WaitEntry) -> Player:
    """A live walk-in gets a guest profile that cannot sign in (staff seat them)."""
    user = get_user_model().objects.create_user(username=f"guest-{entry.id}", password=None)
    return Player.objects.create(user=user, display_name=entry.name)
