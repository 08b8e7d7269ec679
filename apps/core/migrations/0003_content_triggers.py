"""The content-version trigger as first installed by a migration (one token for all content), so
that `sqlmigrate core 0003` shows it. Its SQL is frozen here, as it was: core/0004 replaces it with
a token per table (apps.core.content.ContentTriggers) and, backwards, puts this one back. The
tables are listed, not derived."""

from django.db import migrations, router

TABLES = [
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
]


def legacy_triggers_sql(vendor: str, tables, *, function: bool) -> tuple[list[str], list[str]]:
    """The single-token trigger as this migration installed it (frozen: see the module doc)."""
    forwards, backwards = [], []
    if vendor == "postgresql":
        if function:
            forwards.append(
                f"""CREATE OR REPLACE FUNCTION syllabus_content_version_bump() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO core_contentversion (id, token) VALUES (1, gen_random_uuid()::text)
  ON CONFLICT (id) DO UPDATE SET token = EXCLUDED.token;
  RETURN NULL;
END $$"""
            )
        for table in tables:
            forwards.append(
                f'CREATE OR REPLACE TRIGGER syllabus_content_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "{table}" '
                f"FOR EACH STATEMENT EXECUTE FUNCTION syllabus_content_version_bump()"
            )
            backwards.append(f'DROP TRIGGER IF EXISTS syllabus_content_version ON "{table}"')
        if function:
            backwards.append(f"DROP FUNCTION IF EXISTS syllabus_content_version_bump()")
        forwards.append(
            "INSERT INTO core_contentversion (id, token) VALUES (1, gen_random_uuid()::text) "
            "ON CONFLICT (id) DO UPDATE SET token = EXCLUDED.token"
        )
    elif vendor == "sqlite":  # no statement triggers, no CREATE OR REPLACE: drop, then one per row
        # An UPDATE, then an INSERT for a missing row: an outer INSERT OR IGNORE (bulk_create,
        # m2m add) imposes its conflict rule on a trigger's INSERTs.
        bump = (
            "UPDATE core_contentversion SET token = lower(hex(randomblob(16))) WHERE id = 1; "
            "INSERT OR IGNORE INTO core_contentversion (id, token) VALUES (1, lower(hex(randomblob(16))));"
        )
        for table in tables:
            for event in ("INSERT", "UPDATE", "DELETE"):
                name = f"syllabus_content_version_{table}_{event.lower()}"
                forwards.append(f'DROP TRIGGER IF EXISTS "{name}"')
                forwards.append(
                    f'CREATE TRIGGER "{name}" AFTER {event} ON "{table}" BEGIN {bump} END'
                )
                backwards.append(f'DROP TRIGGER IF EXISTS "{name}"')
        forwards.extend(bump.split("; "))
    else:  # no triggers: no token, so nothing is ever served from the memo
        return [], []
    backwards.append("DELETE FROM core_contentversion")
    return forwards, backwards



class LegacyContentTriggers(migrations.RunSQL):
    """Installs the single-token trigger on `tables`; `remove=True` swaps the directions."""

    def __init__(self, tables, *, remove=False):
        self.tables, self.remove = tuple(tables), remove
        super().__init__(sql="", reverse_sql="", elidable=False)

    def database_forwards(self, app_label, schema_editor, from_state, to_state):
        self._legacy_sql(app_label, schema_editor, install=not self.remove)

    def database_backwards(self, app_label, schema_editor, from_state, to_state):
        self._legacy_sql(app_label, schema_editor, install=self.remove)

    def _legacy_sql(self, app_label, schema_editor, *, install):
        if router.allow_migrate(schema_editor.connection.alias, app_label, **self.hints):
            sql = legacy_triggers_sql(schema_editor.connection.vendor, self.tables, function=True)
            self._run_sql(schema_editor, sql[0] if install else sql[1])

    def describe(self):
        action = "Remove" if self.remove else "Install"
        return f"{action} the single content-version trigger on {', '.join(self.tables)}"


class Migration(migrations.Migration):
    dependencies = [
        ("core", "0002_seeded"),
        ("catalog", "0005_resource_url_key"),
        ("paths", "0003_constraint_messages"),
    ]

    operations = [LegacyContentTriggers(TABLES)]
