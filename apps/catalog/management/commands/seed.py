"""``manage.py seed``: load the bundled catalog, adding what is missing and changing nothing else.

``make run`` calls it on every start, so it is idempotent and quick once seeded.
"""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from apps.catalog.importer.fixtures import FIXTURE_PATH, seed_catalog
from apps.paths.fixtures import PATHS_FIXTURE_PATH


class Command(BaseCommand):
    help = (
        "Create the objects of fixtures/catalog.json and fixtures/paths.json that are missing; "
        "never overwrite or delete."
    )

    def add_arguments(self, parser):
        parser.add_argument("--fixture", type=Path, action="append", help="Other fixture file(s), in load order.")

    def handle(self, *args, fixture=None, **options):
        for path in fixture or []:
            if not path.is_file():
                raise CommandError(f"No fixture file at {path}.")
        for path in fixture or [FIXTURE_PATH, PATHS_FIXTURE_PATH]:
            self.stdout.write(f"{path.name}: {seed_catalog(path)}")
