"""``manage.py import_guide PATH --slug SLUG [--title T] [--dry-run] [--replace]``."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from apps.catalog.importer import CatalogImportError, apply_import, plan_import


class Command(BaseCommand):
    help = (
        "Import a markdown reading list as a guide (resources already in the catalog are reused)."
    )

    def add_arguments(self, parser):
        parser.add_argument("path", type=Path)
        parser.add_argument("--slug", required=True)
        parser.add_argument("--title", default="")
        parser.add_argument(
            "--dry-run", action="store_true", help="Only print what would be imported."
        )
        parser.add_argument(
            "--replace", action="store_true", help="Rebuild the sections of an existing guide."
        )

    def handle(self, *args, path, slug, title, dry_run, replace, **options):
        try:
            data = path.read_bytes()
        except OSError as error:
            raise CommandError(f"Cannot read {path}: {error.strerror}") from None
        try:
            plan = plan_import(data, guide_slug=slug, title=title, source_name=path.name)
            self.stdout.write(plan.summary())
            if dry_run:
                self.stdout.write("Dry run: nothing written.")
                return
            self.stdout.write(str(apply_import(plan, replace=replace)))
        except CatalogImportError as error:
            raise CommandError(str(error)) from None
