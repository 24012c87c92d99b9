"""The event log's keys to its table and hand are no longer database constraints: each
checked every event row at commit, a query per row, and together cost the database 40% of
writing a hand (see ``TableEvent``). The columns and the hand's index stay."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0006_event_table_index_from_seq"),
    ]

    operations = [
        migrations.AlterField(
            model_name="tableevent",
            name="hand",
            field=models.ForeignKey(
                blank=True,
                db_constraint=False,
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="events",
                to="games.hand",
            ),
        ),
        migrations.AlterField(
            model_name="tableevent",
            name="table",
            field=models.ForeignKey(
                db_constraint=False,
                db_index=False,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="events",
                to="games.table",
            ),
        ),
    ]
