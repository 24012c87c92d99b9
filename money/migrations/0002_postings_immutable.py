"""Postings and transactions are never updated, and on PostgreSQL never deleted: a trigger
refuses it (a mistake is corrected by a new transaction). SQLite gets the update trigger
only, since test databases there are emptied with DELETE."""

from django.db import migrations

POSTGRES = """
CREATE OR REPLACE FUNCTION money_refuse_change() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'the ledger is append-only: % on % refused', TG_OP, TG_TABLE_NAME;
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER money_posting_append_only BEFORE UPDATE OR DELETE ON money_posting
    FOR EACH ROW EXECUTE FUNCTION money_refuse_change();
CREATE TRIGGER money_transaction_append_only BEFORE UPDATE OR DELETE ON money_transaction
    FOR EACH ROW EXECUTE FUNCTION money_refuse_change();
"""
POSTGRES_REVERSE = """
DROP TRIGGER IF EXISTS money_posting_append_only ON money_posting;
DROP TRIGGER IF EXISTS money_transaction_append_only ON money_transaction;
DROP FUNCTION IF EXISTS money_refuse_change();
"""
SQLITE = [
    f"""CREATE TRIGGER money_{table}_append_only BEFORE UPDATE ON money_{table}
    BEGIN SELECT RAISE(ABORT, 'the ledger is append-only: UPDATE on money_{table} refused'); END;"""
    for table in ("posting", "transaction")
]
SQLITE_REVERSE = [
    f"DROP TRIGGER IF EXISTS money_{table}_append_only;" for table in ("posting", "transaction")
]


def forward(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    if vendor == "postgresql":
        schema_editor.execute(POSTGRES, params=None)
    elif vendor == "sqlite":
        for statement in SQLITE:
            schema_editor.execute(statement)


def backward(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    if vendor == "postgresql":
        schema_editor.execute(POSTGRES_REVERSE, params=None)
    elif vendor == "sqlite":
        for statement in SQLITE_REVERSE:
            schema_editor.execute(statement)


class Migration(migrations.Migration):
    dependencies = [("money", "0001_ledger")]

    operations = [migrations.RunPython(forward, backward)]
