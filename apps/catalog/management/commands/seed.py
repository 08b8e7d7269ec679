"""``manage.py seed``: load the bundled catalog, adding what is missing and changing nothing else.

``make run`` (and docker compose's `migrate` service) call it on every start, so it is idempotent
and quick once seeded. What it loaded once and a curator deleted since stays deleted.
"""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from apps.catalog.importer.fixtures import FIXTURE_PATH, seed_catalog
from apps.catalog.path_fixtures import PATHS_FIXTURE_PATH


class Command(BaseCommand):
    help = (
        "Create the objects of fixtures/catalog.json and fixtures/paths.json that are missing; "
        "never overwrite or delete, and never re-create what was deleted since it was seeded."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--fixture", type=Path, action="append", help="Other fixture file(s), in load order."
        )
        parser.add_argument(
            "--restore",
            action="store_true",
            help="Also re-create what was seeded once and deleted since.",
        )

    def handle(self, *args, fixture=None, restore=False, **options):
        for path in fixture or []:
            if not path.is_file():
                raise CommandError(f"No fixture file at {path}.")
        for path in fixture or [FIXTURE_PATH, PATHS_FIXTURE_PATH]:
            self.stdout.write(f"{path.name}: {seed_catalog(path, restore=restore)}")
