"""Migrations that would hold a big table while tables run are flagged (docs/operations.md,
"Upgrades").

The big tables grow with every hand: the event log, the hands, the ledger's postings and
transactions, the tournaments' logs, the webhooks' outbox and deliveries, the idempotency
records. On those, an operation is flagged when it takes a lock for as long as it reads or
rewrites the whole table, or when old code still running during the upgrade would break:

- ``AlterField``: a type change rewrites the table under an ACCESS EXCLUSIVE lock (and a
  NOT NULL added scans it);
- an index or constraint made in the migration's transaction (``AddIndex``, ``AddConstraint``,
  a field with ``db_index``/``unique``): it blocks writes while it is built; use
  ``AddIndexConcurrently`` (django.contrib.postgres) in a non-atomic migration;
- ``AddField`` with a default: instant on PostgreSQL 11+, but SQLite copies the whole table;
- ``RemoveField``/``RenameField``/``RenameModel``/``DeleteModel``: the code still running
  during the upgrade reads the old name;
- ``RunSQL``/``RunPython`` anywhere: what it does cannot be read from here.

A flagged migration is reviewed and then allowed below with the reason it is safe (or the
upgrade note it needs). django-migration-linter checks backward compatibility by running
``sqlmigrate`` on a database for each migration; this check is about locks on our big tables,
needs no database and knows which tables are big.
"""

from __future__ import annotations

from collections.abc import Iterator

from django.contrib.postgres.operations import AddIndexConcurrently
from django.db import migrations
from django.db.migrations.loader import MigrationLoader
from django.db.migrations.operations.base import Operation

PROJECT_APPS = ("games", "clubs", "tourney", "leagues", "money", "integrations")
BIG_TABLES = {
    ("games", "tableevent"),
    ("games", "hand"),
    ("money", "posting"),
    ("money", "transaction"),
    ("tourney", "tournamentevent"),
    ("integrations", "outboxevent"),
    ("integrations", "delivery"),
    ("integrations", "deliveryattempt"),
    ("integrations", "idempotentrequest"),
}
REVIEWED = {
    ("games", "0002_hand_card_commitments"): (
        "hand's new columns have constant defaults (instant on PostgreSQL 11+); the RunPython "
        "writes one seed per table, not per hand"
    ),
    ("games", "0004_table_rake"): "hand.rake defaults to 0 (instant on PostgreSQL 11+)",
    ("games", "0006_event_table_index_from_seq"): "drops one index of the log (instant)",
    ("games", "0007_event_log_keys_unconstrained"): (
        "drops the log's two foreign key constraints (instant: nothing is checked)"
    ),
    ("games", "0009_event_log_keyed_by_table_and_seq"): (
        "the log's primary key index is built anew under its lock, about a second per million "
        "events (its docstring): migrate between sessions (docs/operations.md, Upgrades)"
    ),
    ("games", "0010_hand_snapshot_lz4"): (
        "SET COMPRESSION changes the column's metadata only (rows written later use it)"
    ),
    ("integrations", "0002_tournament_places_event"): (
        "the event type's choices only: sqlmigrate shows a no-op (Django writes no SQL for them)"
    ),
    ("money", "0002_postings_immutable"): "creates two triggers (no row is read)",
    ("money", "0003_unlocked_accounts_no_running_balance"): (
        "updates the balance of the cash desks and the house only (a few rows)"
    ),
}


def operations(operation: Operation) -> Iterator[Operation]:
    """The operation, or the database operations it wraps."""
    if isinstance(operation, migrations.SeparateDatabaseAndState):
        for inner in operation.database_operations:
            yield from operations(inner)
    else:
        yield operation


def why_flagged(
    app: str, operation: Operation, created: frozenset[str] = frozenset()
) -> str | None:
    """Why ``operation`` may hold a big table (None when it cannot); ``created``: the models
    its migration creates (their tables are new and empty)."""
    name = type(operation).__name__
    if isinstance(operation, migrations.RunSQL | migrations.RunPython):
        return f"{name}: its cost cannot be read from the migration"
    if not type(operation).__module__.startswith("django."):
        return f"{name}: an operation of the project's own"
    model = getattr(operation, "model_name", None) or getattr(operation, "old_name", None)
    if model is None or model.lower() in created or (app, model.lower()) not in BIG_TABLES:
        return None
    if isinstance(operation, AddIndexConcurrently):
        return None
    if isinstance(operation, migrations.AlterField):
        return f"{name} {model}.{operation.name}: may rewrite or scan the table under a lock"
    if isinstance(operation, migrations.AddIndex | migrations.AddConstraint):
        return f"{name} on {model}: built in the transaction, blocking writes"
    if isinstance(operation, migrations.AddField):
        field = operation.field
        if field.db_index or field.unique:
            return f"{name} {model}.{operation.name}: its index is built blocking writes"
        if field.has_default() or field.db_default is not field.NOT_PROVIDED:
            return f"{name} {model}.{operation.name} with a default: SQLite copies the table"
        return None
    if isinstance(
        operation,
        migrations.RemoveField
        | migrations.RenameField
        | migrations.RenameModel
        | migrations.DeleteModel,
    ):
        return f"{name} on {model}: the code still running reads the old schema"
    return None


def flagged() -> dict[tuple[str, str], list[str]]:
    loader = MigrationLoader(None, ignore_no_migrations=True)
    found: dict[tuple[str, str], list[str]] = {}
    for (app, name), migration in sorted(loader.disk_migrations.items()):
        if app not in PROJECT_APPS:
            continue
        created = frozenset(
            operation.name_lower
            for operation in migration.operations
            if isinstance(operation, migrations.CreateModel)
        )
        reasons = [
            reason
            for operation in migration.operations
            for inner in operations(operation)
            if (reason := why_flagged(app, inner, created))
        ]
        if reasons:
            found[(app, name)] = reasons
    return found


def test_no_migration_holds_a_big_table_unless_reviewed() -> None:
    unreviewed = {key: reasons for key, reasons in flagged().items() if key not in REVIEWED}
    assert unreviewed == {}, (
        "these migrations may hold a big table while tables run: make them safe (see this "
        "module's docstring) or review them and add them to REVIEWED with the reason"
    )


def test_every_reviewed_migration_is_still_flagged() -> None:
    """The allow-list names no migration that is gone or no longer flagged."""
    assert set(REVIEWED) <= set(flagged())


def test_the_check_flags_an_index_built_on_the_event_log() -> None:
    index = migrations.AddIndex("tableevent", models_index())
    assert why_flagged("games", index) is not None
    assert why_flagged("games", AddIndexConcurrently("tableevent", models_index())) is None
    assert why_flagged("clubs", migrations.AddIndex("club", models_index())) is None
    new_table = frozenset({"tableevent"})
    assert why_flagged("games", index, new_table) is None


def models_index():  # type: ignore[no-untyped-def]
    from django.db import models

    return models.Index(fields=["kind"], name="event_kind_idx")
