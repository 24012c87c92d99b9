"""``manage.py run_tournament --help`` explains every option and shows its default."""

from __future__ import annotations

import pytest
from django.core.management import CommandError

from tourney.management.commands.run_tournament import Command

OPTIONS = {
    "--players": "60",
    "--variant": "stud_hi",
    "--seed": "7",
    "--workers": "2",
    "--table-size": "8",
    "--level-seconds": "10",
    "--timeout": "1800",
    "--games": "none",
    "--mode": "online",
    "--payouts": "the default structure for the field",
    "--bounty": "0",
    "--bounty-kind": "fixed",
    "--rebuys": "0",
    "--rebuy-levels": "4",
    "--add-on-level": "0",
    "--pause-ms": "300 with rebuys or an add-on on offer, else 0",
    "--re-entries": "0",
    "--re-entry-levels": "4",
}


def test_every_option_has_a_description_and_its_default():
    parser = Command().create_parser("manage.py", "run_tournament")
    ours = {action.option_strings[0]: action for action in parser._actions}
    for option, default in OPTIONS.items():
        described = ours[option].help % {"default": ours[option].default}
        assert described.endswith(f"(default: {default})"), option
        assert len(described) > len(f"(default: {default})") + 10, option
    assert ours["--json"].help
    assert "(default: 60)" in parser.format_help()


def test_a_rotation_takes_known_games_only_and_says_which():
    parser = Command().create_parser("manage.py", "run_tournament")
    assert parser.parse_args(["--games", "stud_hi,razz"]).games == ("stud_hi", "razz")
    with pytest.raises(CommandError, match=r"unknown games \['holdem'\]: choose among stud_hi"):
        parser.parse_args(["--games", "razz,holdem"])
