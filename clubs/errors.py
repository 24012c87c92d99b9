"""Refusals of the clubs' services, as DRF exceptions (clubs sits below ``games``, whose
``ServiceError`` it may not import); config.api_errors renders both in one error shape."""

from __future__ import annotations

from rest_framework.exceptions import APIException

from clubs.codes import Code


class ClubConflict(APIException):
    """The request clashes with what is there already (409)."""

    status_code = 409
    default_code = Code.CONFLICT

    def __init__(self, message: str, *, code: Code) -> None:
        super().__init__(message)
        self.default_code = code


class ClubNotFound(APIException):
    """No such club or account, or one the caller may not see (404)."""

    status_code = 404
    default_code = Code.NOT_FOUND

    def __init__(self, message: str, *, code: Code = Code.NOT_FOUND) -> None:
        super().__init__(message)
        self.default_code = code
