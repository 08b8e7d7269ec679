"""StepResource.added_at: when a resource joined a path's step, what "What's new" dates by.

Existing rows stay empty ("added before this was recorded", which What's new passes over): no
date of theirs is known. The column is added without a default (SQLite adds it in place, so the
table keeps its content-version triggers); new rows get theirs from the model's default.
"""

import django.utils.timezone
from django.db import migrations, models

from apps.core.content import ContentTriggersBothWays

HELP = 'When the resource joined the step: what "What\'s new" dates it by. Empty: added before this was recorded.'


class Migration(migrations.Migration):
    dependencies = [
        ("paths", "0003_constraint_messages"),
        ("core", "0004_content_tokens_per_table"),
    ]

    operations = [
        # Reversed, SQLite remakes the table to drop the column: this, run last then, watches
        # it again.
        ContentTriggersBothWays(["paths_stepresource"]),
        migrations.SeparateDatabaseAndState(
            database_operations=[
                migrations.AddField(
                    model_name="stepresource",
                    name="added_at",
                    field=models.DateTimeField(
                        blank=True, editable=False, help_text=HELP, null=True
                    ),
                ),
            ],
            state_operations=[
                migrations.AddField(
                    model_name="stepresource",
                    name="added_at",
                    field=models.DateTimeField(
                        blank=True,
                        default=django.utils.timezone.now,
                        editable=False,
                        help_text=HELP,
                        null=True,
                    ),
                ),
            ],
        ),
    ]
