"""Entry.added_at: when an entry was first published, what "What's new" and the feeds date by.

Entries published before it existed take their creation date (the best record there is: an
entry was created published unless a curator held it back); drafts stay empty until published.
"""

from django.db import migrations, models

from apps.core.content import ContentTriggersBothWays


class Migration(migrations.Migration):
    dependencies = [
        ("catalog", "0006_resource_search_index"),
        ("core", "0004_content_tokens_per_table"),
    ]

    operations = [
        # SQLite adds the column in place, keeping the table's triggers; reversed, it remakes
        # the table to drop it, and this (run last then) watches the table again.
        ContentTriggersBothWays(["catalog_entry"]),
        migrations.AddField(
            model_name="entry",
            name="added_at",
            field=models.DateTimeField(
                blank=True,
                db_index=True,
                editable=False,
                help_text='When the entry was first published (set on save): what "What\'s new" and the feeds date it by. Empty for a draft never published.',
                null=True,
            ),
        ),
        migrations.RunSQL(
            "UPDATE catalog_entry SET added_at = created_at WHERE is_published",
            reverse_sql=migrations.RunSQL.noop,
        ),
    ]
