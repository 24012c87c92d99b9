"""The engine's refusals in the reader's language.

The engine refuses with ``Refused(template, code, **params)`` (a decision: its
``IllegalAction``; stakes and house rules: ``Refused`` itself): an English
template with ``{name}`` placeholders. Its templates are in the catalogues
(``games.management.commands.makemessages`` reads them), so the message a player reads is the
template in their language, filled with the same values; the action and phase names among
them are the rooms' words (docs/glossary.md). In English it is the engine's message, letter
for letter.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import pgettext, pgettext_lazy

from games.engine.refused import Refused, joined

# The values of ``Action`` and ``Phase`` as a message names them; in English the value itself.
_ACTIONS = {
    "bet": pgettext_lazy("action", "bet"),
    "raise": pgettext_lazy("action", "raise"),
    "complete": pgettext_lazy("action", "complete"),
    "bring_in": pgettext_lazy("action", "bring_in"),
    "fold": pgettext_lazy("action", "fold"),
    "check": pgettext_lazy("action", "check"),
    "call": pgettext_lazy("action", "call"),
    "show": pgettext_lazy("action", "show"),
    "muck": pgettext_lazy("action", "muck"),
}
_PHASES = {
    "deal": pgettext_lazy("phase of a hand", "deal"),
    "bring_in": pgettext_lazy("phase of a hand", "bring_in"),
    "betting": pgettext_lazy("phase of a hand", "betting"),
    "showdown": pgettext_lazy("phase of a hand", "showdown"),
    "over": pgettext_lazy("phase of a hand", "over"),
}
_WORDS = {"action": _ACTIONS, "right": _ACTIONS, "legal": _ACTIONS, "phase": _PHASES}


def refusal_message(error: Refused) -> str:
    """``error``'s message in the active language: ``"check is not allowed: ..."``."""
    alternatives = pgettext("between two amounts: 2 or 4", " or ")
    separator = pgettext("between the names of a list: bring_in, complete", ", ")
    params = {}
    for name, value in error.params.items():
        words = _WORDS.get(name, {})
        if isinstance(value, tuple):
            value = tuple(str(words.get(str(v), v)) for v in value)
        else:
            value = str(words.get(str(value), value))
        params[name] = joined(name, value, alternatives=alternatives, separator=separator)
    return _(error.template).format(**params)
