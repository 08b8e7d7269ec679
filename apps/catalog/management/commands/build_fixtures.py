"""``manage.py build_fixtures``: regenerate fixtures/catalog.json and fixtures/paths.json from fixtures/sources/*.md."""

from django.core.management.base import BaseCommand, CommandError

from apps.catalog.importer import CatalogImportError
from apps.catalog.importer.fixtures import write_catalog_fixture
from apps.catalog.importer.planner import plan_catalog
from apps.catalog.path_fixtures import write_paths_fixture


class Command(BaseCommand):
    help = "Rebuild the catalog fixture from the bundled guide sources (deterministic: same input, same bytes)."

    def add_arguments(self, parser):
        parser.add_argument(
            "--output", metavar="DIR", help="Write into DIR instead of fixtures/ (to compare)."
        )

    def handle(self, *args, output=None, **options):
        try:
            plan = plan_catalog()
        except CatalogImportError as error:
            raise CommandError(f"Cannot build the fixtures: {error}") from None
        path = write_catalog_fixture(output, plan=plan)
        paths_path = write_paths_fixture(plan, output)
        links = sum(len(r.links) for r in plan.resources)
        self.stdout.write(
            f"Wrote {path}: {len(plan.guides)} guides, {len(plan.sections)} sections, {len(plan.entries)} entries, "
            f"{len(plan.resources)} resources, {links} links.\nWrote {paths_path}: {len(plan.paths)} reading paths."
        )
