"""Errors the table services raise; the API turns each into a 4xx with its code and message."""

from __future__ import annotations

from games.codes import Code
from refusals import Refusal


class ServiceError(Refusal):
    """A request the service refuses; nothing was changed."""

    code = Code.BAD_REQUEST


class Invalid(ServiceError):
    """Bad input or an action the rules do not allow (400)."""

    code = Code.INVALID


class Forbidden(ServiceError):
    """The caller may not do this: not their seat, not their turn, not staff (403)."""

    status = 403
    code = Code.FORBIDDEN


class NotFound(ServiceError):
    """No such table, hand or player (404)."""

    status = 404
    code = Code.NOT_FOUND


class Conflict(ServiceError):
    """The request is stale or clashes with the table's state (409)."""

    status = 409
    code = Code.CONFLICT


class Gone(ServiceError):
    """An operation the service no longer offers; the message names what replaced it (410)."""

    status = 410
    code = Code.BAD_REQUEST
