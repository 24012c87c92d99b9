"""Django's ``makemessages``, reading the engine's refusals too.

The engine is pure Python (no Django): it cannot call ``gettext``. Its refusals are
``IllegalAction(template, code, **params)`` with a literal template (or a template marked by
``refusal_template`` where it is built apart from its raise), so the translation tools take
those first arguments as messages too, and ``games.poker_words`` says them in the reader's
language. Run as Django's (docs/i18n.md): ``cd games && ../manage.py makemessages -a``.
"""

from django.core.management.commands import makemessages


class Command(makemessages.Command):
    xgettext_options = [
        *makemessages.Command.xgettext_options,
        "--keyword=IllegalAction",
        "--keyword=refusal_template",
    ]
    # A guess from a similar message is no translation: a new message stays untranslated
    # until someone translates it (and the catalogue test says which).
    msgmerge_options = [*makemessages.Command.msgmerge_options, "--no-fuzzy-matching"]
