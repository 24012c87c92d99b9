"""A ring game's wait list: joining and leaving it, staff walk-ins, reorders and removals,
and seat or table change requests of seated players.

The list's order is ``WaitEntry.rank`` (ascending, unique among waiting entries); every
change is made under the game's lock and logged in ``FloorLog``. Calling names is
``games.services.offers``' work, run by the workers after each change here commits.
"""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext

from games.codes import Code
from games.errors import Conflict, Forbidden, Invalid, NotFound
from games.locks import game_for_update
from games.models import (
    ChangeStatus,
    EntryStatus,
    FloorLog,
    Game,
    GameStatus,
    GameTable,
    Offer,
    OfferKind,
    OfferStatus,
    PendingTableStatus,
    Player,
    Seat,
    SeatChange,
    WaitEntry,
)
from games.services import schedule


def game_for(*, variant: str, small_bet: int) -> Game:
    """The running game of this variant at these stakes."""
    games = list(
        Game.objects.filter(status=GameStatus.RUNNING, variant=variant, small_bet=small_bet)
    )
    if not games:
        raise NotFound(
            gettext("no running %(variant)s game at small bet %(small_bet)s: see /api/v1/games/")
            % {"variant": variant, "small_bet": small_bet},
            code=Code.NO_GAME,
        )
    if len(games) > 1:
        raise Conflict(
            gettext(
                "%(count)s running %(variant)s games at small bet %(small_bet)s: name "
                'one with "game" (its id from /api/v1/games/)'
            )
            % {"count": len(games), "variant": variant, "small_bet": small_bet},
            code=Code.AMBIGUOUS_GAME,
            detail={"games": [g.id for g in games]},
        )
    return games[0]


def _next_rank(game: Game) -> int:
    return int(game.entries.aggregate(top=Max("rank"))["top"] or 0) + 1


def _seated_at(game: Game, player: Player) -> int | None:
    """The table of the game where the player sits, if any."""
    return (
        Seat.objects.filter(table__game_table__game=game, player=player)
        .values_list("table_id", flat=True)
        .first()
    )


def entry_join(*, game_id: int, player: Player, table_id: int | None = None) -> WaitEntry:
    """Put the player's name at the end of the game's list (optionally for one table)."""
    with transaction.atomic():
        game = game_for_update(game_id)
        if game.status != GameStatus.RUNNING:
            raise Conflict(gettext("the game is closed: pick a running one at /api/v1/games/"))
        if player.is_bot:
            raise Forbidden(gettext("bots do not wait on lists: staff seat them"), code=Code.BOTS)
        if (
            table_id is not None
            and not GameTable.objects.filter(
                game=game, table_id=table_id, status=PendingTableStatus.OPEN
            ).exists()
        ):
            raise Invalid(
                gettext(
                    "table %(table_id)s is not an open table of this game: see its tables "
                    "at /api/v1/games/"
                )
                % {"table_id": table_id},
                code=Code.NOT_THIS_GAME,
            )
        seated = _seated_at(game, player)
        if seated is not None:
            raise Conflict(
                gettext(
                    "you are seated at table %(seated)s of this game: ask for a change at "
                    "/api/v1/tables/%(seated)s/seat-change/"
                )
                % {"seated": seated},
                code=Code.ALREADY_SEATED,
            )
        if game.entries.filter(player=player, status=EntryStatus.WAITING).exists():
            raise Conflict(
                gettext("you are already on this game's list: see /api/v1/games/waitlist/"),
                code=Code.ALREADY_LISTED,
            )
        try:
            with transaction.atomic():
                entry = WaitEntry.objects.create(
                    game=game,
                    player=player,
                    name=player.display_name,
                    table_id=table_id,
                    rank=_next_rank(game),
                )
        except IntegrityError as error:
            raise Conflict(
                gettext("you are already on this game's list"), code=Code.ALREADY_LISTED
            ) from error
        FloorLog.objects.create(game=game, entry=entry, kind="join", data={"table": table_id})
        schedule.floor_fill_now(game.id)
        return entry


def entry_walk_in(*, game_id: int, name: str, by: object) -> WaitEntry:
    """Staff put a walk-in's name at the end of a game's list (live rooms)."""
    with transaction.atomic():
        game = game_for_update(game_id)
        if game.status != GameStatus.RUNNING:
            raise Conflict(gettext("the game is closed: pick a running one at /api/v1/games/"))
        entry = WaitEntry.objects.create(game=game, name=name, rank=_next_rank(game))
        FloorLog.objects.create(game=game, entry=entry, kind="walk_in", data={}, by=by)
        schedule.floor_fill_now(game.id)
        return entry


def _waiting(entry_id: int) -> tuple[Game, WaitEntry]:
    entry = WaitEntry.objects.filter(pk=entry_id).first()
    if entry is None:
        raise NotFound(
            gettext("no wait-list entry %(entry_id)s: see yours at /api/v1/games/waitlist/")
            % {"entry_id": entry_id}
        )
    game = game_for_update(entry.game_id)
    entry = WaitEntry.objects.get(pk=entry_id)
    if entry.status != EntryStatus.WAITING:
        raise Conflict(
            gettext("the entry is no longer waiting: it is %(status)s") % {"status": entry.status},
            code=Code.NOT_WAITING,
        )
    return game, entry


def entry_leave(
    *, entry_id: int, caller: Player | None, by: object, staff: bool, reason: str
) -> WaitEntry:
    """Take a name off the list (its player, or staff with a reason); a seat offered to it
    goes to the next name."""
    with transaction.atomic():
        game, entry = _waiting(entry_id)
        own = caller is not None and entry.player_id == caller.id
        if not own and not staff:
            raise Forbidden(
                gettext("this is someone else's wait-list entry"), code=Code.NOT_YOUR_ENTRY
            )
        if not own and not reason:
            raise Invalid(
                gettext("say why the name is removed: give a reason"), code=Code.REASON_REQUIRED
            )
        entry.offers.filter(status=OfferStatus.PENDING).update(
            status=OfferStatus.WITHDRAWN, closed_at=timezone.now()
        )
        entry.status = EntryStatus.LEFT if own else EntryStatus.REMOVED
        entry.save(update_fields=["status"])
        FloorLog.objects.create(
            game=game, entry=entry, kind=entry.status, data={"reason": reason}, by=by
        )
        schedule.floor_fill_now(game.id)
        return entry


def entry_move(*, entry_id: int, position: int, reason: str, by: object) -> WaitEntry:
    """Staff move a name to another place on the list, saying why (logged)."""
    if not reason.strip():
        raise Invalid(
            gettext("say why the list is reordered: give a reason"), code=Code.REASON_REQUIRED
        )
    with transaction.atomic():
        game, entry = _waiting(entry_id)
        order = list(game.entries.filter(status=EntryStatus.WAITING).order_by("rank"))
        if not 1 <= position <= len(order):
            raise Invalid(
                gettext("position %(position)s is off the list: positions are 1..%(count)s")
                % {"position": position, "count": len(order)},
                code=Code.BAD_POSITION,
            )
        before = next(k for k, e in enumerate(order, start=1) if e.id == entry.id)
        order.remove(next(e for e in order if e.id == entry.id))
        order.insert(position - 1, entry)
        # fresh ranks above every old one, so the unique rank never clashes mid-update
        base = _next_rank(game)
        for k, item in enumerate(order):
            WaitEntry.objects.filter(pk=item.pk).update(rank=base + k)
        FloorLog.objects.create(
            game=game,
            entry=entry,
            kind="reorder",
            data={"from": before, "to": position, "reason": reason},
            by=by,
        )
        entry.refresh_from_db()
        return entry


def change_request(
    *, table_id: int, player: Player, to_table_id: int | None, to_seat: int | None
) -> SeatChange:
    """A seated player asks for another seat (or another table) of the same game; it is
    honoured in request order when that seat opens, between the player's hands."""
    link = GameTable.objects.filter(table_id=table_id).first()
    if link is None:
        raise Conflict(
            gettext("table %(table_id)s belongs to no ring game: changes are made within a game")
            % {"table_id": table_id},
            code=Code.NO_GAME,
        )
    with transaction.atomic():
        game = game_for_update(link.game_id)
        if not Seat.objects.filter(table_id=table_id, player=player).exists():
            raise Conflict(gettext("you are not seated at this table"), code=Code.NOT_SEATED)
        to_table_id = to_table_id or table_id
        if not GameTable.objects.filter(
            game=game, table_id=to_table_id, status=PendingTableStatus.OPEN
        ).exists():
            raise Invalid(
                gettext(
                    "table %(to_table_id)s is not an open table of your game: changes stay "
                    "within the game; join another game's list instead"
                )
                % {"to_table_id": to_table_id},
                code=Code.OTHER_GAME,
            )
        if to_table_id == table_id and to_seat is None:
            raise Invalid(gettext("name the seat you want at this table"), code=Code.SEAT_REQUIRED)
        if to_seat is not None:
            seats = Seat.objects.filter(table_id=to_table_id, number=to_seat)
            if not seats.exists():
                raise Invalid(
                    gettext("table %(to_table_id)s has no seat %(to_seat)s")
                    % {"to_table_id": to_table_id, "to_seat": to_seat},
                    code=Code.NO_SEAT,
                )
            if seats.filter(player=player).exists():
                raise Invalid(gettext("that is your seat already"), code=Code.SAME_SEAT)
        change, _ = SeatChange.objects.update_or_create(
            player=player,
            from_table_id=table_id,
            status="waiting",
            defaults={"game": game, "to_table_id": to_table_id, "to_seat": to_seat},
        )
        FloorLog.objects.create(
            game=game,
            kind="change",
            data={"player": player.id, "from": table_id, "to": to_table_id, "seat": to_seat},
        )
        schedule.floor_fill_now(game.id)
        return change


def change_cancel(*, table_id: int, player: Player) -> SeatChange:
    """Withdraw the player's waiting seat or table change request from this table."""
    with transaction.atomic():
        change = SeatChange.objects.filter(
            from_table_id=table_id, player=player, status=ChangeStatus.WAITING
        ).first()
        if change is None:
            raise Conflict(
                gettext("you have no waiting change request from this table"), code=Code.NO_CHANGE
            )
        game_for_update(change.game_id)
        Offer.objects.filter(
            mover=player, from_table_id=table_id, kind=OfferKind.CHANGE, status=OfferStatus.PENDING
        ).update(status=OfferStatus.WITHDRAWN, closed_at=timezone.now())
        change.status = ChangeStatus.CANCELLED
        change.save(update_fields=["status"])
        FloorLog.objects.create(
            game_id=change.game_id, kind="change_cancelled", data={"change": change.id}
        )
        schedule.floor_fill_now(change.game_id)
        return change
