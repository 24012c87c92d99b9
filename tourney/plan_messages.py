"""The planners' refusals in the reader's language.

The planners are pure (``tourney.planning``: no Django); they refuse with
``PlanRefused(template, **params)``, whose English templates are in the catalogue
(``games.management.commands.makemessages`` reads them). In English the message is the
planner's, letter for letter.
"""

from __future__ import annotations

from django.utils.translation import gettext

from tourney.planning.refused import PlanNote, PlanRefused


def plan_message(error: Exception | PlanNote) -> str:
    """``error``'s message (or a planner's note) in the active language (a refusal of no
    planner's: as it is)."""
    if not isinstance(error, PlanRefused | PlanNote):
        return str(error)
    return gettext(error.template).format(**error.params)
