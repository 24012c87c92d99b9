"""``python manage.py restore FILE``: load a backup into the configured database, which must
be new and empty. See docs/operations.md, "Restore"."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from backups.snapshots import BackupError, database_label, restore

NEXT_STEPS = """Next:
  python manage.py migrate          (applies this release's newer migrations, if any)
  python manage.py ledger_check     (the ledger balances and matches the chips in play)
  then start the workers and beat: hands that were running resume from their log"""


class Command(BaseCommand):
    help = "Restore a backup written by `backup` into the configured (empty) database."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path", type=Path, help="the backup file to load")

    def handle(self, *args: Any, **options: Any) -> None:
        self.stdout.write(f"Restoring {options['path']} into {database_label()}")
        try:
            outcome = restore(options["path"], self.stdout.write)
        except BackupError as problem:
            raise CommandError(f"restore failed: {problem}") from problem
        self.stdout.write(
            f"Restored {outcome.tables} tables from {outcome.path} in {outcome.seconds:.1f} s"
        )
        self.stdout.write(NEXT_STEPS)
