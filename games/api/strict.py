"""Input serializers that refuse fields they do not know.

DRF ignores unknown fields in a body, so a client that misspells ``buy_in`` or sends a field
this API does not have (``bounty``) gets a 200 and a result it did not ask for. With
``StrictFieldsMixin`` first in the bases, such a body is a 400 that names each unknown field
and lists the known ones. It works for nested serializers and lists of them too, and is meant
for every input serializer of a request body (the tournament API uses it as well).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rest_framework import serializers


class StrictFieldsMixin:
    """Mix into a ``serializers.Serializer`` (first in the bases) to refuse unknown fields."""

    fields: Any

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, Mapping):
            known = sorted(name for name, field in self.fields.items() if not field.read_only)
            unknown = sorted(str(name) for name in data if name not in known)
            if unknown:
                raise serializers.ValidationError(
                    {
                        name: [
                            f"unknown field {name!r}: remove it "
                            f"(the fields here are {', '.join(known)})"
                        ]
                        for name in unknown
                    }
                )
        return super().to_internal_value(data)  # type: ignore[misc]
