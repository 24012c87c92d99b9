"""The engine's refusals, as templates a presentation layer can say in any language.

The engine knows no language: it refuses with an English ``template`` with ``{name}``
placeholders, a ``code`` and the ``params`` that fill it; ``str()`` of the refusal is the
English message. ``games.poker_words`` says the same in the reader's language (the templates
are in the catalogues: ``games.management.commands.makemessages`` reads the first argument
of ``Refused``, ``IllegalAction`` and ``refusal_template``).
"""

from __future__ import annotations

Param = str | int | tuple[str | int, ...]


class Refused(ValueError):
    """An input the rules do not allow; nothing was changed.

    The message is ``template`` with its ``{name}`` placeholders filled from ``params`` (a
    tuple is a list: ``amounts`` joined with " or ", any other with ", ").

    >>> str(Refused("{action}: say how much, to {amounts}", action="bet", amounts=(2, 4)))
    'bet: say how much, to 2 or 4'
    """

    def __init__(self, template: str, code: str = "invalid_rules", **params: Param) -> None:
        super().__init__(
            template.format(**{k: joined(k, v) for k, v in params.items()}) if params else template
        )
        self.template = template
        self.code = code
        self.params = params


def joined(
    name: str,
    value: Param,
    *,
    alternatives: str = " or ",
    separator: str = ", ",
) -> str:
    """A parameter of a :class:`Refused` as its message writes it: a tuple of ``amounts``
    joined with ``alternatives``, any other tuple with ``separator``."""
    if not isinstance(value, tuple):
        return str(value)
    return (alternatives if name == "amounts" else separator).join(str(v) for v in value)


def refusal_template(template: str) -> str:
    """``template`` as it is: marks the template of a refusal built apart from its raise for
    the translation tools, which read the first argument of this and of the refusals."""
    return template
