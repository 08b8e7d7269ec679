"""Data migrations of the catalog, run on rows made before them."""

from datetime import timedelta

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from tests.core.test_content import watched_tables

pytestmark = pytest.mark.django_db(transaction=True)


def migrate(*targets):
    executor = MigrationExecutor(connection)
    executor.migrate(list(targets))
    executor.loader.build_graph()
    return executor.loader.project_state(list(targets)).apps


def test_entry_added_at_takes_a_published_entrys_creation_date_and_leaves_drafts_empty():
    old = migrate(("catalog", "0006_resource_search_index"))
    Guide, Section = old.get_model("catalog", "Guide"), old.get_model("catalog", "Section")
    Resource, Entry = old.get_model("catalog", "Resource"), old.get_model("catalog", "Entry")
    guide = Guide.objects.create(slug="g", title="G")
    section = Section.objects.create(guide=guide, title="S", position=1)
    created = timezone.now() - timedelta(days=200)
    for position, published in enumerate([True, False], start=1):
        resource = Resource.objects.create(
            title=f"R{position}", url=f"https://example.com/{position}"
        )
        entry = Entry.objects.create(
            section=section, resource=resource, position=position, is_published=published
        )
        Entry.objects.filter(pk=entry.pk).update(created_at=created)
    try:
        new = migrate(("catalog", "0007_entry_added_at"))
        dates = dict(new.get_model("catalog", "Entry").objects.values_list("position", "added_at"))
        assert dates == {1: created, 2: None}
    finally:
        migrate(*MigrationExecutor(connection).loader.graph.leaf_nodes())
    # Reversed (SQLite remade the table) and applied again, the table is still watched.
    assert "catalog_entry" in watched_tables()


def test_the_added_at_migrations_reversed_leave_their_tables_watched():
    try:
        migrate(("catalog", "0006_resource_search_index"), ("paths", "0003_constraint_messages"))
        assert {"catalog_entry", "paths_stepresource"} <= watched_tables()
    finally:
        migrate(*MigrationExecutor(connection).loader.graph.leaf_nodes())
    assert {"catalog_entry", "paths_stepresource"} <= watched_tables()


def test_the_guide_source_migration_reversed_and_applied_again_leaves_the_guides_watched():
    try:
        migrate(("catalog", "0007_entry_added_at"))
        assert "catalog_guide" in watched_tables()
    finally:
        migrate(*MigrationExecutor(connection).loader.graph.leaf_nodes())
    assert "catalog_guide" in watched_tables()


def test_the_year_migration_reversed_leaves_the_resource_table_watched():
    try:
        migrate(("catalog", "0008_guide_source_note_sync_schedule"))
        assert "catalog_resource" in watched_tables()
        old = migrate(("catalog", "0008_guide_source_note_sync_schedule"))
        assert "year" not in {f.name for f in old.get_model("catalog", "Resource")._meta.fields}
    finally:
        migrate(*MigrationExecutor(connection).loader.graph.leaf_nodes())
    assert "catalog_resource" in watched_tables()
