from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tourney", "0005_knockouts_bounties_bonus_chips"),
    ]

    operations = [
        migrations.AddField(
            model_name="entry",
            name="bust_table",
            field=models.PositiveSmallIntegerField(blank=True, null=True),
        ),
    ]
