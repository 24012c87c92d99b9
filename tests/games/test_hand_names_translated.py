"""Hand names in English, Arabic and Greek, built from the engine's values (never from its
English words): each high category, the ace-to-five low, razz's paired lows and the hi-lo
"no low" announcement; in English, the engine's own names letter for letter."""

from __future__ import annotations

import pytest
from django.utils import translation

from games.engine.cards import parse_cards
from games.engine.evaluation import describe_high, describe_low, high_value, low_value
from games.engine.rules import Rules, Variant
from games.engine.views import log_for, view_for
from games.hand_names import high_name, low_name, named_event, named_view
from tests.engine.helpers import STAKES, stacked_hand

FSI, PDI = "\u2068", "\u2069"  # the Arabic names isolate the run of ranks (left to right)

HIGH = [
    (
        "As Ks Qs Js Ts",
        "a royal flush",
        "رويال فلاش",
        "ρουαγιάλ κέντα χρώμα",
    ),
    (
        "9h 8h 7h 6h 5h 2c",
        "a straight flush, nine high",
        "ستريت فلاش، أعلاها تسعة",
        "κέντα χρώμα, ψηλότερο φύλλο: εννιάρι",
    ),
    ("Kc Kd Kh Ks 4c", "four of a kind, kings", "أربعة من نفس النوع، شايبات", "καρέ, ρηγάδες"),
    (
        "Qc Qd Qh 8c 8s",
        "a full house, queens full of eights",
        "فول هاوس، بنات مع ثمانيات",
        "full house, ντάμες με οχτάρια",
    ),
    ("Ac Jc 9c 6c 3c", "a flush, ace high", "فلاش، أعلاه آص", "χρώμα, ψηλότερο φύλλο: άσος"),
    (
        "9d 8s 7h 6c 5d",
        "a straight, nine high",
        "ستريت، أعلاه تسعة",
        "κέντα, ψηλότερο φύλλο: εννιάρι",
    ),
    (
        "7s 7h 7d Kc 2s",
        "three of a kind, sevens",
        "ثلاثة من نفس النوع، سبعات",
        "τρίτο, εφτάρια",
    ),
    (
        "8c 8d 6h 6s Qc Jd 3h",
        "two pair, eights and sixes",
        "زوجان، ثمانيات وستات",
        "δύο ζευγάρια, οχτάρια και εξάρια",
    ),
    ("Tc Td As 8h 4d", "a pair of tens", "زوج عشرات", "ζευγάρι δεκάρια"),
    ("As Qd 9c 6h 2s", "high card ace", "ورقة عالية آص", "ψηλό φύλλο: άσος"),
]

LOW = [
    (
        "Ac 2d 4h 5s 7c 9d Kh",
        "7-5-4-2-A low",
        f"يد منخفضة {FSI}7-5-4-2-A{PDI}",
        "χαμηλό 7-5-4-2-A",
    ),
    (
        "4c 4d Kh Qs Jc",
        "a pair of fours, K-Q-J low",
        f"زوج أربعات، يد منخفضة {FSI}K-Q-J{PDI}",
        "ζευγάρι τεσσάρια, χαμηλό K-Q-J",
    ),
    (
        "4c 4d Kh Ks Jc",
        "two pair, kings and fours, J low",
        f"زوجان، شايبات وأربعات، يد منخفضة {FSI}J{PDI}",
        "δύο ζευγάρια, ρηγάδες και τεσσάρια, χαμηλό J",
    ),
]


@pytest.mark.parametrize(("cards", "english", "arabic", "greek"), HIGH)
def test_each_high_category_is_named_in_each_language(cards, english, arabic, greek):
    value = high_value(parse_cards(cards))

    names = {}
    for language in ("en", "ar", "el"):
        with translation.override(language):
            names[language] = high_name(value)

    assert names == {"en": english, "ar": arabic, "el": greek}
    assert describe_high(value) == english


@pytest.mark.parametrize(("cards", "english", "arabic", "greek"), LOW)
def test_lows_and_razzs_paired_lows_are_named_in_each_language(cards, english, arabic, greek):
    value = low_value(parse_cards(cards))

    names = {}
    for language in ("en", "ar", "el"):
        with translation.override(language):
            names[language] = low_name(value)

    assert names == {"en": english, "ar": arabic, "el": greek}
    assert describe_low(value) == english


@pytest.mark.parametrize(
    ("language", "hand", "low", "note"),
    [
        (
            "en",
            "two pair, kings and nines",
            None,
            "no low qualified: the high hand takes the whole pot",
        ),
        (
            "ar",
            "زوجان، شايبات وتسعات",
            None,
            "لا توجد يد منخفضة مؤهلة: اليد العالية تأخذ الوعاء كاملًا",
        ),
        (
            "el",
            "δύο ζευγάρια, ρηγάδες και εννιάρια",
            None,
            "κανένα χαμηλό χέρι δεν προκρίνεται: το υψηλό χέρι παίρνει ολόκληρο το ποτ",
        ),
    ],
)
def test_a_hi_lo_hand_with_no_low_announces_it_in_each_language(language, hand, low, note):
    cards = {0: "KcKh 9h Ts Jc 3d 9c", 1: "8c8d Qs 6h 6s Jd 3c"}
    played = stacked_hand(Rules(Variant.STUD_8), STAKES, [100, 100], cards)
    played.play("bring_in", "call", *["check"] * 8)
    played.act("show")

    with translation.override(language):
        view = named_view(view_for(played.state, None), played.state)

    assert view["winners"] == [
        {"pot": 0, "player": 0, "amount": 4, "half": "high", "hand": hand, "note": note}
    ]
    assert view["players"][0]["hand"] == {"high": hand, "low": low}


def test_a_razz_winner_is_named_by_the_low_in_each_language():
    cards = {0: "Ac2d 3h 4s 6c 9d Kh", 1: "KcKd Qs Qh Jd Js Tc"}
    played = stacked_hand(Rules(Variant.RAZZ), STAKES, [100, 100], cards)
    played.play("bring_in", "call", *["check"] * 8)
    while not played.state.is_over:
        played.act("show")

    english = view_for(played.state, None)["winners"]
    names = {}
    for language in ("en", "ar", "el"):
        with translation.override(language):
            names[language] = named_view(view_for(played.state, None), played.state)["winners"]

    assert names["en"] == english
    assert [w["hand"] for w in names["ar"]] == [f"يد منخفضة {FSI}6-4-3-2-A{PDI}"]
    assert [w["hand"] for w in names["el"]] == ["χαμηλό 6-4-3-2-A"]


def test_the_logs_awards_name_the_winning_hand_in_each_language():
    cards = {0: "KcKh 9h Ts Jc 3d 9c", 1: "8c8d Qs 6h 6s Jd 3c"}
    played = stacked_hand(Rules(Variant.STUD_8), STAKES, [100, 100], cards)
    played.play("bring_in", "call", *["check"] * 8)
    played.act("show")

    named = {}
    for language in ("en", "ar", "el"):
        with translation.override(language):
            log = [named_event(e, played.state) for e in log_for(played.state, None)]
        named[language] = [e["hand"] for e in log if e["type"] == "award"]

    assert log_for(played.state, None)[-1]["hand"] == "two pair, kings and nines"
    assert named == {
        "en": ["two pair, kings and nines"],
        "ar": ["زوجان، شايبات وتسعات"],
        "el": ["δύο ζευγάρια, ρηγάδες και εννιάρια"],
    }
