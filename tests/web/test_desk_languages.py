"""The desk's forms speak the page's language: labels built at import are lazy, so each
request reads them in its own language (docs/i18n.md)."""

from django.utils import translation

from web.views.desk_ring import VARIANT_CHOICES


def test_the_ring_games_game_names_follow_the_pages_language():
    labels = dict(VARIANT_CHOICES)
    with translation.override("ar"):
        assert str(labels["razz"]) == "راز"
    with translation.override("el"):
        assert str(labels["stud_8"]) == "Stud Hi/Lo (8-or-better)"
    with translation.override("en"):
        assert str(labels["stud_hi"]) == "Seven Card Stud"
