"""The desk's tournaments: create one (online or live, every setting the API has), change
its settings (all of them while registering; in play, what the director's API changes),
register walk-ins, rebuys, add-ons and re-entries at the desk, late registration closed or
reopened, the moves list and the results. The clock, deals and live reports stay on the
console (``web.views.console``), linked from here.

Staff run every tournament, a club's director their club's (``clubs.access``), as the API;
each form is read through the API's input serializer and calls the service its endpoint
calls (``tourney.api.views``, ``tourney.api.director_views``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.db.models import Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _l
from django.views.decorators.http import require_http_methods, require_POST

from clubs.access import can_direct
from games.models import Player
from refusals import Refusal
from tourney import selectors
from tourney.api.director_serializers import SettingsInputSerializer
from tourney.api.permissions import club_players_check
from tourney.api.serializers import TournamentInputSerializer
from tourney.models import (
    AnteSchedule,
    BountyKind,
    BreakOrder,
    EntryStatus,
    Mode,
    Status,
    Tournament,
)
from tourney.services.commands import director_settings, purchases, registration, setup
from web.views.common import (
    MAX_ID,
    refusals_as_pages,
    sign_in_required,
    tournament_directed,
    whole_number,
)
from web.views.desk_forms import (
    Field,
    Form,
    club_choices,
    desk_required,
    form_errors,
    form_filled,
    form_read,
    form_refused,
)

BASICS = [
    Field("name", _l("Name"), kind="text", required=True),
    Field("mode", _l("Mode"), kind="select", choices=Mode.choices),
    Field("buy_in", _l("Buy-in (fee included)"), required=True),
    Field("fee", _l("Fee"), help=_l("Part of the buy-in, kept by the house.")),
    Field("starting_stack", _l("Starting stack"), required=True),
    Field("chip_unit", _l("Chip unit")),
    Field("table_size", _l("Players a table (2 to 8)")),
    Field("scheduled_start", _l("Scheduled start"), kind="datetime"),
]
ENTRIES = [
    Field("late_reg_levels", _l("Late registration until the end of level")),
    Field("re_entry_max", _l("Re-entries a player")),
    Field("re_entry_levels", _l("Re-entry until the end of level")),
    Field("rebuy_max", _l("Rebuys a player")),
    Field("rebuy_levels", _l("Rebuys until the end of level")),
    Field("rebuy_price", _l("Rebuy price (fee included)")),
    Field("rebuy_fee", _l("Rebuy fee")),
    Field("rebuy_chips", _l("Rebuy chips")),
    Field("add_on_level", _l("Add-on until the end of level")),
    Field("add_on_price", _l("Add-on price (fee included)")),
    Field("add_on_fee", _l("Add-on fee")),
    Field("add_on_chips", _l("Add-on chips")),
]
BOUNTIES = [
    Field("bounty", _l("Bounty (part of the buy-in)"), help=_l("Online tournaments only.")),
    Field("bounty_kind", _l("Bounty kind"), kind="select", choices=BountyKind.choices),
]
PLAY = [
    Field("action_seconds", _l("Seconds to act")),
    Field("pause_ms", _l("Pause between hands (ms)")),
    Field("minute_seconds", _l("Seconds in a clock minute")),
    Field("break_order", _l("Tables broken"), kind="select", choices=BreakOrder.choices),
    Field("balance_threshold", _l("Balance when tables differ by")),
    Field(
        "payout_percentages",
        _l("Payout percentages"),
        kind="list",
        help=_l("Comma separated, summing to 100 (empty: the standard table)."),
    ),
]
IN_PLAY = [
    Field("level_minutes", _l("Minutes of this level and those to come")),
    Field("action_seconds", _l("Seconds to act")),
    Field(
        "payout_percentages",
        _l("Payout percentages"),
        kind="list",
        help=_l("Before the money: comma separated, summing to 100."),
    ),
]
UNTIL_LEVEL = [
    Field("until_level", _l("Reopen until the end of level"), help=_l("Empty: the level in play."))
]
WALK_IN = "player"


def _settings_groups(
    request: HttpRequest, tournament: Tournament | None
) -> list[tuple[Any, list[Field]]]:
    club_id = tournament.club_id if tournament else None
    head = [
        *BASICS[:2],
        Field(
            "club_id",
            _l("Club"),
            kind="select",
            choices=club_choices(request, house=_l("None (staff only)")),
            integer=True,
        ),
        Field(
            "schedule_id",
            _l("Ante schedule"),
            kind="select",
            choices=_schedule_choices(request, club_id),
            integer=True,
            required=True,
        ),
        *BASICS[2:],
    ]
    return [
        (_l("The tournament"), head),
        (_l("Late registration, re-entries, rebuys and the add-on"), ENTRIES),
        (_l("Bounties"), BOUNTIES),
        (_l("Tables, clock and payouts"), PLAY),
    ]


def _schedule_choices(request: HttpRequest, club_id: int | None) -> list[tuple[str, str]]:
    """The schedules a tournament may take: the house's and its club's (for a new one, those
    of the clubs the caller directs)."""
    clubs = {club_id} if club_id else desk_required(request)
    schedules = AnteSchedule.objects.order_by("-id")
    if clubs or not request.user.is_staff:
        schedules = schedules.filter(Q(club__isnull=True) | Q(club_id__in=clubs))
    return [("", "")] + [(str(s.id), f"{s.name} (#{s.id})") for s in schedules[:300]]


def _fields(groups: list[tuple[Any, list[Field]]]) -> list[Field]:
    return [f for _title, fields in groups for f in fields]


def _grouped(groups: list[tuple[Any, list[Field]]], form: Form) -> list[tuple[Any, list[Field]]]:
    shown = {f.name: f for f in form.fields}
    return [(title, [shown[f.name] for f in fields]) for title, fields in groups]


def _directed(request: HttpRequest, tournament_id: int) -> Tournament:
    """The tournament if the caller runs it, from the desk (``tournament_directed``)."""
    desk_required(request)
    return tournament_directed(request, tournament_id)


def _club_checked(request: HttpRequest, form: Form, data: dict[str, Any]) -> bool:
    """As the API: only staff create a tournament without a club; a club must be one the
    caller directs."""
    if "club_id" not in data and not request.user.is_staff:
        form_errors(form, {"club_id": [_("Choose one of your clubs.")]})
    elif "club_id" in data and not can_direct(request.user, data["club_id"]):
        form_errors(form, {"club_id": [_("Choose a club you direct.")]})
    return not form.invalid


@sign_in_required
@refusals_as_pages
def tournament_list(request: HttpRequest) -> HttpResponse:
    clubs = desk_required(request)
    tournaments = Tournament.objects.select_related("club").order_by("-id")
    if clubs:
        tournaments = tournaments.filter(club_id__in=clubs)
    return render(request, "web/desk/tournaments.html", {"tournaments": tournaments[:200]})


def _new_page(request: HttpRequest, form: Form, status: int = 200) -> HttpResponse:
    groups = _grouped(_settings_groups(request, None), form)
    return render(
        request, "web/desk/tournament_new.html", {"form": form, "groups": groups}, status=status
    )


@sign_in_required
@refusals_as_pages
@require_http_methods(["GET", "POST"])
def tournament_new(request: HttpRequest) -> HttpResponse:
    desk_required(request)
    fields = _fields(_settings_groups(request, None))
    if request.method == "GET":
        defaults = {f: getattr(Tournament, f).field.default for f in ("chip_unit", "table_size")}
        return _new_page(request, form_filled(fields, {"mode": Mode.ONLINE, **defaults}))
    form, data = form_read(request, fields, TournamentInputSerializer)
    if form.invalid or not _club_checked(request, form, data):
        return _new_page(request, form, status=400)
    try:
        tournament = setup.tournament_create(**data)
    except Refusal as error:
        return _new_page(request, form_refused(form, error), status=error.status)
    messages.success(request, _("%(name)s is open for registration.") % {"name": tournament.name})
    return redirect("web:desk-tournament", tournament_id=tournament.id)


def _playing(tournament: Tournament) -> bool:
    return tournament.status in (Status.RUNNING, Status.PAUSED)


def _desk_page(
    request: HttpRequest,
    tournament: Tournament,
    *,
    settings: Form | None = None,
    walk_in: Form | None = None,
    late: Form | None = None,
    status: int = 200,
) -> HttpResponse:
    groups = _settings_groups(request, tournament)
    if settings is None:
        values = {f.name: getattr(tournament, f.name, None) for f in _fields(groups) + IN_PLAY}
        fields = IN_PLAY if _playing(tournament) else _fields(groups)
        settings = form_filled(fields, values)
    entries = list(
        tournament.entries.select_related("player").order_by("player__display_name", "number")
    )
    return render(
        request,
        "web/desk/tournament.html",
        {
            "tournament": tournament,
            "playing": _playing(tournament),
            "registering": tournament.status == Status.REGISTERING,
            "settings": settings,
            "groups": None if _playing(tournament) else _grouped(groups, settings),
            "walk_in": walk_in or form_filled(_walk_in_fields(tournament), {}),
            "late": late or form_filled(UNTIL_LEVEL, {}),
            "entries": entries,
            "moves": selectors.moves_list(tournament, None),
            "results": [r for r in selectors.results_list(tournament) if r["place"]],
        },
        status=status,
    )


@sign_in_required
@refusals_as_pages
def tournament_desk(request: HttpRequest, tournament_id: int) -> HttpResponse:
    return _desk_page(request, _directed(request, tournament_id))


@sign_in_required
@refusals_as_pages
@require_POST
def tournament_settings(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """Every setting while registering (``tournament_configure``: only what changed is
    sent, as a PATCH); in play, what ``settings_change`` takes."""
    tournament = _directed(request, tournament_id)
    if _playing(tournament):
        form, data = form_read(request, IN_PLAY, SettingsInputSerializer)
        if form.invalid:
            return _desk_page(request, tournament, settings=form, status=400)
        run: Callable[[], Any] = lambda: director_settings.settings_change(  # noqa: E731
            tournament_id=tournament.id, **data
        )
    else:
        fields = _fields(_settings_groups(request, tournament))
        form, data = form_read(request, fields, TournamentInputSerializer)
        if form.invalid or not _club_checked(request, form, data):
            return _desk_page(request, tournament, settings=form, status=400)
        changed = {k: v for k, v in data.items() if getattr(tournament, k) != v}
        run = lambda: setup.tournament_configure(tournament_id=tournament.id, **changed)  # noqa: E731
    try:
        run()
    except Refusal as error:
        return _desk_page(
            request, tournament, settings=form_refused(form, error), status=error.status
        )
    messages.success(request, _("The settings are saved."))
    return redirect("web:desk-tournament", tournament_id=tournament.id)


@sign_in_required
@refusals_as_pages
@require_POST
def late_registration(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """Close late registration now, or reopen it (``late_registration_set``)."""
    tournament = _directed(request, tournament_id)
    form, data = form_read(request, UNTIL_LEVEL)
    open_ = "reopen" in request.POST
    if not form.invalid:
        try:
            director_settings.late_registration_set(
                tournament_id=tournament.id, open_=open_, until_level=data.get("until_level")
            )
        except Refusal as error:
            form_refused(form, error)
    if form.invalid:
        return _desk_page(request, tournament, late=form, status=400)
    messages.success(
        request,
        _("Late registration is open again.") if open_ else _("Late registration is closed."),
    )
    return redirect("web:desk-tournament", tournament_id=tournament.id)


def _walk_in_fields(tournament: Tournament) -> list[Field]:
    """The players the desk may register: the club's members for a members-only club's
    tournament (as ``club_players_check``), else everyone; not those already in."""
    players = Player.objects.order_by("display_name")
    if tournament.club_id and not selectors.tournament_public(tournament):
        players = players.filter(user__club_memberships__club_id=tournament.club_id)
    inside = tournament.entries.exclude(
        status__in=[EntryStatus.UNREGISTERED, EntryStatus.REFUNDED]
    ).values("player_id")
    players = players.exclude(pk__in=inside)
    choices = [("", "")] + [(str(p.id), str(p)) for p in players[:1000]]
    return [
        Field(WALK_IN, _l("Player"), kind="select", choices=choices, required=True, integer=True)
    ]


@sign_in_required
@refusals_as_pages
@require_POST
def walk_in(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """Register a player at the desk (late registration too): ``entry_register``, after the
    API's check that the player may play the club's tournament."""
    tournament = _directed(request, tournament_id)
    form, data = form_read(request, _walk_in_fields(tournament))
    if not form.invalid:
        try:
            player_id = whole_number(str(data[WALK_IN]), _("the player"), low=1, high=MAX_ID)
            club_players_check(tournament.id, [player_id])
            entry = registration.entry_register(tournament_id=tournament.id, player_id=player_id)
        except Refusal as error:
            form_errors(form, {WALK_IN: [error.message]})
    if form.invalid:
        return _desk_page(request, tournament, walk_in=form, status=400)
    messages.success(
        request,
        _("%(player)s is registered (entry %(entry)s).")
        % {"player": entry.player, "entry": entry.number},
    )
    return redirect("web:desk-tournament", tournament_id=tournament.id)


ENTRY_ACTIONS: dict[str, tuple[Callable[..., Any], Any]] = {
    "rebuy": (purchases.entry_rebuy, _l("%(player)s rebought.")),
    "add-on": (purchases.entry_add_on, _l("%(player)s bought the add-on.")),
    "re-enter": (registration.entry_re_enter, _l("%(player)s re-entered.")),
    "unregister": (registration.entry_unregister, _l("%(player)s is unregistered and refunded.")),
}


@sign_in_required
@refusals_as_pages
@require_POST
def entry_action(request: HttpRequest, tournament_id: int, action: str) -> HttpResponse:
    """A rebuy, an add-on, a re-entry or an unregistration at the desk, for the player of
    the row (the API's endpoints with ``player``)."""
    tournament = _directed(request, tournament_id)
    service, done = ENTRY_ACTIONS[action]
    try:
        player_id = whole_number(
            request.POST.get("player", ""), _("the player"), low=1, high=MAX_ID
        )
        club_players_check(tournament.id, [player_id])
        entry = service(tournament_id=tournament.id, player_id=player_id)
    except Refusal as error:
        messages.error(request, error.message)
    else:
        messages.success(request, done % {"player": entry.player})
    return redirect("web:desk-tournament", tournament_id=tournament.id)


urlpatterns = [
    path("desk/tournaments/", tournament_list, name="desk-tournaments"),
    path("desk/tournaments/new/", tournament_new, name="desk-tournament-new"),
    path("desk/tournaments/<int:tournament_id>/", tournament_desk, name="desk-tournament"),
    path(
        "desk/tournaments/<int:tournament_id>/settings/",
        tournament_settings,
        name="desk-tournament-settings",
    ),
    path(
        "desk/tournaments/<int:tournament_id>/late-registration/",
        late_registration,
        name="desk-tournament-late-registration",
    ),
    path("desk/tournaments/<int:tournament_id>/walk-in/", walk_in, name="desk-tournament-walk-in"),
    *(
        path(
            f"desk/tournaments/<int:tournament_id>/{action}/",
            entry_action,
            {"action": action},
            name=f"desk-tournament-{action}",
        )
        for action in ENTRY_ACTIONS
    ),
]
