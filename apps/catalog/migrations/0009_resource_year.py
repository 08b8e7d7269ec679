"""Resource.year: the year a work appeared, when a list dates it (filled by imports, edited by curators)."""

import django.core.validators
from django.db import migrations, models

from apps.core.content import ContentTriggersBothWays


class Migration(migrations.Migration):
    dependencies = [
        ("catalog", "0008_guide_source_note_sync_schedule"),
    ]

    operations = [
        # SQLite adds and drops this unindexed column in place, keeping the table's triggers;
        # were a reversal ever to remake the table, this (run last then) watches it again.
        ContentTriggersBothWays(["catalog_resource"]),
        migrations.AddField(
            model_name="resource",
            name="year",
            field=models.PositiveSmallIntegerField(
                blank=True,
                help_text="The year it appeared (a paper's, a book's edition), when known.",
                null=True,
                validators=[
                    django.core.validators.MinValueValidator(1),
                    django.core.validators.MaxValueValidator(9999),
                ],
            ),
        ),
    ]
