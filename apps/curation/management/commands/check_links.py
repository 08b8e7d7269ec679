"""Check the URLs of catalog resources and record their health (see apps/curation/linkcheck.py)."""

from django.core.management.base import BaseCommand, CommandError

from apps.catalog.models import LinkStatus
from apps.curation.linkcheck import (
    DEFAULT_RETRIES,
    DEFAULT_TIMEOUT,
    DEFAULT_WORKERS,
    MAX_WORKERS,
    TITLES_ALL,
    TITLES_NONE,
    TITLES_POOR,
    LinkChecker,
    resources_check_links,
    stale_resources,
)


class Command(BaseCommand):
    help = "Check resource URLs (HEAD, then GET) and record ok / redirected / broken / error on each resource."

    def add_arguments(self, parser):
        parser.add_argument(
            "--only-stale",
            type=int,
            metavar="DAYS",
            help="Only resources never checked or last checked DAYS or more days ago.",
        )
        parser.add_argument(
            "--workers",
            type=int,
            default=DEFAULT_WORKERS,
            help=f"Concurrent requests (1-{MAX_WORKERS}).",
        )
        parser.add_argument(
            "--timeout", type=float, default=DEFAULT_TIMEOUT, help="Seconds per request."
        )
        parser.add_argument(
            "--retries", type=int, default=DEFAULT_RETRIES, help="Retries after a timeout or a 5xx."
        )
        parser.add_argument(
            "--titles",
            choices=[TITLES_POOR, TITLES_ALL, TITLES_NONE],
            default=TITLES_POOR,
            help="Whose page title to read (one more GET of an HTML page's head) and suggest as "
            "the resource's title: those whose title looks poor (a URL, a host, the importer's "
            "guess), all, or none.",
        )

    def handle(self, *args, only_stale, workers, timeout, retries, titles, **options):
        if only_stale is not None and only_stale < 0:
            raise CommandError("--only-stale must be 0 or more days.")
        if not 1 <= workers <= MAX_WORKERS:
            raise CommandError(f"--workers must be between 1 and {MAX_WORKERS}.")
        if timeout <= 0 or retries < 0:
            raise CommandError("--timeout must be positive and --retries 0 or more.")
        resources = list(stale_resources(days=only_stale).order_by("pk"))
        self.stdout.write(f"Checking {len(resources)} resource URLs with {workers} workers…")

        def progress(done, total, url, result):
            self.stdout.write(f"  [{done}/{total}] {result.status} {url}")
            self.stdout.flush()

        counts = resources_check_links(
            resources=resources,
            checker=LinkChecker(timeout=timeout, retries=retries),
            workers=workers,
            progress=progress,
            titles=titles,
        )
        for status in LinkStatus:
            if counts[status]:
                self.stdout.write(f"  {status.label}: {counts[status]}")
        for resource in resources:
            if resource.link_status in (LinkStatus.BROKEN, LinkStatus.ERROR):
                self.stdout.write(f"  ✗ {resource.url} — {resource.link_error}")
        suggested = sum(bool(resource.suggested_title) for resource in resources)
        if suggested:
            self.stdout.write(
                f"  {suggested} title suggestions waiting in the admin (Resources, "
                "filter “Title suggestion”)."
            )
        style = (
            self.style.WARNING
            if counts[LinkStatus.BROKEN] or counts[LinkStatus.ERROR]
            else self.style.SUCCESS
        )
        self.stdout.write(style(f"Checked {sum(counts.values())} URLs."))
