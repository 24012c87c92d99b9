"""The desk's ring games (staff, as the floor API): open a game with its tables (a
must-move table too), open the table the floor proposes, the wait list with its seat
offers (walk-ins added by name, accepted with a buy-in or declined, names moved or removed
with a reason), and tables paused, resumed or closed. Each form is read through the API's
input serializer and calls the service its endpoint calls (``games.api.floor_views``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _l
from django.views.decorators.http import require_http_methods, require_POST

from games import floor_selectors
from games.api.floor_serializers import (
    AcceptInputSerializer,
    GameCreateInputSerializer,
    MoveInputSerializer,
    RemoveQuerySerializer,
    WalkInInputSerializer,
)
from games.engine.rules import Variant
from games.errors import Forbidden, NotFound
from games.models import GameMode, TableStatus, WaitEntry
from games.services import floor_tables, offers, tables, waitlist
from refusals import Refusal
from web.codes import Code
from web.games import game_name
from web.views.common import refusals_as_pages, sign_in_required
from web.views.desk_forms import Field, Form, form_filled, form_read, form_refused

VARIANT_CHOICES = [(v.value, game_name(v.value)) for v in Variant]
GAME_FIELDS = [
    Field("name", _l("Name"), kind="text", required=True),
    Field("mode", _l("Mode"), kind="select", choices=GameMode.choices),
    Field("variant", _l("Game"), kind="select", choices=VARIANT_CHOICES),
    Field("ante", _l("Ante"), required=True),
    Field("bring_in", _l("Bring-in"), required=True),
    Field("small_bet", _l("Small bet"), required=True),
    Field("big_bet", _l("Big bet"), required=True),
    Field("buy_in_min", _l("Smallest buy-in")),
    Field("buy_in_max", _l("Largest buy-in")),
    Field("seat_count", _l("Seats a table (2 to 8)")),
    Field("tables", _l("Tables to open now")),
    Field("max_tables", _l("Most tables")),
    Field("must_move", _l("Also a must-move table feeding the first"), kind="checkbox"),
    Field("offer_seconds", _l("Seconds to take an offered seat")),
    Field("misses_allowed", _l("Offers a name may miss")),
    Field("open_at_list_length", _l("Open a table at this list length (0: never)")),
    Field("short_players", _l("Break a table short of (0: never)")),
    Field("short_seconds", _l("... after this many seconds short")),
    Field(
        "rotation",
        _l("Games in rotation"),
        kind="list",
        help=_l("Comma separated, e.g. stud_hi, razz, stud_8 (empty: no rotation)."),
    ),
    Field("rotate_every_hands", _l("Rotate every N hands (0: one orbit)")),
]
WALK_IN_FIELDS = [Field("name", _l("Name of the walk-in"), kind="text", required=True)]
ACCEPT_FIELDS = [Field("buy_in", _l("Buy-in"), required=True)]
MOVE_FIELDS = [
    Field("position", _l("New position"), required=True),
    Field("reason", _l("Reason"), kind="text", required=True),
]
REMOVE_FIELDS = [Field("reason", _l("Reason"), kind="text", required=True)]
ENTRY_FORMS = (("accept", ACCEPT_FIELDS), ("move", MOVE_FIELDS), ("remove", REMOVE_FIELDS))
TABLE_STATUSES = {
    "pause": (TableStatus.PAUSED, _l("Table %(table)s is paused.")),
    "resume": (TableStatus.OPEN, _l("Table %(table)s is open again.")),
    "close": (TableStatus.CLOSED, _l("Table %(table)s is closed.")),
}


def _staff_only(request: HttpRequest) -> None:
    if not request.user.is_staff:
        raise Forbidden(
            "ring games are run by staff: ask staff to open or change one", code=Code.STAFF_ONLY
        )


def _games_page(request: HttpRequest, form: Form, status: int = 200) -> HttpResponse:
    games = [floor_selectors.game_detail(g) for g in floor_selectors.running_games()[:100]]
    return render(request, "web/desk/ring.html", {"games": games, "form": form}, status=status)


@sign_in_required
@refusals_as_pages
@require_http_methods(["GET", "POST"])
def ring_games(request: HttpRequest) -> HttpResponse:
    """The running games, and a form to open one (``game_create``)."""
    _staff_only(request)
    if request.method == "GET":
        defaults = {f.name: GameCreateInputSerializer().fields[f.name].default for f in GAME_FIELDS}
        shown = {k: v for k, v in defaults.items() if isinstance(v, int | str | bool)}
        return _games_page(request, form_filled(GAME_FIELDS, shown))
    form, data = form_read(request, GAME_FIELDS, GameCreateInputSerializer)
    if form.invalid:
        return _games_page(request, form, status=400)
    try:
        game = floor_tables.game_create(**data)
    except Refusal as error:
        return _games_page(request, form_refused(form, error), status=error.status)
    messages.success(request, _("%(game)s is open.") % {"game": game.name})
    return redirect("web:desk-ring-game", game_id=game.id)


def _game_page(
    request: HttpRequest, game_id: int, forms: dict[str, Form] | None = None, status: int = 200
) -> HttpResponse:
    game = floor_selectors.get_game(game_id)
    forms = forms or {}
    waiting = floor_selectors.game_waitlist(game)
    for row in waiting:
        row["forms"] = {
            name: forms.get(f"{name}-{row['id']}")
            or form_filled([replace(f, prefix=f"{name}-{row['id']}-") for f in fields], {})
            for name, fields in ENTRY_FORMS
        }
    return render(
        request,
        "web/desk/ring_game.html",
        {
            "game": floor_selectors.game_detail(game),
            "waiting": waiting,
            "walk_in": forms.get("walk-in") or form_filled(WALK_IN_FIELDS, {}),
        },
        status=status,
    )


@sign_in_required
@refusals_as_pages
def ring_game(request: HttpRequest, game_id: int) -> HttpResponse:
    _staff_only(request)
    return _game_page(request, game_id)


def _done(request: HttpRequest, game_id: int, message: str) -> HttpResponse:
    messages.success(request, message)
    return redirect("web:desk-ring-game", game_id=game_id)


@sign_in_required
@refusals_as_pages
@require_POST
def ring_walk_in(request: HttpRequest, game_id: int) -> HttpResponse:
    """Add a walk-in's name to the list (``entry_walk_in``)."""
    _staff_only(request)
    form, data = form_read(request, WALK_IN_FIELDS, WalkInInputSerializer)
    if not form.invalid:
        try:
            entry = waitlist.entry_walk_in(game_id=game_id, name=data["name"], by=request.user)
        except Refusal as error:
            form_refused(form, error)
    if form.invalid:
        return _game_page(request, game_id, {"walk-in": form}, status=400)
    return _done(request, game_id, _("%(name)s is on the list.") % {"name": entry.name})


def _waiting_entry(game_id: int, entry_id: int) -> WaitEntry:
    entry = WaitEntry.objects.filter(pk=entry_id, game_id=game_id).first()
    if entry is None:
        raise NotFound(f"no wait-list entry {entry_id} in game {game_id}: reload the page")
    return entry


def _entry_form(
    request: HttpRequest,
    game_id: int,
    entry_id: int,
    name: str,
    fields: list[Field],
    serializer: Any,
    run: Callable[[dict[str, Any]], Any],
    done: str,
) -> HttpResponse:
    _staff_only(request)
    entry = _waiting_entry(game_id, entry_id)
    key = f"{name}-{entry_id}"
    form, data = form_read(request, fields, serializer, prefix=f"{key}-")
    if not form.invalid:
        try:
            run(data)
        except Refusal as error:
            form_refused(form, error)
    if form.invalid:
        return _game_page(request, game_id, {key: form}, status=400)
    return _done(request, game_id, done % {"name": entry.name})


@sign_in_required
@refusals_as_pages
@require_POST
def ring_accept(request: HttpRequest, game_id: int, entry_id: int) -> HttpResponse:
    """Take the seat offered to a name, with a buy-in (``offer_accept``, as staff)."""
    return _entry_form(
        request,
        game_id,
        entry_id,
        "accept",
        ACCEPT_FIELDS,
        AcceptInputSerializer,
        lambda data: offers.offer_accept(
            entry_id=entry_id, caller=None, staff=True, buy_in=data["buy_in"]
        ),
        _("%(name)s takes the seat."),
    )


@sign_in_required
@refusals_as_pages
@require_POST
def ring_move(request: HttpRequest, game_id: int, entry_id: int) -> HttpResponse:
    """Move a name on the list, with a reason (``entry_move``)."""
    return _entry_form(
        request,
        game_id,
        entry_id,
        "move",
        MOVE_FIELDS,
        MoveInputSerializer,
        lambda data: waitlist.entry_move(
            entry_id=entry_id, position=data["position"], reason=data["reason"], by=request.user
        ),
        _("%(name)s is moved."),
    )


@sign_in_required
@refusals_as_pages
@require_POST
def ring_remove(request: HttpRequest, game_id: int, entry_id: int) -> HttpResponse:
    """Remove a name from the list, with a reason (``entry_leave``, as staff)."""
    return _entry_form(
        request,
        game_id,
        entry_id,
        "remove",
        REMOVE_FIELDS,
        RemoveQuerySerializer,
        lambda data: waitlist.entry_leave(
            entry_id=entry_id, caller=None, by=request.user, staff=True, reason=data["reason"]
        ),
        _("%(name)s is off the list."),
    )


@sign_in_required
@refusals_as_pages
@require_POST
def ring_decline(request: HttpRequest, game_id: int, entry_id: int) -> HttpResponse:
    """Turn the offered seat down for a name: the next name is called (``offer_decline``)."""
    _staff_only(request)
    entry = _waiting_entry(game_id, entry_id)
    try:
        offers.offer_decline(entry_id=entry_id, caller=None, staff=True)
    except Refusal as error:
        messages.error(request, error.message)
        return redirect("web:desk-ring-game", game_id=game_id)
    return _done(request, game_id, _("%(name)s passed on the seat.") % {"name": entry.name})


@sign_in_required
@refusals_as_pages
@require_POST
def ring_confirm_table(request: HttpRequest, game_id: int) -> HttpResponse:
    """Open the table the floor proposed (``game_table_confirm``)."""
    _staff_only(request)
    try:
        floor_tables.game_table_confirm(game_id=game_id)
    except Refusal as error:
        messages.error(request, error.message)
        return redirect("web:desk-ring-game", game_id=game_id)
    return _done(request, game_id, _("The new table is open: its seats go to the list."))


@sign_in_required
@refusals_as_pages
@require_POST
def ring_table_status(
    request: HttpRequest, game_id: int, table_id: int, change: str
) -> HttpResponse:
    """Pause, resume or close a table of the game (``table_set_status``)."""
    _staff_only(request)
    detail = floor_selectors.game_detail(floor_selectors.get_game(game_id))
    if not any(t["id"] == table_id for t in detail["tables"]):
        raise NotFound(f"no table {table_id} in game {game_id}: reload the page")
    status, done = TABLE_STATUSES[change]
    try:
        tables.table_set_status(table_id=table_id, status=status)
    except Refusal as error:
        messages.error(request, error.message)
        return redirect("web:desk-ring-game", game_id=game_id)
    return _done(request, game_id, done % {"table": table_id})


urlpatterns = [
    path("desk/ring/", ring_games, name="desk-ring"),
    path("desk/ring/<int:game_id>/", ring_game, name="desk-ring-game"),
    path("desk/ring/<int:game_id>/walk-in/", ring_walk_in, name="desk-ring-walk-in"),
    path("desk/ring/<int:game_id>/confirm-table/", ring_confirm_table, name="desk-ring-confirm"),
    path(
        "desk/ring/<int:game_id>/entries/<int:entry_id>/accept/",
        ring_accept,
        name="desk-ring-accept",
    ),
    path(
        "desk/ring/<int:game_id>/entries/<int:entry_id>/decline/",
        ring_decline,
        name="desk-ring-decline",
    ),
    path("desk/ring/<int:game_id>/entries/<int:entry_id>/move/", ring_move, name="desk-ring-move"),
    path(
        "desk/ring/<int:game_id>/entries/<int:entry_id>/remove/",
        ring_remove,
        name="desk-ring-remove",
    ),
    *(
        path(
            f"desk/ring/<int:game_id>/tables/<int:table_id>/{change}/",
            ring_table_status,
            {"change": change},
            name=f"desk-ring-table-{change}",
        )
        for change in TABLE_STATUSES
    ),
]
