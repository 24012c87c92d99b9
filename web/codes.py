"""The codes of the pages' own refusals (``games.errors`` classes raised by the web views).

A page shows the refusal's message with its status and never the code, so these codes are not
in the API's error schema (``config.error_codes``). This module imports nothing.
"""

from enum import StrEnum


class Code(StrEnum):
    """Why a page refused a form or a visit (nothing was changed)."""

    INVALID = "invalid"
    """A form field that is not a whole number."""
    EMPTY = "empty"
    """A form with nothing ticked or filled in."""
    MISSING_CHIPS = "missing_chips"
    """Bust-outs ticked without the busted entries' chips at the start of the hand."""
    NO_PLAYER = "no_player"
    """The account has no player profile."""
    NOT_DIRECTOR = "not_director"
    """The console is for staff and the club's directors."""
    STAFF_ONLY = "staff_only"
    """Only staff may do this."""
