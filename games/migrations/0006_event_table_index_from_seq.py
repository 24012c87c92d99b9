"""The log's own index on ``table_id`` goes: ``event_unique_seq`` (table, seq) serves every
lookup by table. Only the index is dropped (the foreign key stays as it is: re-adding it, as
AlterField would, checks every row of the log under a lock)."""

import django.db.models.deletion
from django.db import migrations, models

INDEX = "games_tableevent_table_id_8ee7517a"


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0005_table_club"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[
                migrations.RunSQL(
                    f'DROP INDEX IF EXISTS "{INDEX}"',
                    reverse_sql=f'CREATE INDEX "{INDEX}" ON "games_tableevent" ("table_id")',
                ),
            ],
            state_operations=[
                migrations.AlterField(
                    model_name="tableevent",
                    name="table",
                    field=models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="events",
                        to="games.table",
                    ),
                ),
            ],
        ),
    ]
