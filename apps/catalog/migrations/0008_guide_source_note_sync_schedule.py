"""Guides that keep up with their sources: a guide's schedule (``sync_schedule``) and a note for
learners on where it comes from (``source_note``).

The bundled guides already in a database get what the fixtures now carry
(apps.catalog.importer.sources): their public source URL and schedule, or the note saying their
source is unknown, and their link-less chapters the sentence saying where their text is. Only
empty fields are filled, so a curator's own values stay. SQLite remakes the guide table to add
the constraint, which drops its triggers: ``ContentTriggers`` puts them back (and, reversed,
``ContentTriggersBothWays`` once the columns are dropped).
"""

from django.db import migrations, models

from apps.catalog.importer.fixtures import chapter_description
from apps.catalog.importer.sources import GUIDE_SOURCES
from apps.core.content import ContentTriggers, ContentTriggersBothWays


def bundled_sources(apps, schema_editor):
    alias = schema_editor.connection.alias
    Guide = apps.get_model("catalog", "Guide")
    Resource = apps.get_model("catalog", "Resource")
    for source in GUIDE_SOURCES:
        guide = Guide.objects.using(alias).filter(slug=source.slug).first()
        if guide is None:
            continue
        if source.source_url and not guide.source_url:
            guide.source_url = source.source_url
            guide.sync_schedule = source.sync_schedule
        if source.source_note and not guide.source_note:
            guide.source_note = source.source_note
        guide.save(update_fields=["source_url", "sync_schedule", "source_note"])
        if source.chapter_note:
            chapters = Resource.objects.using(alias).filter(
                kind="chapter", url=None, entries__section__guide=guide
            )
            for resource in chapters.distinct():
                resource.description = chapter_description(resource.description, source.chapter_note)
                resource.save(update_fields=["description"])


class Migration(migrations.Migration):

    dependencies = [
        ('catalog', '0007_entry_added_at'),
        ('core', '0004_content_tokens_per_table'),
    ]

    operations = [
        # Reversed, SQLite remakes the table to drop the columns: this (run last then) watches it again.
        ContentTriggersBothWays(["catalog_guide"]),
        migrations.AddField(
            model_name='guide',
            name='source_note',
            field=models.TextField(blank=True, help_text="Where the guide comes from, for learners (markdown), when it has no public source URL or the source needs a word; shown on the guide's page."),
        ),
        migrations.AddField(
            model_name='guide',
            name='sync_schedule',
            field=models.CharField(choices=[('off', 'Off'), ('daily', 'Daily'), ('weekly', 'Weekly')], default='off', help_text='Fetch the source URL on this schedule; a change waits as a pending sync for a curator to review and apply.', max_length=6, verbose_name='re-fetch the source'),
        ),
        migrations.AddConstraint(
            model_name='guide',
            constraint=models.CheckConstraint(condition=models.Q(('sync_schedule', 'off'), models.Q(('source_url', ''), _negated=True), _connector='OR'), name='guide_schedule_needs_source_url', violation_error_code='schedule_without_source', violation_error_message='Only a guide with a source URL can be re-fetched on a schedule.'),
        ),
        migrations.RunPython(bundled_sources, migrations.RunPython.noop, elidable=True),
        ContentTriggers(["catalog_guide"]),
    ]
