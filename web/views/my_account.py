"""My account: the player's balances and transactions (money's ledger), their tournaments and
results, their hands, a hand replayed street by street and its ``.phh`` file.

A hand's replay and file come from the same builders as the API's history
(``games.selectors.hand_history`` and ``hand_phh``), for the players dealt in, so neither ever
holds another player's unshown down card.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import path
from django.utils.translation import gettext as _

from games import selectors as table_selectors
from games.errors import Invalid
from games.models import Hand, Player
from money import selectors as money_selectors
from money.models import AccountKind
from tourney.selectors import player_entries
from web.codes import Code
from web.handreplay import hand_steps
from web.views.common import parsed_int, refusals_as_pages, sign_in_required
from web.views.players import player_required

SHOWN = 50
"""How many transactions, tournaments and hands the page lists (the newest)."""


@sign_in_required
@refusals_as_pages
def my_account(request: HttpRequest) -> HttpResponse:
    player = player_required(request)
    accounts = money_selectors.owner_accounts(AccountKind.PLAYER, player.id)
    return render(
        request,
        "web/account/account.html",
        {
            "player": player,
            "accounts": list(accounts),
            "postings": list(money_selectors.accounts_postings(accounts)[:SHOWN]),
            "entries": list(player_entries(player.id)[:SHOWN]),
            "hands": table_selectors.player_hands(player, limit=SHOWN),
        },
    )


def _readable_hand(request: HttpRequest, hand_id: int) -> tuple[Hand, Player]:
    """The hand and the viewer's seat in it, if the viewer was dealt in (else 403/404)."""
    player = player_required(request)
    table_selectors.hand_record_check(request.user, hand_id)
    hand = table_selectors.get_hand(hand_id)
    return hand, player


@sign_in_required
@refusals_as_pages
def hand_replay(request: HttpRequest, hand_id: int) -> HttpResponse:
    hand, player = _readable_hand(request, hand_id)
    history = table_selectors.hand_history(hand, player)
    you = table_selectors.seat_index(hand, player)
    steps = hand_steps(history["log"], hand.lineup, you)
    raw = request.GET.get("step", str(len(steps)))
    number = parsed_int(raw, _("the step"))
    if not 1 <= number <= len(steps):
        raise Invalid(
            _("the step must be from 1 to %(last)s") % {"last": len(steps)}, code=Code.INVALID
        )
    return render(
        request,
        "web/account/hand.html",
        {
            "hand": hand,
            "steps": steps[:number],
            "step": steps[number - 1],
            "number": number,
            "last": len(steps),
        },
    )


@sign_in_required
@refusals_as_pages
def hand_phh(request: HttpRequest, hand_id: int) -> HttpResponse:
    hand, player = _readable_hand(request, hand_id)
    response = HttpResponse(
        table_selectors.hand_phh(hand, player), content_type="text/plain; charset=utf-8"
    )
    filename = f"table-{hand.table_id}-hand-{hand.number}.phh"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


urlpatterns = [
    path("me/", my_account, name="my-account"),
    path("me/hands/<int:hand_id>/", hand_replay, name="my-hand"),
    path("me/hands/<int:hand_id>/phh/", hand_phh, name="my-hand-phh"),
]
