"""The codes of the clubs' refusals: ``{"error": {"code": ...}}`` in an API answer.

Each value is the string clients see; ``config.error_codes`` lists every app's codes as one
enum in the OpenAPI error schema. This module imports nothing, so any layer may use it.
"""

from enum import StrEnum


class Code(StrEnum):
    """Why a club or membership request was refused (nothing was changed)."""

    CONFLICT = "conflict"
    """The request clashes with what is there already."""
    NOT_FOUND = "not_found"
    """No such club, or one the caller may not see."""
    NAME_TAKEN = "name_taken"
    """A club of that name exists."""
    NO_ACCOUNT = "no_account"
    """No account of that username."""
    ALREADY_MEMBER = "already_member"
    """The account is a member of the club already."""
    NOT_A_MEMBER = "not_a_member"
    """No such membership in this club."""
    OWN_ROLE = "own_role"
    """A director may not remove or demote themselves (the club would lose its director)."""
