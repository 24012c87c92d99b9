"""A planner's refusal, said in any language by the services (``tourney.plan_messages``).

>>> str(PlanRefused("the percentages sum to {total}, not 100", total=90))
'the percentages sum to 90, not 100'
"""

from __future__ import annotations


class PlanRefused(ValueError):
    """Input a planner refuses: ``template`` with its ``{name}`` placeholders filled from
    ``params`` (a brace of the text written twice, as ``str.format`` reads it). The
    translation tools read the templates: the first argument of ``PlanRefused``
    (``games.management.commands.makemessages``)."""

    def __init__(self, template: str, **params: object) -> None:
        super().__init__(template.format(**params))
        self.template = template
        self.params = params
