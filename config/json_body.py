"""The one parser of API request bodies (DRF's ``DEFAULT_PARSER_CLASSES``): JSON, and only
JSON that everything behind it can hold.

DRF's own ``JSONParser`` hands on whatever ``json.loads`` makes of a body: 5,000 nested
``[`` raise a RecursionError (a 500), a lone surrogate (``"\\ud800"``) is a ``str`` that no
database or encoder takes (a UnicodeEncodeError, a 500, after a service ran), and ``1e400``
is float infinity. Here each is refused with its own code before any view reads the body,
for every endpoint at once:

- ``too_deep``: arrays and objects nested deeper than ``MAX_DEPTH``;
- ``lone_surrogate``: a string (or a key) holding half of a UTF-16 surrogate pair;
- ``number_out_of_range``: a number no float holds (``1e400``) or ``NaN``/``Infinity``;
- ``parse_error``: anything else that is not JSON text (integers of more than 4,300 digits
  included: Python refuses to read those).

Form and multipart bodies are not read at all (415): every field of the API is typed as
JSON types it (``api_conventions.BodySerializer``), which a form cannot say.
"""

from __future__ import annotations

import codecs
import json
import math
import re
from collections.abc import Mapping
from typing import Any

from django.conf import settings
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

from config.codes import Code

MAX_DEPTH = 32
"""The deepest nesting of arrays and objects a body may have (the API's deepest is 3)."""

_SURROGATE = re.compile("[\ud800-\udfff]")
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


class BodyTooDeep(ParseError):
    default_code = Code.TOO_DEEP
    default_detail = (
        f"The JSON body is nested deeper than {MAX_DEPTH} arrays or objects: send a flatter body."
    )


class LoneSurrogate(ParseError):
    default_code = Code.LONE_SURROGATE
    default_detail = (
        "The JSON body has a string with a lone UTF-16 surrogate (e.g. \\ud800), which is no "
        "character: send text."
    )


class NumberOutOfRange(ParseError):
    default_code = Code.NUMBER_OUT_OF_RANGE


def _finite(text: str) -> float:
    number = float(text)
    if not math.isfinite(number):
        raise NumberOutOfRange(f"The number {text[:40]} is out of range: send a smaller one.")
    return number


def _no_constant(text: str) -> float:
    raise NumberOutOfRange(f"{text} is not a JSON number: send a number.")


def _refuse_if_too_deep(document: dict[str, Any] | list[Any]) -> None:
    """Walk the arrays and objects level by level (not on the stack) for one too deep."""
    level: list[Any] = [document]
    for _depth in range(MAX_DEPTH):
        inside = [
            item
            for container in level
            for item in (container.values() if type(container) is dict else container)
            if type(item) is dict or type(item) is list
        ]
        if not inside:
            return
        level = inside
    raise BodyTooDeep()


def _has_surrogate(value: Any) -> bool:
    if isinstance(value, str):
        return _SURROGATE.search(value) is not None
    if isinstance(value, Mapping):
        return any(_has_surrogate(key) or _has_surrogate(item) for key, item in value.items())
    if isinstance(value, list):
        return any(_has_surrogate(item) for item in value)
    return False


def loads(text: str) -> Any:
    """``text`` as JSON, or a ``ParseError`` (one of the subclasses above) saying why not."""
    try:
        document = json.loads(text, parse_float=_finite, parse_constant=_no_constant)
    except RecursionError:  # nested deeper than the interpreter's stack: far too deep
        raise BodyTooDeep() from None
    except ValueError as error:
        raise ParseError(f"JSON parse error - {error}") from None
    if isinstance(document, dict | list) and text.count("[") + text.count("{") > MAX_DEPTH:
        _refuse_if_too_deep(document)
    # a surrogate can only come from a \uXXXX escape (UTF-8 text holds none); pairs are fine
    if _SURROGATE_ESCAPE.search(text) and _has_surrogate(document):
        raise LoneSurrogate()
    return document


class JSONBodyParser(JSONParser):
    """DRF's JSON parser with the refusals above."""

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        encoding = (parser_context or {}).get("encoding", settings.DEFAULT_CHARSET)
        try:
            text = codecs.getreader(encoding)(stream).read()
        except ValueError as error:  # not in the declared charset
            raise ParseError(f"The body is not {encoding} text: {error}") from None
        return loads(text)
