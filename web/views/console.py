"""The director's console: staff, or a director of the tournament's club (``clubs.access``).

A tournament's page has a live region (status, clock, controls, pending moves, payouts,
tables and chips; polled every two seconds) and, for live tournaments, the report forms
(bust-outs and chip counts), plus deal quotes. Every button calls the same service as the
API's endpoint for it.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from clubs.access import directed_club_ids
from games.errors import Forbidden, Invalid
from games.models import Table, TableKind, TableStatus
from games.services import tables as table_services
from refusals import Refusal
from tourney import selectors
from tourney.api.serializers import MAX_CHIPS
from tourney.models import EntryStatus, Mode, MoveStatus, Status, Tournament
from tourney.services.commands import clock, deals, director_clock, draw, live, moves
from tourney.windows import windows_open
from web.clockboard import clock_board, clock_fingerprint
from web.codes import Code
from web.templatetags.web_format import DEAL_METHODS
from web.views.common import (
    MAX_ID,
    after_action,
    fingerprint,
    live_region,
    posted_number,
    refusals_as_pages,
    sign_in_required,
    tournament_directed,
    whole_number,
)
from web.words import word

QUOTE_METHODS = {method: DEAL_METHODS[method] for method in ("icm", "chip_chop")}
TOURNAMENT_ACTIONS = {
    "start": (
        draw.tournament_start,
        gettext_lazy("Started: the seats are drawn and the clock runs."),
    ),
    "pause": (
        clock.tournament_pause,
        gettext_lazy("Paused: the clock is stopped, tables hold after their hand."),
    ),
    "resume": (clock.tournament_resume, gettext_lazy("Resumed: the clock runs again.")),
}


def _staff_only(request: HttpRequest) -> None:
    if not request.user.is_staff:
        raise Forbidden(_("only staff can do this"), code=Code.STAFF_ONLY)


@sign_in_required
@refusals_as_pages
def console_home(request: HttpRequest) -> HttpResponse:
    user = request.user
    tournaments = Tournament.objects.order_by("-id")
    if not user.is_staff:
        clubs = directed_club_ids(user)
        if not clubs:
            raise Forbidden(
                _("the console is for staff and club directors: ask staff for the director role"),
                code=Code.NOT_DIRECTOR,
            )
        tournaments = tournaments.filter(club_id__in=clubs)
    ring = (
        list(Table.objects.filter(kind=TableKind.RING).exclude(status=TableStatus.CLOSED))
        if user.is_staff
        else []
    )
    return render(
        request,
        "web/console/home.html",
        {"tournaments": tournaments[:100], "ring_tables": ring},
    )


@sign_in_required
@require_POST
@refusals_as_pages
def ring_table_status(request: HttpRequest, table_id: int, status: str) -> HttpResponse:
    _staff_only(request)
    try:
        table_services.table_set_status(table_id=table_id, status=status)
    except Refusal as error:
        messages.error(request, error.message)
    else:
        done = _("Table %(table)s is %(status)s.") % {"table": table_id, "status": word(status)}
        messages.success(request, done)
    return redirect("web:console")


def _live_region(
    request: HttpRequest, tournament_id: int, message: str = "", status: int = 200
) -> HttpResponse:
    tournament = tournament_directed(request, tournament_id)
    moves = selectors.moves_list(tournament, MoveStatus.PENDING)
    return live_region(
        request,
        region_id="console-live",
        url=reverse("web:console-live", args=[tournament_id]),
        version=fingerprint(clock_fingerprint(tournament), [m.id for m in moves]),
        template="web/console/live.html",
        context=lambda: {
            **clock_board(tournament),
            "results": _places(tournament),
            "moves": moves,
            "message": message,
            "message_is_error": status >= 400,
        },
        every="2s",
        status=status,
    )


def _places(tournament: Tournament) -> list[dict[str, Any]]:
    """Every place of a finished tournament (the clock screen shows the first ten)."""
    if tournament.status != Status.FINISHED:
        return []
    return [r for r in selectors.results_list(tournament) if r["place"]]


def _quote(request: HttpRequest, tournament: Tournament) -> dict[str, Any]:
    method = request.GET.get("quote")
    if method is None:
        return {}
    if method not in QUOTE_METHODS:
        unknown = _("unknown deal method %(method)r: use icm or chip_chop")
        return {"quote_error": unknown % {"method": method}}
    try:
        rows = deals.deal_quote(tournament=tournament, method=method)
    except Refusal as error:
        return {"quote_error": error.message}
    names = {e["entry"]: e["name"] for e in selectors.results_list(tournament)}
    return {
        "quote_blocked": windows_open(tournament),
        "quote_key": method,
        "quote_method": QUOTE_METHODS[method],
        "quote": [{**row, "name": names.get(row["entry"], "")} for row in rows],
    }


@sign_in_required
@refusals_as_pages
def console_tournament(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = tournament_directed(request, tournament_id)
    region = _live_region(request, tournament_id)
    state = selectors.tournament_state(tournament)
    return render(
        request,
        "web/console/tournament.html",
        {
            "tournament": tournament,
            "region": region.content.decode(),
            "state": state,
            "clock_steps": CLOCK_STEPS,
            **_quote(request, tournament),
            **_live_chips(tournament),
        },
    )


def _live_chips(tournament: Tournament) -> dict[str, Any]:
    """Live: the latest chip check (a mismatch is shown with its figures), the entries still
    to count before the next one, and the winner whose closing count is taken at the end."""
    if tournament.mode != Mode.LIVE:
        return {}
    check = selectors.last_chips_check(tournament)
    if check is not None:
        check = {**check, "difference": check["in_play"] - check["expected"]}
    winner = tournament.entries.filter(status=EntryStatus.WINNER).select_related("player").first()
    return {
        "chip_check": check,
        "uncounted": selectors.live_uncounted(tournament),
        "winner": winner,
    }


@sign_in_required
@refusals_as_pages
def console_live(request: HttpRequest, tournament_id: int) -> HttpResponse:
    return _live_region(request, tournament_id)


def _console_action(request: HttpRequest, tournament_id: int, done: str, run: Any) -> HttpResponse:
    tournament_directed(request, tournament_id)
    return after_action(
        request,
        done=done,
        run=run,
        page_url=reverse("web:console-tournament", args=[tournament_id]),
        region=lambda message, status: _live_region(request, tournament_id, message, status),
    )


@sign_in_required
@require_POST
@refusals_as_pages
def tournament_action(request: HttpRequest, tournament_id: int, action: str) -> HttpResponse:
    service, done = TOURNAMENT_ACTIONS[action]
    return _console_action(
        request, tournament_id, done, lambda: service(tournament_id=tournament_id)
    )


@sign_in_required
@require_POST
@refusals_as_pages
def move_acknowledge(request: HttpRequest, tournament_id: int, move_id: int) -> HttpResponse:
    return _console_action(
        request,
        tournament_id,
        _("Move %(move)s acknowledged.") % {"move": move_id},
        lambda: moves.move_acknowledge(tournament_id=tournament_id, move_id=move_id),
    )


@sign_in_required
@require_POST
@refusals_as_pages
def deal_record(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """Record the deal the players agreed to, from the quote the console showed (the
    service checks the amounts again: every player left, summing to the prizes left)."""
    tournament_directed(request, tournament_id)
    method = request.POST.get("method", "")
    if method not in QUOTE_METHODS:
        raise Invalid(
            _("unknown deal method %(method)r: use icm or chip_chop") % {"method": method},
            code=Code.INVALID,
        )
    return _console_action(
        request,
        tournament_id,
        _("The %(method)s deal is recorded: it pays the places still to be won.")
        % {"method": DEAL_METHODS[method]},
        lambda: deals.deal_record(
            tournament_id=tournament_id, amounts=_counts(request, "amount_"), method=method
        ),
    )


MAX_ADD_SECONDS = 10**6
"""The most time the clock's form adds or removes at once (as the director's API)."""


CLOCK_STEPS = [
    (60, gettext_lazy("+1 min")),
    (-60, gettext_lazy("-1 min")),
    (300, gettext_lazy("+5 min")),
]
CLOCK_CONTROLS: dict[str, tuple[Any, str]] = {
    "add-time": (
        lambda request, tid: director_clock.clock_add_time(
            tournament_id=tid,
            seconds=posted_number(
                request,
                "seconds",
                _("the seconds to add"),
                low=-MAX_ADD_SECONDS,
                high=MAX_ADD_SECONDS,
            ),
        ),
        gettext_lazy("Time changed."),
    ),
    "next-level": (
        lambda request, tid: director_clock.clock_jump(tournament_id=tid, step=1),
        gettext_lazy("On to the next level."),
    ),
    "previous-level": (
        lambda request, tid: director_clock.clock_jump(tournament_id=tid, step=-1),
        gettext_lazy("Back one level."),
    ),
    "break": (
        lambda request, tid: director_clock.clock_break(
            tournament_id=tid,
            minutes=posted_number(
                request,
                "minutes",
                _("the break's minutes"),
                low=1,
                high=director_clock.MAX_BREAK_MINUTES,
            ),
            after_hands=request.POST.get("after_hands") == "on",
        ),
        gettext_lazy("Break called."),
    ),
    "end-break": (
        lambda request, tid: director_clock.clock_end_break(tournament_id=tid),
        gettext_lazy("The break is over: the level goes on."),
    ),
}


@sign_in_required
@require_POST
@refusals_as_pages
def clock_control(request: HttpRequest, tournament_id: int, control: str) -> HttpResponse:
    """The director's clock controls (``tourney.services.commands.director_clock``)."""
    service, done = CLOCK_CONTROLS[control]
    return _console_action(request, tournament_id, done, lambda: service(request, tournament_id))


def _counts(request: HttpRequest, prefix: str, only: set[int] | None = None) -> dict[int, int]:
    """Entry id -> chips from the fields ``<prefix><entry id>`` that were filled in."""
    counts = {}
    for name, value in request.POST.items():
        if not name.startswith(prefix) or not value.strip():
            continue
        entry = whole_number(
            name[len(prefix) :], _("the entry in %(field)r") % {"field": name}, low=1, high=MAX_ID
        )
        if only is not None and entry not in only:
            continue
        counts[entry] = whole_number(
            value, _("entry %(entry)s's chips") % {"entry": entry}, low=0, high=MAX_CHIPS
        )
    return counts


@sign_in_required
@require_POST
@refusals_as_pages
def live_report(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """Live: the bust-outs of one hand (ticked, with their chips at the start of the hand)
    and/or chip counts, as one form."""
    tournament_directed(request, tournament_id)

    def report() -> None:
        busted = {
            whole_number(v, _("a ticked bust-out"), low=1, high=MAX_ID)
            for v in request.POST.getlist("bust")
        }
        busts = _counts(request, "start_", only=busted)
        missing = busted - set(busts)
        if missing:
            raise Invalid(
                _("give the chips at the start of the hand for entries %(entries)s")
                % {"entries": sorted(missing)},
                code=Code.MISSING_CHIPS,
            )
        counts = {e: c for e, c in _counts(request, "count_").items() if e not in busted}
        if not busts and not counts:
            raise Invalid(_("tick a bust-out or fill in a chip count first"), code=Code.EMPTY)
        if busts:
            live.live_report_busts(tournament_id=tournament_id, busts=busts)
        if counts:
            live.live_report_chips(tournament_id=tournament_id, counts=counts)

    try:
        with transaction.atomic():  # both reports or neither
            report()
    except Refusal as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("Reported."))
    return redirect("web:console-tournament", tournament_id=tournament_id)
