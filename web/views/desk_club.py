"""The desk's clubs: staff create a club; its directors (and staff) choose who sees its
tournaments and tables, add members, set their roles and remove them. Each form calls the
service the clubs API calls (``clubs.services``)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from clubs import selectors, services
from clubs.access import can_direct
from clubs.codes import Code as ClubCode
from clubs.models import Club, Role, Visibility
from games.errors import Forbidden, Invalid
from refusals import Refusal
from web.codes import Code as WebCode
from web.views.desk_common import clubs_run, desk_required, run_form, staff_only

VISIBILITY_HELP = gettext_lazy(
    "Who sees the club's tournaments and tables: its members only, or every signed-in player."
)


class ClubCreateForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Name"), max_length=80)
    visibility = forms.ChoiceField(
        label=gettext_lazy("Who sees it"),
        choices=Visibility.choices,
        initial=Visibility.MEMBERS,
        help_text=VISIBILITY_HELP,
    )


class ClubEditForm(forms.Form):
    visibility = forms.ChoiceField(
        label=gettext_lazy("Who sees it"), choices=Visibility.choices, help_text=VISIBILITY_HELP
    )


class MemberAddForm(forms.Form):
    username = forms.CharField(
        label=gettext_lazy("Username"),
        max_length=150,
        help_text=gettext_lazy("The player's username (create the player first)."),
    )
    role = forms.ChoiceField(label=gettext_lazy("Role"), choices=Role.choices, initial=Role.MEMBER)


class MemberRoleForm(forms.Form):
    role = forms.ChoiceField(label=gettext_lazy("Role"), choices=Role.choices)


CREATE_FIELDS = {ClubCode.NAME_TAKEN: "name"}
ADD_FIELDS = {ClubCode.NO_ACCOUNT: "username", ClubCode.ALREADY_MEMBER: "username"}


def club_directed(user: Any, club_id: int) -> Club:
    """The club if the caller directs it: a 404 for a club they do not belong to, a 403 for
    one they belong to but do not direct (as the API)."""
    club = selectors.club_get(user, club_id)
    if not can_direct(user, club.id):
        raise Forbidden(
            _("only staff or a director of this club can do this"), code=WebCode.NOT_DIRECTOR
        )
    return club


@never_cache
@desk_required
def clubs_page(request: HttpRequest) -> HttpResponse:
    form = ClubCreateForm(request.POST or None)
    if request.method == "POST":
        staff_only(request)
        club = run_form(form, lambda data: services.club_create(**data), CREATE_FIELDS)
        if club is not None:
            messages.success(request, _("The club %(name)s is created.") % {"name": club.name})
            return redirect("web:desk-club", club.id)
    return render(
        request,
        "web/desk/clubs.html",
        {"clubs": clubs_run(request.user), "form": form},
        status=400 if form.errors else 200,
    )


def _club_page(
    request: HttpRequest,
    club: Club,
    *,
    edit: ClubEditForm | None = None,
    add: MemberAddForm | None = None,
    row_error: tuple[int, str] | None = None,
    status: int = 200,
) -> HttpResponse:
    return render(
        request,
        "web/desk/club.html",
        {
            "club": club,
            "edit": edit or ClubEditForm(initial={"visibility": club.visibility}),
            "add": add or MemberAddForm(),
            "members": selectors.members_list(club),
            "roles": Role.choices,
            "row_error": row_error,
        },
        status=status,
    )


@never_cache
@desk_required
def club_page(request: HttpRequest, club_id: int) -> HttpResponse:
    club = club_directed(request.user, club_id)
    if request.method != "POST":
        return _club_page(request, club)
    edit = ClubEditForm(request.POST)
    if run_form(edit, lambda data: services.club_update(club=club, **data), {}):
        messages.success(request, _("The club is saved."))
        return redirect("web:desk-club", club.id)
    return _club_page(request, club, edit=edit, status=400)


@never_cache
@require_POST
@desk_required
def member_add(request: HttpRequest, club_id: int) -> HttpResponse:
    club = club_directed(request.user, club_id)
    add = MemberAddForm(request.POST)
    member = run_form(add, lambda data: services.member_add(club_id=club.id, **data), ADD_FIELDS)
    if member is None:
        return _club_page(request, club, add=add, status=400)
    messages.success(
        request,
        _("%(name)s is a %(role)s of the club now.")
        % {"name": member.user.username, "role": member.get_role_display()},
    )
    return redirect("web:desk-club", club.id)


def _member_change(request: HttpRequest, club: Club, member_id: int, change: Any) -> HttpResponse:
    """Run a change to one member's row; a refusal is shown in that row."""
    try:
        done = change()
    except Refusal as refusal:
        message = refusal.message[:1].upper() + refusal.message[1:]
        return _club_page(request, club, row_error=(member_id, message), status=refusal.status)
    messages.success(request, done)
    return redirect("web:desk-club", club.id)


@never_cache
@require_POST
@desk_required
def member_role(request: HttpRequest, club_id: int, member_id: int) -> HttpResponse:
    club = club_directed(request.user, club_id)
    form = MemberRoleForm(request.POST)

    def change() -> str:
        if not form.is_valid():
            raise Invalid(_("choose a role: director or member"), code=WebCode.INVALID)
        member = services.member_role_set(
            club_id=club.id, member_id=member_id, by=request.user, **form.cleaned_data
        )
        return _("%(name)s is a %(role)s now.") % {
            "name": member.user.username,
            "role": member.get_role_display(),
        }

    return _member_change(request, club, member_id, change)


@never_cache
@require_POST
@desk_required
def member_remove(request: HttpRequest, club_id: int, member_id: int) -> HttpResponse:
    club = club_directed(request.user, club_id)

    def change() -> str:
        services.member_remove(club_id=club.id, member_id=member_id, by=request.user)
        return _("The member is removed from the club (their account and money stay).")

    return _member_change(request, club, member_id, change)


urlpatterns = [
    path("desk/clubs/", clubs_page, name="desk-clubs"),
    path("desk/clubs/<int:club_id>/", club_page, name="desk-club"),
    path("desk/clubs/<int:club_id>/members/", member_add, name="desk-member-add"),
    path(
        "desk/clubs/<int:club_id>/members/<int:member_id>/role/",
        member_role,
        name="desk-member-role",
    ),
    path(
        "desk/clubs/<int:club_id>/members/<int:member_id>/remove/",
        member_remove,
        name="desk-member-remove",
    ),
]
