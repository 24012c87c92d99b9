"""``python manage.py backup [FILE]``: a consistent snapshot of the database while tables run
(PostgreSQL: ``pg_dump --format=custom``; SQLite: its online backup API). See
docs/operations.md, "Backups"."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from backups.snapshots import BackupError, backup, database_label, default_path


class Command(BaseCommand):
    help = "Back up the whole database to a new file while the service runs."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "path",
            nargs="?",
            type=Path,
            help="the file to write (default: var/backups/stud-<UTC time>.dump or .sqlite3)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        path = options["path"] or default_path()
        self.stdout.write(f"Backing up {database_label()} to {path}")
        try:
            outcome = backup(path, self.stdout.write)
        except BackupError as problem:
            raise CommandError(f"backup failed: {problem}") from problem
        self.stdout.write(
            f"Backed up {outcome.tables} tables to {outcome.path}: "
            f"{outcome.size / 1e6:.1f} MB in {outcome.seconds:.1f} s"
        )
