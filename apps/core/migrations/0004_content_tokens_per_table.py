"""A content token per table (apps.core.content): `core_contentversion` becomes one row per
content table (and per column with a token of its own), and each table's trigger moves its own
row, so a change rebuilds only the parts built from what it touched. `sqlmigrate core 0004`
shows the triggers. The single-token trigger of core/0003 is removed first (and put back when
this migration is reversed)."""

from importlib import import_module

from django.db import migrations, models

from apps.core.content import ContentTriggers

legacy = import_module("apps.core.migrations.0003_content_triggers")


class Migration(migrations.Migration):
    dependencies = [
        ("core", "0003_content_triggers"),
        ("catalog", "0005_resource_url_key"),
        ("paths", "0003_constraint_messages"),
    ]

    operations = [
        legacy.LegacyContentTriggers(legacy.TABLES, remove=True),
        migrations.DeleteModel(name="ContentVersion"),
        migrations.CreateModel(
            name="ContentVersion",
            fields=[
                ("name", models.CharField(max_length=100, primary_key=True, serialize=False)),
                ("token", models.CharField(max_length=64)),
            ],
        ),
        ContentTriggers(legacy.TABLES, function=True),
    ]
