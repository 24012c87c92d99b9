"""The catalogues: every message of every app in Arabic and Greek, with its placeholders and
markup kept, and no message of the code or templates missing from its catalogue
(docs/i18n.md says how to add one)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import polib
import pytest
from django.core.management import call_command

from tests.conftest import running_in_ci

ROOT = Path(__file__).resolve().parent.parent
LANGUAGES = ("ar", "el")
PLACEHOLDER = re.compile(r"%\((\w+)\)[sdr]|%[sdr]|\{\w*\}")
TAG = re.compile(r"</?[a-z]+\b[^>]*>")
SKIPPED_FOLDERS = {".venv", "var", "node_modules", ".git"}


def catalogues() -> list[Path]:
    """Every ``<app>/locale/<lang>/LC_MESSAGES/<domain>.po`` of the repository."""
    found = []
    for path in ROOT.glob("*/locale/*/LC_MESSAGES/*.po"):
        if not SKIPPED_FOLDERS & set(path.relative_to(ROOT).parts):
            found.append(path)
    return sorted(found)


def apps_with_catalogues() -> list[Path]:
    return sorted({path.parents[3] for path in catalogues()})


def _id(entry: polib.POEntry) -> str:
    return f"{entry.msgctxt}\x04{entry.msgid}" if entry.msgctxt else entry.msgid


def _placeholders(text: str) -> list[str]:
    return sorted(match.group(0) for match in PLACEHOLDER.finditer(text))


def _tags(text: str) -> list[str]:
    return sorted(TAG.findall(text))


def test_there_are_catalogues_for_the_pages_in_both_languages():
    for language in LANGUAGES:
        assert (ROOT / "web" / "locale" / language / "LC_MESSAGES" / "django.po").exists()


@pytest.mark.parametrize(
    "app", apps_with_catalogues(), ids=lambda p: str(p.relative_to(ROOT)) or "."
)
def test_each_app_catalogue_exists_in_every_language(app: Path):
    domains = {path.name for path in app.glob("locale/*/LC_MESSAGES/*.po")}
    for language in LANGUAGES:
        for domain in domains:
            po = app / "locale" / language / "LC_MESSAGES" / domain
            assert po.exists(), f"{po.relative_to(ROOT)} is missing: run makemessages -l {language}"


@pytest.mark.parametrize("po_path", catalogues(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_message_is_translated_with_its_placeholders_and_markup(po_path: Path):
    """A message without a translation, a fuzzy one, or one that drops or changes a
    placeholder (``%(name)s``, ``{name}``, ``%s``) or the markup (``<bdi>``) fails."""
    po = polib.pofile(str(po_path))
    where = po_path.relative_to(ROOT)
    problems = []
    for entry in po:
        if entry.obsolete:
            continue
        if "fuzzy" in entry.flags:
            problems.append(f"fuzzy: {entry.msgid!r}")
        pairs = (
            [(entry.msgid_plural, form) for form in entry.msgstr_plural.values()]
            if entry.msgid_plural
            else [(entry.msgid, entry.msgstr)]
        )
        for source, translation in pairs:
            if not translation.strip():
                problems.append(f"untranslated: {entry.msgid!r}")
            elif _placeholders(source) != _placeholders(translation):
                problems.append(
                    f"placeholders {_placeholders(source)} became {_placeholders(translation)}"
                    f" in {entry.msgid!r}"
                )
            elif _tags(source) != _tags(translation):
                problems.append(f"markup {_tags(source)} became {_tags(translation)}")
    assert not problems, f"{where}: " + "; ".join(problems)


@pytest.mark.parametrize("po_path", catalogues(), ids=lambda p: str(p.relative_to(ROOT)))
def test_each_catalogue_is_compiled_and_current(po_path: Path):
    """The compiled .mo is committed (a clone needs no gettext tools to run) and holds every
    translation of the .po beside it."""
    mo_path = po_path.with_suffix(".mo")
    assert mo_path.exists(), f"{mo_path.relative_to(ROOT)} is missing: compilemessages"
    compiled = {_id(entry): entry for entry in polib.mofile(str(mo_path))}
    for entry in polib.pofile(str(po_path)).translated_entries():
        held = compiled.get(_id(entry))
        assert held is not None, f"{entry.msgid!r} is not compiled into {mo_path.name}"
        plural = bool(entry.msgid_plural)
        same = _forms(held) == _forms(entry) if plural else held.msgstr == entry.msgstr
        assert same, f"{mo_path.relative_to(ROOT)} is older than its .po: compilemessages"


def _forms(entry: polib.POEntry | polib.MOEntry) -> dict[int, str]:
    return {int(k): v for k, v in entry.msgstr_plural.items()}


def _xgettext() -> None:
    if shutil.which("xgettext") is None:
        if running_in_ci():
            pytest.fail("xgettext is missing: apt-get install -y gettext (.ci/run does)")
        pytest.skip("needs GNU gettext's xgettext: apt-get install -y gettext")


@pytest.mark.parametrize(
    "app", apps_with_catalogues(), ids=lambda p: str(p.relative_to(ROOT)) or "."
)
def test_every_marked_message_is_in_the_catalogue(app: Path, tmp_path: Path, monkeypatch):
    """makemessages over a copy of the app finds no message its catalogue lacks: a string
    marked in a template or in Python and not yet in the .po fails here."""
    _xgettext()
    copy = tmp_path / app.name
    shutil.copytree(app, copy, ignore=shutil.ignore_patterns("locale", "__pycache__"))
    (copy / "locale").mkdir()
    monkeypatch.chdir(copy)
    call_command("makemessages", locale=["el"], verbosity=0, no_obsolete=True)
    for made in (copy / "locale" / "el" / "LC_MESSAGES").glob("*.po"):
        kept = app / "locale" / "el" / "LC_MESSAGES" / made.name
        assert kept.exists(), f"{kept.relative_to(ROOT)} is missing: run makemessages"
        have = {_id(entry) for entry in polib.pofile(str(kept)) if not entry.obsolete}
        missing = sorted(_id(e) for e in polib.pofile(str(made)) if _id(e) not in have)
        assert not missing, (
            f"{len(missing)} message(s) of {app.name}/ are not in its catalogue; run "
            f"makemessages -l ar -l el in {app.name}/ and translate them (docs/i18n.md): "
            + "; ".join(repr(m) for m in missing[:20])
        )
