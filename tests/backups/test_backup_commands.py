"""`manage.py backup` and `restore` (backups.snapshots) on the configured database: a round
trip, and each refusal says what to do and changes nothing. The drill with tables running is
tests/e2e/test_restore_drill.py."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from games.models import Player
from tests.e2e.live import free_port
from tests.games.factories import make_player
from tests.other_database import empty_database, on_database

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_backup_restores_into_an_empty_database_with_every_row(tmp_path: Path, capsys) -> None:
    names = sorted(make_player().display_name for _ in range(3))
    backup = tmp_path / "stud.backup"
    call_command("backup", str(backup))
    said = capsys.readouterr().out
    assert "Backing up" in said and f"to {backup}" in said and " MB in " in said
    with empty_database("restore") as name, on_database(name):
        call_command("restore", str(backup))
        said = capsys.readouterr().out
        assert "Restored" in said and "ledger_check" in said
        assert sorted(Player.objects.values_list("display_name", flat=True)) == names


def test_restore_refuses_a_database_that_has_tables_and_changes_nothing(tmp_path: Path) -> None:
    make_player()
    backup = tmp_path / "stud.backup"
    call_command("backup", str(backup))
    make_player()
    with pytest.raises(CommandError, match=r"already has .* tables: restore into a new, empty"):
        call_command("restore", str(backup))
    assert Player.objects.count() == 2


def test_restore_refuses_a_file_that_is_no_backup_of_this_kind_of_database(tmp_path: Path) -> None:
    stray = tmp_path / "notes.txt"
    stray.write_text("not a backup")
    with empty_database("restore") as name, on_database(name):
        with pytest.raises(CommandError, match=r"is not a (pg_dump archive|SQLite database)"):
            call_command("restore", str(stray))
        with pytest.raises(CommandError, match="no such file"):
            call_command("restore", str(tmp_path / "missing.dump"))


def test_backup_never_overwrites_a_file(tmp_path: Path) -> None:
    earlier = tmp_path / "stud.backup"
    earlier.write_bytes(b"an earlier backup")
    with pytest.raises(CommandError, match="exists: choose another file"):
        call_command("backup", str(earlier))
    assert earlier.read_bytes() == b"an earlier backup"


@pytest.mark.postgres
def test_a_backup_without_pg_dump_says_to_install_the_client_tools(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # no pg_dump there
    with pytest.raises(CommandError, match="pg_dump is not installed: install PostgreSQL's"):
        call_command("backup", str(tmp_path / "stud.dump"))
    assert list(tmp_path.iterdir()) == []


@pytest.mark.postgres
def test_a_backup_that_cannot_reach_the_server_says_to_check_the_database_url(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(connection.settings_dict, "PORT", str(free_port()))
    with pytest.raises(CommandError, match=r"pg_dump failed .*check DATABASE_URL"):
        call_command("backup", str(tmp_path / "stud.dump"))
    assert list(tmp_path.iterdir()) == [], "no partial file is left"
