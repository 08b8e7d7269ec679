"""``manage.py seed``: load the bundled catalog, adding what is missing and changing nothing else.

``make run`` calls it on every start, so it is idempotent and quick once seeded.
"""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from apps.catalog.importer.fixtures import seed_catalog


class Command(BaseCommand):
    help = "Create the catalog objects of fixtures/catalog.json that are missing; never overwrite or delete."

    def add_arguments(self, parser):
        parser.add_argument("--fixture", type=Path, help="Another fixture file (default: fixtures/catalog.json).")

    def handle(self, *args, fixture=None, **options):
        if fixture is not None and not fixture.is_file():
            raise CommandError(f"No fixture file at {fixture}.")
        self.stdout.write(str(seed_catalog(fixture)))
