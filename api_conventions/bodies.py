"""The one base of every serializer that reads a request body: ``BodySerializer``.

DRF is lenient with input in two ways this API is not:

- it ignores fields it does not know, so a client that misspells ``buy_in`` or ``club_id``,
  or sends a field the API does not have (``"is_staff": true``), gets a 2xx and a result it
  did not ask for (a staff webhook with a misspelt ``club_id`` became site-wide). Here such
  a body is a 400 naming each unknown field and listing the known ones, nested serializers
  and lists of them included;
- its ``IntegerField`` takes ``"100"``, full-width digits (``"\\uff11"``), ``100.0``, ``true``;
  its ``CharField`` takes ``12``, its ``BooleanField`` ``"yes"`` and ``1``. Here every value
  has its JSON type: an integer a body carries (amounts, chip counts, stakes, ids) is a JSON
  integer only, between ``-MAX_INTEGER`` and ``MAX_INTEGER`` unless the field says narrower,
  a string a string, a boolean ``true`` or ``false``, a decimal a number or ASCII digits.
  ``BodySerializer`` makes each such field declared on it (alone, or as the child of a list
  or dict field) its ``JSON*Field``, so a serializer is strict by its base and nothing else.

Query parameters are strings by nature: their serializers are a plain ``Serializer`` or a
``KnownFieldsSerializer``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

MAX_INTEGER = 2**53 - 1
"""The largest integer every JSON reader holds exactly (RFC 7493, I-JSON)."""


_KINDS = {bool: "a boolean", str: "a string", int: "an integer", float: "a number with a point"}


def _kind(value: Any) -> str:
    if isinstance(value, list):
        return "an array"
    if isinstance(value, Mapping):
        return "an object"
    return _KINDS.get(type(value), "another type")


class JSONIntegerField(serializers.IntegerField):
    """An integer as JSON writes one: ``100``; not ``"100"``, ``100.0`` nor ``true``."""

    default_error_messages = {"wrong_type": _("A JSON integer is required, not {kind}.")}

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("min_value", -MAX_INTEGER)
        kwargs.setdefault("max_value", MAX_INTEGER)
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> int:
        if type(data) is not int:
            self.fail("wrong_type", kind=_kind(data))
        return int(super().to_internal_value(data))


class JSONStringField(serializers.CharField):
    """A JSON string: not ``12`` (DRF's ``CharField`` makes it ``"12"``)."""

    default_error_messages = {"wrong_type": _("A JSON string is required, not {kind}.")}

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("wrong_type", kind=_kind(data))
        return str(super().to_internal_value(data))


class JSONBooleanField(serializers.BooleanField):
    """``true`` or ``false``: not ``"yes"``, ``1`` nor ``"on"`` (DRF's take them all)."""

    default_error_messages = {"wrong_type": _("true or false is required, not {kind}.")}

    def to_internal_value(self, data: Any) -> bool:
        if type(data) is not bool:
            self.fail("wrong_type", kind=_kind(data))
        return data


_ASCII_DECIMAL = re.compile(r"-?[0-9]+(\.[0-9]+)?")


class JSONDecimalField(serializers.DecimalField):
    """A JSON number, or a decimal written in a string in ASCII digits (``"2.5"``, exact): not
    ``true``, nor full-width digits (Python's ``Decimal`` reads them)."""

    default_error_messages = {
        "wrong_type": _('A JSON number or a decimal in a string ("2.5") is required, not {kind}.')
    }

    def to_internal_value(self, data: Any) -> Any:
        number = type(data) in (int, float)
        if not number and not (isinstance(data, str) and _ASCII_DECIMAL.fullmatch(data.strip())):
            self.fail("wrong_type", kind=_kind(data))
        return super().to_internal_value(data)


_JSON_TYPED: dict[type[Any], type[Any]] = {
    serializers.IntegerField: JSONIntegerField,
    serializers.CharField: JSONStringField,
    serializers.BooleanField: JSONBooleanField,
    serializers.DecimalField: JSONDecimalField,
}


def _strict(field: serializers.Field[Any, Any, Any, Any]) -> serializers.Field[Any, Any, Any, Any]:
    """``field`` taking only its JSON type: an ``IntegerField``, ``CharField``,
    ``BooleanField`` or ``DecimalField`` (alone, or the child of a list or dict field)
    rebuilt from its own arguments as its ``JSON*Field``; any other field as it is."""
    json_typed = _JSON_TYPED.get(type(field))
    if json_typed is not None:
        return json_typed(*field._args, **field._kwargs)  # type: ignore[attr-defined,no-any-return]
    if isinstance(field, serializers.ListField | serializers.DictField):
        child = _strict(field.child)
        if child is not field.child:
            return type(field)(*field._args, **{**field._kwargs, "child": child})  # type: ignore[attr-defined]
    return field


class KnownFieldsSerializer(serializers.Serializer[Any]):
    """Refuses fields it does not know: a 400 naming each, listing the known ones (nested
    serializers and lists of them too). For query parameters; bodies: ``BodySerializer``."""

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, Mapping):
            known = sorted(name for name, field in self.fields.items() if not field.read_only)
            unknown = sorted(str(name) for name in data if name not in known)
            if unknown:
                raise serializers.ValidationError(
                    {
                        name: [
                            gettext(
                                "unknown field %(name)s: remove it (the fields here are %(known)s)"
                            )
                            % {"name": repr(name), "known": ", ".join(known)}
                        ]
                        for name in unknown
                    }
                )
        return super().to_internal_value(data)


class BodySerializer(KnownFieldsSerializer):
    """Base of every input serializer of a request body: unknown fields refused, integers
    JSON integers only (module docstring)."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        declared: dict[str, Any] = cls._declared_fields  # type: ignore[attr-defined]
        for name, field in declared.items():
            declared[name] = _strict(field)
