"""The desk's forms: a POSTed form is read through the API's own input serializer, so a page
refuses exactly what the endpoint refuses, and each message is shown beside its field.

A form is a list of ``Field`` specs. ``form_read`` turns the typed text into the JSON types
the serializer wants (a field that is not a whole number is refused here, beside itself),
then validates with the serializer; a service's refusal is placed beside the field its
message starts with ("fee is part of buy_in..."), or above the form.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from django.http import HttpRequest
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from rest_framework import serializers

from clubs.access import directed_club_ids
from clubs.models import Club
from games.errors import Forbidden
from refusals import Refusal
from web.codes import Code

WHOLE_FORM = "__all__"
"""The errors key of a message about the whole form (shown above it)."""


@dataclass(frozen=True)
class Field:
    """One input of a desk form. ``kind``: number, text, select, checkbox, datetime, list
    (comma separated); ``choices``: (value, label) pairs of a select, ``integer`` when its
    values are ids."""

    name: str
    label: str | Promise
    kind: str = "number"
    help: str | Promise = ""
    choices: Sequence[tuple[str, str | Promise]] = ()
    required: bool = False
    integer: bool = False
    value: str = ""
    errors: tuple[str, ...] = ()
    prefix: str = ""

    @property
    def key(self) -> str:
        """The input's name in the POSTed form."""
        return f"{self.prefix}{self.name}"

    @property
    def html_id(self) -> str:
        return f"f-{self.key}"


@dataclass
class Form:
    """What a page shows: the fields with what was typed and their errors, and the errors
    of the whole form."""

    fields: list[Field]
    errors: list[str] = field(default_factory=list)

    @property
    def invalid(self) -> bool:
        return bool(self.errors) or any(f.errors for f in self.fields)


def form_filled(fields: Iterable[Field], values: Mapping[str, Any]) -> Form:
    """The fields showing ``values`` (a stored object's settings): None shows empty, a
    list comma separated, a boolean as a ticked box."""
    shown = []
    for spec in fields:
        value = values.get(spec.name)
        if value is None:
            text = ""
        elif isinstance(value, bool):
            text = "on" if value else ""
        elif isinstance(value, list | tuple):
            text = ", ".join(str(v) for v in value)
        elif hasattr(value, "isoformat"):
            text = value.isoformat(timespec="minutes")[:16]
        else:
            text = str(value)
        shown.append(replace(spec, value=text))
    return Form(shown)


def _typed(spec: Field, text: str) -> tuple[Any, str | None]:
    """The JSON value of one field's text, or the message saying what to type."""
    if spec.kind == "checkbox":
        return text == "on", None
    if spec.kind == "number" or spec.integer:
        try:
            return int(text), None
        except ValueError:
            return None, _("Enter a whole number, such as 100.")
    if spec.kind == "list":
        return [part.strip() for part in text.replace(";", ",").split(",") if part.strip()], None
    return text, None


def _messages(errors: Any) -> tuple[str, ...]:
    if isinstance(errors, Mapping):
        return tuple(f"{k}: {m}" for k, v in errors.items() for m in _messages(v))
    if isinstance(errors, list | tuple):
        return tuple(m for e in errors for m in _messages(e))
    return (str(errors),)


def form_read(
    request: HttpRequest,
    fields: Iterable[Field],
    serializer: type[serializers.Serializer[Any]] | None = None,
    *,
    prefix: str = "",
) -> tuple[Form, dict[str, Any]]:
    """The POSTed form and its validated data (by ``serializer``, the API's input
    serializer for the same action). Empty fields are left out, as a client leaves out
    what it does not set; a checkbox is always sent."""
    shown: list[Field] = []
    data: dict[str, Any] = {}
    for spec in fields:
        spec = replace(spec, prefix=prefix)
        text = request.POST.get(spec.key, "").strip()
        spec = replace(spec, value=text)
        if text or spec.kind == "checkbox":
            value, error = _typed(spec, text)
            if error:
                spec = replace(spec, errors=(error,))
            else:
                data[spec.name] = value
        elif spec.required:
            spec = replace(spec, errors=(_("This field is required."),))
        shown.append(spec)
    form = Form(shown)
    if serializer is None:
        return form, data
    checked = serializer(data=data)
    if checked.is_valid():
        return form, dict(checked.validated_data) if not form.invalid else data
    marked = {f.name for f in form.fields if f.errors}  # the typing error says it already
    form_errors(form, {k: v for k, v in checked.errors.items() if k not in marked})
    return form, data


def form_errors(form: Form, errors: Mapping[str, Any]) -> None:
    """Put a serializer's errors beside their fields (the rest above the form)."""
    names = {f.name for f in form.fields}
    for name, messages in errors.items():
        if name in names:
            form.fields = [
                replace(f, errors=f.errors + _messages(messages)) if f.name == name else f
                for f in form.fields
            ]
        else:
            prefix = "" if name in ("non_field_errors", WHOLE_FORM) else f"{name}: "
            form.errors.extend(f"{prefix}{m}" for m in _messages(messages))


def form_refused(form: Form, error: Refusal) -> Form:
    """A service's refusal shown beside the field its message names first, or above the
    form; nothing was changed."""
    first = error.message.split(" ", 1)[0]
    if any(f.name == first for f in form.fields):
        form_errors(form, {first: [error.message]})
    else:
        form.errors.append(error.message)
    return form


def desk_required(request: HttpRequest) -> set[int]:
    """The clubs the caller directs; staff direct every club (an empty set means all). A
    403 for anyone else, as the console."""
    if request.user.is_staff:
        return set()
    clubs = directed_club_ids(request.user)
    if not clubs:
        raise Forbidden(
            "the director's desk is for staff and club directors: ask staff for the director role",
            code=Code.NOT_DIRECTOR,
        )
    return clubs


def club_choices(request: HttpRequest, *, house: str | Promise = "") -> list[tuple[str, Any]]:
    """The clubs the caller may give a thing to (staff: every club, and the house's when
    ``house`` names it; a director: their clubs)."""
    clubs = Club.objects.order_by("name")
    if not request.user.is_staff:
        clubs = clubs.filter(pk__in=directed_club_ids(request.user))
    choices: list[tuple[str, Any]] = [("", house)] if house and request.user.is_staff else []
    return choices + [(str(c.pk), c.name) for c in clubs]
