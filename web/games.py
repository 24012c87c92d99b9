"""The names of the games and streets as the pages show them (the glossary's words,
docs/glossary.md)."""

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

GAME_NAMES = {
    "stud_hi": _("Seven Card Stud"),
    "stud_8": _("Stud Hi-Lo (8 or better)"),
    "razz": _("Razz"),
}
STREET_LABELS = {
    "third": _("Third street"),
    "fourth": _("Fourth street"),
    "fifth": _("Fifth street"),
    "sixth": _("Sixth street"),
    "seventh": _("Seventh street (river)"),
}


def game_name(code: str) -> str | Promise:
    return GAME_NAMES.get(code, code)
