"""What the director's desk pages share: who may use the desk (staff, and the directors of a
club), the clubs a caller runs, and a service's refusal shown beside the form field it is
about (the form calls the same service as the API; nothing changed when it refuses)."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django import forms
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _

from clubs.access import directed_club_ids, is_staff
from clubs.models import Club
from games.errors import Forbidden
from refusals import Refusal
from web.codes import Code
from web.views.common import refusals_as_pages, sign_in_required

View = Callable[..., HttpResponse]


def desk_required(view: View) -> View:
    """Desk pages: sign in first; a player who is neither staff nor a club's director gets
    the 403 page."""

    @sign_in_required
    @refusals_as_pages
    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not (is_staff(request.user) or directed_club_ids(request.user)):
            raise Forbidden(
                _("the desk is for staff and club directors: ask staff for the director role"),
                code=Code.NOT_DIRECTOR,
            )
        return view(request, *args, **kwargs)

    return wrapper


def staff_only(request: HttpRequest) -> None:
    if not is_staff(request.user):
        raise Forbidden(_("only staff can do this: ask a site admin"), code=Code.STAFF_ONLY)


def clubs_run(user: Any) -> QuerySet[Club]:
    """The clubs ``user`` runs at the desk: every club for staff, their directed clubs for a
    director."""
    clubs = Club.objects.order_by("name")
    return clubs if is_staff(user) else clubs.filter(pk__in=directed_club_ids(user))


def refusal_on_form(form: forms.Form, refusal: Refusal, fields: dict[str, str]) -> None:
    """Show ``refusal`` beside the field its code is about (``fields``: code -> field name),
    or above the form; its detail lines (a weak password's reasons) follow the message."""
    message = refusal.message[:1].upper() + refusal.message[1:]
    details = refusal.detail if isinstance(refusal.detail, list) else []
    form.add_error(fields.get(str(refusal.code)), [message, *details])


def described_errors(form: forms.Form) -> forms.Form:
    """Tie each field to its error text (``aria-describedby``), so a screen reader reads the
    error with the field."""
    for name in form.errors:
        if name in form.fields:
            form.fields[name].widget.attrs["aria-describedby"] = f"{form[name].auto_id}-error"
    return form


def run_form(
    form: forms.Form, service: Callable[[dict[str, Any]], Any], fields: dict[str, str]
) -> Any:
    """Validate ``form`` and call ``service`` with its cleaned data; None if the form or the
    service refused (the errors are on the form, beside their fields)."""
    if not form.is_valid():
        described_errors(form)
        return None
    try:
        return service(form.cleaned_data)
    except Refusal as refusal:
        refusal_on_form(form, refusal, fields)
        described_errors(form)
        return None
