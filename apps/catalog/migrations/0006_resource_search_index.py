"""Indexes for the catalog's search on PostgreSQL (apps.catalog.selectors.search_resources and
apps.catalog.search's "did you mean"), so a query never seen before reads an index, not every
resource. Nothing happens on SQLite: its search scans (a small catalog, see the README).

- ``catalog_resource.search_document``: the weighted full-text vector (title A, author B,
  description C, English config), a stored generated column with a GIN index. PostgreSQL
  accepts ``to_tsvector`` with an explicit regconfig as immutable, so the database keeps it
  right on every write (admin, bulk ``update()``, imports, raw SQL) without a trigger or a
  ``save()`` hook. Not a Django ``GeneratedField``: its expression exists only on PostgreSQL (a
  field needs one on SQLite too), and a field would be read with every resource the site loads
  (pages, memos) while only search reads it.
- ``catalog_resource.search_squashed``: the text search matches (title, author, description,
  the URL's host, one per line) without the characters a joined word may be split by
  (``[-_/.: ]``, apps.catalog.search ``_GAP``), with a trigram GIN index: a word found in the text
  in any form, joined or split ("kvcache" in "KV cache"), is a substring of it, so an indexed
  ILIKE picks the few candidates the exact patterns then check.
- ``catalog_resource.search_words``: the title's and author's words as "did you mean" splits
  them, with a GIN index; ``catalog_searchword``: every such word any resource has had, added by
  a trigger, with a trigram GIN index. A suggestion is a word found by similarity in that index
  that a visible resource's words still hold (a renamed or hidden resource's words stay in the
  table and are never suggested), instead of splitting every title for every query.

The GIN indexes are built without a pending list (``fastupdate = off``): the catalog is written
rarely and searched all day, and a pending list is read by every search until a vacuum.

Generated columns depend on title, author, description and url: PostgreSQL refuses to alter
those columns' type while they exist, so a migration that does drops ``search_document``,
``search_squashed`` and ``search_words`` first and re-adds them as here.
"""

from django.db import migrations

SEARCH_COLUMNS_SQL = [
    """ALTER TABLE catalog_resource ADD COLUMN search_document tsvector GENERATED ALWAYS AS (
    setweight(to_tsvector('english'::regconfig, title), 'A')
    || setweight(to_tsvector('english'::regconfig, author), 'B')
    || setweight(to_tsvector('english'::regconfig, description), 'C')
) STORED""",
    "CREATE INDEX catalog_resource_search_document ON catalog_resource USING gin (search_document) WITH (fastupdate = off)",
    r"""ALTER TABLE catalog_resource ADD COLUMN search_squashed text GENERATED ALWAYS AS (
    regexp_replace(
        title || E'\n' || author || E'\n' || description || E'\n'
        || COALESCE(substring(url from '://([^/?#]+)'), ''),
        '[-_/.: ]', '', 'g'
    )
) STORED""",
    "CREATE INDEX catalog_resource_search_squashed ON catalog_resource "
    "USING gin (search_squashed gin_trgm_ops) WITH (fastupdate = off)",
]
SEARCH_COLUMNS_DROP_SQL = [
    "ALTER TABLE catalog_resource DROP COLUMN IF EXISTS search_document",
    "ALTER TABLE catalog_resource DROP COLUMN IF EXISTS search_squashed",
]

SEARCH_WORDS_SQL = [
    # A resource's words as "did you mean" reads them: its title and author lowercased, split at
    # anything but letters and digits (the array's empty or one-letter words are never looked up).
    """ALTER TABLE catalog_resource ADD COLUMN search_words text[] GENERATED ALWAYS AS (
    regexp_split_to_array(lower(title || ' ' || author), '[^[:alnum:]]+')
) STORED""",
    "CREATE INDEX catalog_resource_search_words ON catalog_resource USING gin (search_words) WITH (fastupdate = off)",
    "CREATE TABLE catalog_searchword (word text PRIMARY KEY)",
    "CREATE INDEX catalog_searchword_word_trgm ON catalog_searchword USING gin (word gin_trgm_ops) WITH (fastupdate = off)",
    """CREATE FUNCTION catalog_searchword_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO catalog_searchword (word)
  SELECT word FROM unnest(NEW.search_words) AS word WHERE length(word) > 1
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$""",
    "CREATE TRIGGER catalog_searchword_add AFTER INSERT OR UPDATE OF title, author "
    "ON catalog_resource FOR EACH ROW EXECUTE FUNCTION catalog_searchword_add()",
    "INSERT INTO catalog_searchword (word) SELECT DISTINCT word "
    "FROM catalog_resource, unnest(search_words) AS word WHERE length(word) > 1",
]
SEARCH_WORDS_DROP_SQL = [
    "DROP TRIGGER IF EXISTS catalog_searchword_add ON catalog_resource",
    "DROP FUNCTION IF EXISTS catalog_searchword_add()",
    "DROP TABLE IF EXISTS catalog_searchword",
    "ALTER TABLE catalog_resource DROP COLUMN IF EXISTS search_words",
]


class PostgresSQL(migrations.RunSQL):
    """RunSQL on PostgreSQL only (shown by `sqlmigrate` there); nothing elsewhere."""

    def database_forwards(self, app_label, schema_editor, from_state, to_state):
        if schema_editor.connection.vendor == "postgresql":
            super().database_forwards(app_label, schema_editor, from_state, to_state)

    def database_backwards(self, app_label, schema_editor, from_state, to_state):
        if schema_editor.connection.vendor == "postgresql":
            super().database_backwards(app_label, schema_editor, from_state, to_state)


class Migration(migrations.Migration):
    dependencies = [("catalog", "0005_resource_url_key")]

    operations = [
        PostgresSQL(SEARCH_COLUMNS_SQL, SEARCH_COLUMNS_DROP_SQL),
        PostgresSQL(SEARCH_WORDS_SQL, SEARCH_WORDS_DROP_SQL),
    ]
