"""Numbers as the page's language writes them: the grouping of Django's formats for the
language (12,345 in English, 12.345 in Greek, 12345 in Arabic) and, in Arabic, the digits the
``STUD_DIGITS`` setting names (Western 0-9 by default, as the rooms' rule pages write them, or
Arabic-Indic, U+0660-U+0669). Every amount, count, place and clock goes through here, and
live.js draws the countdowns with the same digits (``data-digits`` on the page)."""

from __future__ import annotations

from django.conf import settings
from django.utils import formats, translation

ARABIC_INDIC = str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩")


def digits_style() -> str:
    """ "arabic-indic" when the page is in Arabic and the setting asks for them, else
    "western"."""
    if settings.STUD_DIGITS == "arabic-indic" and translation.get_language() == "ar":
        return "arabic-indic"
    return "western"


def with_digits(text: str) -> str:
    """``text`` with its digits in the page's style: "1:05", or its Arabic-Indic digits."""
    return text.translate(ARABIC_INDIC) if digits_style() == "arabic-indic" else text


def whole(number: int) -> str:
    """A whole number grouped for the language: 12345 -> "12,345" (en), "12.345" (el),
    "12345" (ar: Django's Arabic formats group no digits)."""
    return with_digits(formats.number_format(int(number), use_l10n=True, force_grouping=True))
