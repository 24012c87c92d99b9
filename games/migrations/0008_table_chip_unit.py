"""A table's smallest chip in play: tied pots and hi/lo halves are shared in it (docs/rules.md 8),
not in single chips, so a tournament after a colour-up never gets a stack of odd chips."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("clubs", "0001_clubs_and_members"),
        ("games", "0007_event_log_keys_unconstrained"),
    ]

    operations = [
        migrations.AddField(
            model_name="table",
            name="chip_unit",
            field=models.PositiveIntegerField(default=1),
        ),
        migrations.AddConstraint(
            model_name="table",
            constraint=models.CheckConstraint(
                condition=models.Q(("chip_unit__gte", 1)), name="table_chip_unit_positive"
            ),
        ),
    ]
