"""The desk's players: find them (staff every player, a director their clubs' members),
create one (staff; a bot too), change the name they are shown by, and make the one-time
set-password link for a person's new account. Each form calls the service the API's
endpoint calls (``games.services.players``, ``games.services.passwords``)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.db.models import Q, QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path, reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from clubs.access import directed_club_ids, is_staff
from clubs.models import Membership
from games.codes import Code as GamesCode
from games.errors import Conflict, Invalid, NotFound
from games.models import BotKind, Player
from games.services import passwords, players, profiles
from web.views.desk_common import clubs_run, desk_required, run_form, staff_only

PAGE_SIZE = 50
CREATE_FIELDS = {GamesCode.USERNAME_TAKEN: "username", GamesCode.INVALID: "bot"}
EDIT_FIELDS = {GamesCode.INVALID: "display_name"}


class PlayerSearchForm(forms.Form):
    """The search box: Django's CharField refuses what the database cannot hold (NUL)."""

    q = forms.CharField(max_length=150, required=False, strip=True)


class PlayerCreateForm(forms.Form):
    username = forms.CharField(
        label=gettext_lazy("Username"),
        max_length=150,
        validators=[UnicodeUsernameValidator()],
        help_text=gettext_lazy("What they sign in with: letters, digits and @.+-_ only."),
    )
    display_name = forms.CharField(
        label=gettext_lazy("Display name"),
        max_length=profiles.DISPLAY_NAME_MAX,
        help_text=gettext_lazy("The name shown at the tables."),
    )
    bot = forms.ChoiceField(
        label=gettext_lazy("Bot"),
        choices=[("", gettext_lazy("No: a person")), *BotKind.choices],
        required=False,
        help_text=gettext_lazy("A bot never signs in; staff seat it."),
    )


class PlayerEditForm(forms.Form):
    display_name = forms.CharField(
        label=gettext_lazy("Display name"), max_length=profiles.DISPLAY_NAME_MAX
    )


def players_served(user: Any) -> QuerySet[Player]:
    """Every player for staff; the members of their clubs for a director."""
    found = Player.objects.select_related("user").order_by("display_name", "id")
    if is_staff(user):
        return found
    members = Membership.objects.filter(club_id__in=directed_club_ids(user)).values("user_id")
    return found.filter(user_id__in=members)


def player_served(user: Any, player_id: int) -> Player:
    """The player if the caller serves them; a 404 otherwise (nobody learns which ids
    exist, as the API)."""
    player = players_served(user).filter(pk=player_id).first()
    if player is None:
        raise NotFound(
            _("no player %(id)s among your players: find them in the players list")
            % {"id": player_id}
        )
    return player


@never_cache
@desk_required
def players_page(request: HttpRequest) -> HttpResponse:
    form = PlayerCreateForm(request.POST or None)
    if request.method == "POST":
        staff_only(request)
        player = run_form(
            form, lambda data: players.player_create(password=None, **data), CREATE_FIELDS
        )
        if player is not None:
            messages.success(
                request, _("Player %(name)s is created.") % {"name": player.user.username}
            )
            return redirect("web:desk-player", player.id)
    search = PlayerSearchForm(request.GET)
    query = search.cleaned_data["q"] if search.is_valid() else ""
    found = players_served(request.user)
    if query:
        found = found.filter(Q(display_name__icontains=query) | Q(user__username__icontains=query))
    return render(
        request,
        "web/desk/players.html",
        {
            "form": form,
            "search": search,
            "query": query,
            "players": found[:PAGE_SIZE],
            "page_size": PAGE_SIZE,
        },
        status=400 if form.errors or search.errors else 200,
    )


def _player_page(
    request: HttpRequest,
    player: Player,
    form: PlayerEditForm,
    link: str = "",
    link_error: str = "",
    status: int = 200,
) -> HttpResponse:
    memberships = (
        player.user.club_memberships.select_related("club")
        .filter(club__in=clubs_run(request.user))
        .order_by("club__name")
    )
    return render(
        request,
        "web/desk/player.html",
        {
            "player": player,
            "form": form,
            "memberships": memberships,
            "has_password": player.user.has_usable_password(),
            "link": link,
            "link_error": link_error,
        },
        status=status,
    )


@never_cache
@desk_required
def player_page(request: HttpRequest, player_id: int) -> HttpResponse:
    player = player_served(request.user, player_id)
    if request.method != "POST":
        return _player_page(request, player, PlayerEditForm(initial=_initial(player)))
    staff_only(request)
    form = PlayerEditForm(request.POST)
    if run_form(form, lambda data: profiles.player_update(player=player, **data), EDIT_FIELDS):
        messages.success(request, _("The display name is changed."))
        return redirect("web:desk-player", player.id)
    player.refresh_from_db()
    return _player_page(request, player, form, status=400)


def _initial(player: Player) -> dict[str, str]:
    return {"display_name": player.display_name}


@never_cache
@require_POST
@desk_required
def password_link(request: HttpRequest, player_id: int) -> HttpResponse:
    """A one-time set-password link, shown once on the player's page (never stored)."""
    staff_only(request)
    player = player_served(request.user, player_id)
    form = PlayerEditForm(initial=_initial(player))
    try:
        made = passwords.password_link_create(player=player)
    except (Invalid, Conflict) as refusal:
        message = refusal.message[:1].upper() + refusal.message[1:]
        return _player_page(request, player, form, link_error=message, status=refusal.status)
    page = reverse("web:set-password", kwargs={"uid": made.uid, "token": made.token})
    return _player_page(request, player, form, link=request.build_absolute_uri(page))


urlpatterns = [
    path("desk/players/", players_page, name="desk-players"),
    path("desk/players/<int:player_id>/", player_page, name="desk-player"),
    path(
        "desk/players/<int:player_id>/password-link/",
        password_link,
        name="desk-password-link",
    ),
]
