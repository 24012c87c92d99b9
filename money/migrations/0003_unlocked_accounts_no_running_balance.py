"""The cash desk and the house keep no running balance any more (their balance is the sum of
their postings, read when needed, so postings to them take no row lock): their column goes
to 0, as new postings leave it."""

from django.db import migrations


def zero_unlocked(apps, schema_editor):
    Account = apps.get_model("money", "Account")
    Account.objects.filter(kind__in=["cash", "house"]).update(balance=0)


class Migration(migrations.Migration):
    dependencies = [("money", "0002_postings_immutable")]

    operations = [migrations.RunPython(zero_unlocked, migrations.RunPython.noop)]
