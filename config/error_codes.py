"""Every code an API error answer may carry, as one enum in the OpenAPI schema.

Each app names its refusals in its own ``codes.Code``; ``ERROR_CODES`` lists those enums, and
``error_code_enum`` (a drf-spectacular postprocessing hook) makes the error body's ``code`` the
schema enum ``ErrorCode`` of all their values, each described by its members' docstrings.
"""

from __future__ import annotations

import ast
import inspect
from enum import StrEnum
from typing import Any

import clubs.codes
import config.codes
import games.codes
import integrations.codes
import leagues.codes
import money.codes
import tourney.codes

ERROR_CODES: list[type[StrEnum]] = [
    config.codes.Code,
    clubs.codes.Code,
    integrations.codes.Code,
    money.codes.Code,
    games.codes.Code,
    leagues.codes.Code,
    tourney.codes.Code,
    # web.codes.Code does not belong here: a page never answers with a code.
]


def member_docs(codes: type[StrEnum]) -> dict[str, str]:
    """The docstring written under each member of ``codes``, by value."""
    body = ast.parse(inspect.getsource(codes)).body[0]
    assert isinstance(body, ast.ClassDef)
    docs = {}
    for statement, following in zip(body.body, body.body[1:], strict=False):
        if (
            isinstance(statement, ast.Assign)
            and isinstance(following, ast.Expr)
            and isinstance(following.value, ast.Constant)
        ):
            name = statement.targets[0]
            assert isinstance(name, ast.Name)
            docs[codes[name.id].value] = str(following.value.value)
    return docs


def error_code_enum(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """drf-spectacular postprocessing hook: ``ErrorBody.code`` is one of ``ERROR_CODES``."""
    meanings: dict[str, list[str]] = {}
    for codes in ERROR_CODES:
        app = codes.__module__.partition(".")[0]
        for value, doc in member_docs(codes).items():
            meanings.setdefault(value, []).append(f"{app}: {doc.replace('``', '`')}")
    schemas = result["components"]["schemas"]
    schemas["ErrorCode"] = {
        "type": "string",
        "enum": sorted(meanings),
        "description": "\n".join(
            f"* `{value}` - {' '.join(meanings[value])}" for value in sorted(meanings)
        ),
    }
    code = schemas["ErrorBody"]["properties"]["code"]
    schemas["ErrorBody"]["properties"]["code"] = {
        "allOf": [{"$ref": "#/components/schemas/ErrorCode"}],
        "readOnly": True,
        "description": code["description"],
    }
    return result
