"""Check the URLs of catalog resources and record their health (see apps/curation/linkcheck.py).

It starts a link-check run of the whole catalog (apps/curation/linkruns.py), the same run the
admin's "Check all links…" starts, and executes it here, printing each URL as it is checked;
with ``--enqueue`` it leaves the run to a worker (the job ``apps.curation.tasks.check_links``).
Either way the run and its results are in the admin (Curation › Link checks)."""

from collections import Counter

from django.core.management.base import BaseCommand, CommandError
from django.urls import reverse

from apps.catalog.models import LinkStatus
from apps.curation import linkruns
from apps.curation.linkcheck import (
    DEFAULT_RETRIES,
    DEFAULT_TIMEOUT,
    DEFAULT_WORKERS,
    MAX_WORKERS,
    TITLES_ALL,
    TITLES_NONE,
    TITLES_POOR,
    LinkChecker,
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

        parser.add_argument(
            "--enqueue",
            action="store_true",
            help="Only start the run: a worker checks the links (follow it in the admin).",
        )

    def handle(self, *args, only_stale, workers, timeout, retries, titles, enqueue, **options):
        if only_stale is not None and only_stale < 0:
            raise CommandError("--only-stale must be 0 or more days.")
        if not 1 <= workers <= MAX_WORKERS:
            raise CommandError(f"--workers must be between 1 and {MAX_WORKERS}.")
        if timeout <= 0 or retries < 0:
            raise CommandError("--timeout must be positive and --retries 0 or more.")
        try:
            run = linkruns.linkcheck_start(
                titles=titles, only_stale_days=only_stale, enqueue=enqueue
            )
        except (linkruns.LinkCheckRunning, linkruns.NothingToCheck) as error:
            raise CommandError(str(error)) from None
        page = reverse("admin:curation_linkcheckrun_change", args=[run.pk])
        if enqueue:
            self.stdout.write(
                f"Link check #{run.pk} queued: {run.total} URLs. Follow it at {page}."
            )
            return
        self.stdout.write(
            f"Link check #{run.pk}: checking {run.total} resource URLs with {workers} workers…"
        )

        def progress(done, total, url, result):
            self.stdout.write(f"  [{done}/{total}] {result.status} {url}")
            self.stdout.flush()

        try:
            linkruns.linkcheck_run_execute(
                run_id=run.pk,
                checker=LinkChecker(timeout=timeout, retries=retries, budget=linkruns.JOB_BUDGET),
                workers=workers,
                progress=progress,
            )
        except RuntimeError as error:
            raise CommandError(str(error)) from None
        run = linkruns.runs_with_counts().get(pk=run.pk)
        counts = Counter(run.results.values_list("status", flat=True))
        for status in LinkStatus:
            if counts[status]:
                self.stdout.write(f"  {status.label}: {counts[status]}")
        for result in run.results.filter(status__in=linkruns.ATTENTION).order_by("url"):
            self.stdout.write(f"  ✗ {result.url} — {result.error}")
        if run.suggested:
            self.stdout.write(
                f"  {run.suggested} title suggestions waiting in the admin ({page}, or Resources, "
                "filter “Title suggestion”)."
            )
        style = self.style.WARNING if run.broken else self.style.SUCCESS
        self.stdout.write(style(f"Checked {run.checked} URLs."))
