"""The names of the games as the pages show them."""

GAME_NAMES = {
    "stud_hi": "Seven Card Stud",
    "stud_8": "Stud Hi-Lo (8 or better)",
    "razz": "Razz",
}
STREET_LABELS = {
    "third": "Third street",
    "fourth": "Fourth street",
    "fifth": "Fifth street",
    "sixth": "Sixth street",
    "seventh": "Seventh street (river)",
}


def game_name(code: str) -> str:
    return GAME_NAMES.get(code, code)
