"""The content-version trigger (apps.core.content), installed by a migration so that `sqlmigrate
core 0003` shows it. Idempotent: databases migrated before it already have the trigger, which a
post_migrate hook used to install. The tables are listed, not derived: a later migration that adds
a content table (or rebuilds one on SQLite) ends with its own `ContentTriggers([...])`."""

from django.db import migrations

from apps.core.content import ContentTriggers


class Migration(migrations.Migration):
    dependencies = [
        ("core", "0002_seeded"),
        ("catalog", "0005_resource_url_key"),
        ("paths", "0003_constraint_messages"),
    ]

    operations = [
        ContentTriggers(
            [
                "catalog_entry",
                "catalog_guide",
                "catalog_resource",
                "catalog_resource_topics",
                "catalog_resourcealias",
                "catalog_resourcelink",
                "catalog_section",
                "catalog_topic",
                "paths_learningpath",
                "paths_pathstep",
                "paths_stepresource",
            ],
            function=True,
        ),
    ]
