"""``manage.py sync_guide SLUG [--url URL] [--apply]``: bring a guide in step with its source URL (for cron).

Without ``--apply`` it only prints the diff (added, removed, moved, changed entries, and
sections). With it, the same code as the admin's "Sync with source" page applies it in
place (``apps.catalog.importer.sync``): learners' progress and the curators' edits the
source did not change are kept; removed entries' resources stay in the catalog, unlisted.
"""

from django.core.management.base import BaseCommand, CommandError

from apps.catalog.importer import CatalogImportError, plan_import
from apps.catalog.importer.sync import apply_sync, diff_guide, fetch_source, sync_counts
from apps.catalog.models import Guide


class Command(BaseCommand):
    help = "Show (and with --apply, apply) what changed in a guide's source since it was imported."

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument(
            "--url", help="The source to read (default: the guide's remembered source URL)."
        )
        parser.add_argument(
            "--apply", action="store_true", help="Apply the diff (default: only show it)."
        )

    def handle(self, *args, slug, url=None, apply=False, **options):
        guide = Guide.objects.filter(slug=slug).first()
        if guide is None:
            raise CommandError(f"No guide with the slug {slug!r}.")
        url = url or guide.source_url
        if not url:
            raise CommandError(f"The guide {slug!r} has no source URL: give one with --url.")
        try:
            plan = plan_import(
                fetch_source(url),
                guide_slug=slug,
                title=guide.title,
                source_name=guide.source_name,
                source_url=url,
            )
        except CatalogImportError as error:
            raise CommandError(str(error)) from None
        if not plan.entries:
            raise CommandError(
                "Nothing in the source looks like a reading list item: nothing was changed."
            )
        diff = diff_guide(guide, plan)
        self.stdout.write(diff.summary())
        if apply and not diff.is_empty:
            result = apply_sync(plan)
            self.stdout.write(f"Applied: {sync_counts(result)}.")
        elif apply:
            self.stdout.write("Nothing to apply.")
