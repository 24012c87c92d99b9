"""Refusals of the clubs' services; the API turns each into a 4xx with its code and message
(``config.api_errors``), and nothing was changed."""

from __future__ import annotations

from clubs.codes import Code
from refusals import Refusal


class ClubConflict(Refusal):
    """The request clashes with what is there already (409)."""

    status = 409
    code = Code.CONFLICT


class ClubNotFound(Refusal):
    """No such club or account, or one the caller may not see (404)."""

    status = 404
    code = Code.NOT_FOUND
