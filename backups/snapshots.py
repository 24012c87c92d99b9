"""A consistent snapshot of the whole database while tables run, and its restore.

PostgreSQL: ``pg_dump --format=custom`` reads every table in one repeatable-read transaction,
so the file is the database as it was at one instant (a hand's events, its snapshot and the
ledger's postings agree) while the workers go on writing; ``pg_restore --single-transaction``
loads it whole or not at all. SQLite (the embedded default): SQLite's online backup API
copies every page in one read transaction (the WAL lets writers go on meanwhile).

A restore goes into an empty database only: restoring over a database in use would mix two
histories. Each failure raises :class:`BackupError` saying what to do.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import time
from collections.abc import Callable, Mapping
from contextlib import closing
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import connection

Progress = Callable[[str], None]

POSTGRES_MAGIC = b"PGDMP"
SQLITE_MAGIC = b"SQLite format 3\x00"
PG_DUMP_TABLE = "dumping contents of table "
PG_RESTORE_TABLE = "processing data for table "


class BackupError(Exception):
    """A backup or restore that cannot go on: the message says why and what to do."""


@dataclass(frozen=True)
class Outcome:
    """What a backup wrote or a restore read."""

    path: Path
    size: int
    seconds: float
    tables: int


def database_label() -> str:
    """The configured database, as an operator recognises it (no password)."""
    conf = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"SQLite database {conf['NAME']}"
    where = f"{conf['HOST'] or 'localhost'}:{conf['PORT'] or 5432}"
    return f"PostgreSQL database {conf['NAME']!r} on {where}"


def default_path() -> Path:
    """``var/backups/stud-<UTC time>.<dump|sqlite3>``: never the name of an earlier backup."""
    suffix = "sqlite3" if connection.vendor == "sqlite" else "dump"
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    return Path(settings.VAR_DIR) / "backups" / f"stud-{stamp}.{suffix}"


def backup(path: Path, progress: Progress) -> Outcome:
    """Write a consistent snapshot of the configured database to ``path`` (a new file)."""
    if path.exists():
        raise BackupError(f"{path} exists: choose another file (a backup never overwrites one)")
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".partial")
    started = time.monotonic()
    try:
        if connection.vendor == "postgresql":
            tables = _pg_dump(partial, progress)
        else:
            tables = _sqlite_copy(Path(connection.settings_dict["NAME"]), partial, progress)
        os.replace(partial, path)
    finally:
        partial.unlink(missing_ok=True)
    return Outcome(path, path.stat().st_size, time.monotonic() - started, tables)


def restore(path: Path, progress: Progress) -> Outcome:
    """Load the backup at ``path`` into the configured database, which must be empty."""
    if not path.is_file():
        raise BackupError(f"{path}: no such file (give the path of a file `backup` wrote)")
    magic = path.read_bytes()[: len(SQLITE_MAGIC)]
    postgres = connection.vendor == "postgresql"
    if postgres and not magic.startswith(POSTGRES_MAGIC):
        raise BackupError(
            f"{path} is not a pg_dump archive, and {database_label()} is PostgreSQL: restore a "
            "file that `backup` wrote from PostgreSQL (a .dump)"
        )
    if not postgres and magic != SQLITE_MAGIC:
        raise BackupError(
            f"{path} is not a SQLite database, and {database_label()} is SQLite: a PostgreSQL "
            "archive is restored with DATABASE_URL set to an empty PostgreSQL database"
        )
    _check_empty()
    started = time.monotonic()
    if postgres:
        connection.close()
        tables = _pg_restore(path, progress)
    else:
        connection.close()
        tables = _sqlite_copy(path, Path(connection.settings_dict["NAME"]), progress)
    return Outcome(path, path.stat().st_size, time.monotonic() - started, tables)


def _check_empty() -> None:
    names = connection.introspection.table_names()
    if names:
        raise BackupError(
            f"{database_label()} already has {len(names)} tables: restore into a new, empty "
            "database (PostgreSQL: `createdb NAME`, then DATABASE_URL=.../NAME; SQLite: move "
            "var/db.sqlite3 away) and run restore again. A restore never writes over a database."
        )


def _pg_dump(path: Path, progress: Progress) -> int:
    command = ["pg_dump", "--format=custom", "--verbose", f"--file={path}"]
    tables = _run_pg(command, PG_DUMP_TABLE, progress)
    # The archive reads back: its table of contents lists what it holds.
    listing = _run(["pg_restore", "--list", str(path)], _pg_environment())
    if listing.returncode != 0:
        raise BackupError(f"pg_dump wrote an archive pg_restore cannot read:\n{listing.stderr}")
    return tables


def _pg_restore(path: Path, progress: Progress) -> int:
    command = [
        *("pg_restore", "--verbose", "--exit-on-error", "--single-transaction"),
        *("--no-owner", "--no-privileges", f"--dbname={connection.settings_dict['NAME']}"),
        str(path),
    ]
    return _run_pg(command, PG_RESTORE_TABLE, progress)


def _run_pg(command: list[str], table_line: str, progress: Progress) -> int:
    """Run a PostgreSQL client tool, reporting each table it copies; return their count."""
    if shutil.which(command[0]) is None:
        raise BackupError(
            f"{command[0]} is not installed: install PostgreSQL's client tools of the server's "
            "major version or newer (Debian: apt-get install postgresql-client)"
        )
    process = subprocess.Popen(
        command,
        env=_pg_environment(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stderr is not None
    tables, messages = 0, []
    for line in process.stderr:
        _, found, table = line.strip().partition(table_line)
        if found:
            tables += 1
            progress(f"  table {_table_name(table)}")
        elif " error: " in line or "FATAL" in line or "ERROR" in line:
            messages.append(line.rstrip())
    if process.wait() != 0:
        raise BackupError(_pg_failure(command[0], process.returncode, messages))
    return tables


def _table_name(quoted: str) -> str:
    """``"public.games_hand"`` (as the tools print it) as ``games_hand``."""
    return quoted.strip().strip('"').removeprefix("public.")


def _pg_failure(tool: str, code: int, messages: list[str]) -> str:
    said = "\n".join(messages) or "(nothing on stderr)"
    text = said.lower()
    if "version mismatch" in text:
        advice = (
            f"this {tool} is older than the server: install the client tools of the server's "
            "major version (or newer) and run it again"
        )
    elif "connect" in text or "password" in text or "does not exist" in text:
        advice = (
            f"check DATABASE_URL (host, port, user, password, database name) and that "
            f"PostgreSQL accepts connections from here: {database_label()}"
        )
    else:
        advice = "nothing was changed; fix what it says and run it again"
    return f"{tool} failed (exit code {code}): {advice}.\n{said}"


def _pg_environment() -> Mapping[str, str]:
    """libpq's variables for the configured database (the password stays off the command
    line, where `ps` would show it)."""
    conf: dict[str, Any] = connection.settings_dict
    names = {"HOST": "PGHOST", "PORT": "PGPORT", "USER": "PGUSER", "PASSWORD": "PGPASSWORD"}
    environment = dict(os.environ, PGDATABASE=str(conf["NAME"]))
    environment.update({variable: str(conf[key]) for key, variable in names.items() if conf[key]})
    if sslmode := conf.get("OPTIONS", {}).get("sslmode"):
        environment["PGSSLMODE"] = str(sslmode)
    return environment


def _run(command: list[str], environment: Mapping[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, env=environment, capture_output=True, text=True, check=False)


def _sqlite_copy(source: Path, target: Path, progress: Progress) -> int:
    """Copy a SQLite database page by page in one read transaction (the online backup API),
    then check the copy's integrity; return its number of tables."""
    if not source.is_file():
        raise BackupError(f"{source}: no SQLite database there (run `manage.py migrate` first?)")
    with closing(sqlite3.connect(f"file:{source}?mode=ro", uri=True, timeout=20)) as reader:
        pages = reader.execute("PRAGMA page_count").fetchone()[0]
        size = pages * reader.execute("PRAGMA page_size").fetchone()[0]
        progress(f"  copying {pages} pages ({size / 1e6:.1f} MB) in one read transaction")
        with closing(sqlite3.connect(target)) as writer:
            # pages=-1: every page in one step, so a writer cannot restart it half way.
            reader.backup(writer, pages=-1)
            check = writer.execute("PRAGMA quick_check").fetchone()[0]
            tables = writer.execute(
                "SELECT count(*) FROM sqlite_master WHERE type = 'table'"
            ).fetchone()[0]
    if check != "ok":
        raise BackupError(f"the copy in {target} fails SQLite's integrity check: {check}")
    progress(f"  {tables} tables, integrity check ok")
    return int(tables)
