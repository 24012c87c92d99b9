"""Django's ``makemessages``, reading the engine's and the planners' refusals too.

The engine and the tournament planners are pure Python (no Django): they cannot call
``gettext``. Their refusals are ``Refused(template, code, **params)`` and its
``IllegalAction`` (or a template marked by ``refusal_template`` where it is built apart from
its raise),
``PlanRefused(template, **params)`` and its ``leagues.formulas.FormulaError``, with literal
English templates, so the translation tools take those first arguments as messages too;
``games.poker_words`` and ``tourney.plan_messages`` say them in the reader's language. Run as
Django's (docs/i18n-messages.md): ``cd games && ../manage.py makemessages -l ar -l el``.
"""

from django.core.management.commands import makemessages


class Command(makemessages.Command):
    xgettext_options = [
        *makemessages.Command.xgettext_options,
        "--keyword=Refused",
        "--keyword=IllegalAction",
        "--keyword=refusal_template",
        "--keyword=PlanRefused",
        "--keyword=PlanNote",
        "--keyword=FormulaError",
        "--keyword=_l",  # the pages' forms: ``gettext_lazy as _l`` (web/views/desk_*.py)
    ]
    # A guess from a similar message is no translation: a new message stays untranslated
    # until someone translates it (and the catalogue test says which).
    msgmerge_options = [*makemessages.Command.msgmerge_options, "--no-fuzzy-matching"]
