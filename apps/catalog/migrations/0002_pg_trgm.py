"""pg_trgm for search's "did you mean" (apps.catalog.search). A trusted extension since
PostgreSQL 13, so the database's owner may create it; nothing happens on other databases."""

from django.contrib.postgres.operations import TrigramExtension
from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("catalog", "0001_initial")]

    operations = [TrigramExtension()]
