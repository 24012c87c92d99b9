"""What every API view of the service does alike, whatever its app: input checked by its
serializer, refusals documented with the one error body, ids in the path, output from one
serializer built per thread.

The error body is the one ``config.api_errors`` answers every refusal with:
``{"error": {"code", "message", "detail"}}`` (``ErrorOutputSerializer``; its ``code`` becomes
the schema enum ``ErrorCode`` in ``config.error_codes``).

This package is a bottom layer of the project, beside ``refusals``: it imports nothing from
the project (only DRF and drf-spectacular), so every app's API may import it.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, TypeVar

from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers


class ErrorBodySerializer(serializers.Serializer[Any]):
    code = serializers.CharField(read_only=True, help_text="Machine-readable reason.")
    message = serializers.CharField(read_only=True, help_text="What went wrong, for people.")
    detail = serializers.JSONField(read_only=True, allow_null=True)


class ErrorOutputSerializer(serializers.Serializer[Any]):
    """Every 4xx answer: nothing was changed."""

    error = ErrorBodySerializer(read_only=True)


REFUSED = OpenApiResponse(ErrorOutputSerializer, description="The request was refused.")

View = TypeVar("View")


def refusals(*statuses: int) -> dict[int, OpenApiResponse]:
    """The refusals an operation documents: each status answers the one error body."""
    return dict.fromkeys(statuses, REFUSED)


def validated(serializer_class: type[serializers.Serializer[Any]], data: Any) -> dict[str, Any]:
    """Validated input, or a 400 naming each bad field."""
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


_built = threading.local()


def rendered(serializer_class: type[serializers.Serializer[Any]], instance: Any) -> Any:
    """``serializer_class(instance).data``, from one serializer built once per thread.

    DRF deep-copies every declared field, nested serializers' too, each time a serializer is
    built: a third of a table poll's CPU. A serializer built once keeps its bound fields, and
    ``to_representation`` reads nothing but the instance, so it is reused for every answer.
    Only for output serializers that use no context (no request, no hyperlinks).
    """
    cache: dict[type[Any], serializers.Serializer[Any]] = _built.__dict__.setdefault("by_class", {})
    serializer = cache.get(serializer_class)
    if serializer is None:
        serializer = cache[serializer_class] = serializer_class()
    return serializer.to_representation(instance)


def path_id(name: str) -> Callable[[View], View]:
    """A view class decorator: ``name`` in the path is an integer id."""
    return extend_schema(parameters=[OpenApiParameter(name, int, OpenApiParameter.PATH)])
