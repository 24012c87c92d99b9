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


class PlanNote:
    """What a planner allows but finds unusual (a warning), said as its refusals are:
    ``template`` with ``params``; ``str()`` is the English. The translation tools read the
    first argument of ``PlanNote`` too.

    >>> str(PlanNote("the big bet ({big_bet}) is not twice the small bet", big_bet=90))
    'the big bet (90) is not twice the small bet'
    """

    def __init__(self, template: str, **params: object) -> None:
        self.template = template
        self.params = params

    def __str__(self) -> str:
        return self.template.format(**self.params)

    def __eq__(self, other: object) -> bool:
        return str(self) == str(other)

    def __hash__(self) -> int:
        return hash(str(self))

    def __repr__(self) -> str:
        return repr(str(self))
