"""Input serializers that refuse what they do not know: a misspelt or unsupported field
(``bounty``, ``rebuy_chip``) is a 400 naming it, never silently ignored.

(A small local check: a project-wide mixin for every app's API would replace it.)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rest_framework import serializers


class StrictInputSerializer(serializers.Serializer[Any]):
    """Refuse unknown fields, at every level of nesting (each nested input serializer
    derives from this one too)."""

    def to_internal_value(self, data: Any) -> Any:
        unknown: dict[str, list[str]] = {}
        if isinstance(data, Mapping):
            known = [name for name, field in self.fields.items() if not field.read_only]
            hint = f"unknown field: the fields are {', '.join(known)}"
            unknown = {name: [hint] for name in sorted(set(data) - set(known))}
        try:
            value = super().to_internal_value(data)
        except serializers.ValidationError as error:
            if unknown and isinstance(error.detail, dict):
                raise serializers.ValidationError({**error.detail, **unknown}) from error
            raise
        if unknown:
            raise serializers.ValidationError(unknown)
        return value
