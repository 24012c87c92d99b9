"""The cashier's desk: a club's day read from the ledger (buy-ins, fees, rake, prizes, the
cash desk) with its members' balances, and a player's account: balance, transactions,
deposit and withdraw. Staff serve every account (site-wide ones too), a club's director
their club's members (``clubs.access.can_serve``). The forms call the services the API's
cashier endpoints call (``money.cashier``)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path, reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from clubs.access import can_serve, is_staff
from clubs.models import Club, Membership
from games.errors import Forbidden, NotFound
from games.models import Player
from money import cashier, selectors
from money.codes import Code as MoneyCode
from money.daybook import club_day
from money.ledger import player_account
from money.models import Account, AccountKind
from web.codes import Code as WebCode
from web.views.desk_common import clubs_run, described_errors, desk_required, run_form
from web.views.desk_players import player_served

POSTINGS_SHOWN = 50
AMOUNT_FIELDS = {MoneyCode.INVALID_AMOUNT: "amount", MoneyCode.INSUFFICIENT_FUNDS: "amount"}


class CashierForm(forms.Form):
    """A deposit or a withdrawal (the API's ``CashierInputSerializer``)."""

    amount = forms.IntegerField(
        label=gettext_lazy("Amount"), min_value=1, max_value=cashier.MAX_AMOUNT
    )
    memo = forms.CharField(
        label=gettext_lazy("Memo"),
        max_length=200,
        required=False,
        help_text=gettext_lazy("Optional: a receipt number, a note."),
    )


MOVES = {
    "deposit": (cashier.deposit, gettext_lazy("Deposited %(amount)s: the balance is %(balance)s.")),
    "withdraw": (
        cashier.withdraw,
        gettext_lazy("Paid out %(amount)s: the balance is %(balance)s."),
    ),
}


class DayForm(forms.Form):
    club = forms.TypedChoiceField(label=gettext_lazy("Club"), coerce=int, required=False)
    day = forms.DateField(
        label=gettext_lazy("Day"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )

    def __init__(self, *args: Any, clubs: list[Club], staff: bool, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices = [(club.id, club.name) for club in clubs]
        if staff:
            choices.append(("", _("Site-wide accounts (no club)")))
        self.fields["club"].choices = choices


def _club_chosen(request: HttpRequest, raw: str | None) -> int | None:
    """The ``club`` of the query string: a club the caller runs, or None (site-wide, staff
    only). A director who names none gets their first club."""
    runs = clubs_run(request.user)
    if raw in (None, ""):
        if is_staff(request.user):
            return None
        first = runs.first()
        if first is None:
            raise Forbidden(_("you direct no club"), code=WebCode.NOT_DIRECTOR)
        return first.id
    wanted = int(raw) if raw.isascii() and raw.isdigit() and len(raw) <= 18 else None
    if wanted is None or not runs.filter(pk=wanted).exists():
        raise NotFound(
            _("no club %(club)s among your clubs: choose one from the list") % {"club": raw}
        )
    return wanted


@never_cache
@desk_required
def cashier_home(request: HttpRequest) -> HttpResponse:
    """The club's day and its members' balances."""
    club_id = _club_chosen(request, request.GET.get("club"))
    clubs = list(clubs_run(request.user))
    today = timezone.localdate()
    form = DayForm(
        {"club": club_id or "", "day": request.GET.get("day") or today.isoformat()},
        clubs=clubs,
        staff=is_staff(request.user),
    )
    day = form.cleaned_data["day"] if form.is_valid() else today
    described_errors(form)
    return render(
        request,
        "web/desk/cashier.html",
        {
            "form": form,
            "club": next((c for c in clubs if c.id == club_id), None),
            "day": club_day(club_id=club_id, day=day),
            "balances": _balances(club_id),
        },
        status=400 if form.errors else 200,
    )


def _balances(club_id: int | None) -> list[tuple[Player, int]]:
    """The club's members (staff, site-wide: every player with an account) and their
    balances in the club's accounts."""
    held = dict(
        Account.objects.filter(kind=AccountKind.PLAYER, club_id=club_id).values_list(
            "owner_id", "balance"
        )
    )
    if club_id is None:
        players = Player.objects.filter(pk__in=held)
    else:
        members = Membership.objects.filter(club_id=club_id).values("user_id")
        players = Player.objects.filter(user_id__in=members)
    players = players.select_related("user").order_by("display_name", "id")
    return [(player, held.get(player.id, 0)) for player in players]


def _served(request: HttpRequest, player_id: int) -> tuple[Player, int | None]:
    """The player and the club of the account served: a 404 for a player the caller does
    not serve, a 403 for an account of a club the player is not in (as the API)."""
    player = player_served(request.user, player_id)
    raw = request.GET.get("club")
    if not raw and not is_staff(request.user):  # a director: the first club they share
        raw = str(clubs_run(request.user).filter(memberships__user_id=player.user_id)[0].id)
    club_id = _club_chosen(request, raw)
    if not can_serve(request.user, club_id, player.id):
        raise Forbidden(
            _("%(name)s is not a member of this club: add them to the club first")
            % {"name": player.display_name},
            code=WebCode.NOT_DIRECTOR,
        )
    return player, club_id


def _account_page(
    request: HttpRequest,
    player: Player,
    club_id: int | None,
    forms_shown: dict[str, CashierForm] | None = None,
    status: int = 200,
) -> HttpResponse:
    key = player_account(player.id, club_id)
    account = selectors.account_find(key)
    runs = clubs_run(request.user)
    clubs = runs.filter(memberships__user_id=player.user_id)
    shown = {name: CashierForm(prefix=name) for name in MOVES} | (forms_shown or {})
    return render(
        request,
        "web/desk/account.html",
        {
            "player": player,
            "club": runs.filter(pk=club_id).first() if club_id else None,
            "clubs": clubs,
            "site_wide": is_staff(request.user),
            "balance": account.balance if account else 0,
            "postings": selectors.account_postings(key)[:POSTINGS_SHOWN],
            "deposit": shown["deposit"],
            "withdraw": shown["withdraw"],
            "query": f"?club={club_id}" if club_id else "",
        },
        status=status,
    )


@never_cache
@desk_required
def cashier_player(request: HttpRequest, player_id: int) -> HttpResponse:
    player, club_id = _served(request, player_id)
    return _account_page(request, player, club_id)


@never_cache
@require_POST
@desk_required
def cashier_move(request: HttpRequest, player_id: int, move: str) -> HttpResponse:
    player, club_id = _served(request, player_id)
    service, done = MOVES[move]
    form = CashierForm(request.POST, prefix=move)

    def run(data: dict[str, Any]) -> Any:
        return service(player_id=player.id, by=request.user, club_id=club_id, **data)

    if run_form(form, run, AMOUNT_FIELDS) is None:
        return _account_page(request, player, club_id, {move: form}, status=400)
    balance = selectors.account_find(player_account(player.id, club_id))
    amount = form.cleaned_data["amount"]
    messages.success(
        request, done % {"amount": amount, "balance": balance.balance if balance else 0}
    )
    page = reverse("web:cashier-player", args=[player.id])
    return redirect(f"{page}?club={club_id}" if club_id else page)


urlpatterns = [
    path("desk/cashier/", cashier_home, name="cashier"),
    path("desk/cashier/players/<int:player_id>/", cashier_player, name="cashier-player"),
    *(
        path(
            f"desk/cashier/players/<int:player_id>/{move}/",
            cashier_move,
            {"move": move},
            name=f"cashier-{move}",
        )
        for move in MOVES
    ),
]
