"""Provably fair dealing that discloses nothing: client seeds, a pre-drawn next seed per
table, the Merkle root of every card position, and the log of staff audits of hands."""

import secrets

import django.db.models.deletion
import games.models
from django.conf import settings
from django.db import migrations, models


def _a_seed_per_table(apps, schema_editor):
    """AddField gives every existing table the same default: draw each its own."""
    table_model = apps.get_model("games", "Table")
    for table in table_model.objects.only("pk"):
        table_model.objects.filter(pk=table.pk).update(next_seed=secrets.token_bytes(32))


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0001_initial'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name='hand',
            name='card_root',
            field=models.CharField(blank=True, default='', max_length=64),
        ),
        migrations.AddField(
            model_name='hand',
            name='client_seeds',
            field=models.JSONField(default=list),
        ),
        migrations.AddField(
            model_name='player',
            name='client_seed',
            field=models.CharField(blank=True, default='', max_length=64),
        ),
        migrations.AddField(
            model_name='table',
            name='next_seed',
            field=models.BinaryField(default=games.models.new_server_seed, max_length=32),
        ),
        migrations.RunPython(_a_seed_per_table, migrations.RunPython.noop),
        migrations.CreateModel(
            name='HandAudit',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('format', models.CharField(max_length=8)),
                ('at', models.DateTimeField(auto_now_add=True)),
                ('hand', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='audits', to='games.hand')),
                ('user', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='hand_audits', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'ordering': ['-at', '-id'],
            },
        ),
    ]
