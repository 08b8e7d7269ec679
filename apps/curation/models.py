"""Link-check runs: a background check of many resources' URLs and what it found.

A run is started from the admin (selected resources or the whole catalog), by
``manage.py check_links`` or by the schedule, and executed by the job
``apps.curation.tasks.check_links`` (apps/curation/linkruns.py). Its progress and results are
kept here, not in the task backend's tables, so a curator can follow it whatever the backend.

(This module also exists because Django sends post_migrate only to apps that have a models
module, and this app's post_migrate handler (see apps.py) keeps the Curators group in sync after
every migrate and every test-database flush.)
"""

from datetime import timedelta

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from apps.catalog.models import LinkStatus, Resource

CATALOG_SCOPE = "catalog"
# A run whose job has written nothing for this long has lost its worker (killed, restarted,
# never started): it is shown as stale and no longer stops a new run of its scope. A job writes
# after every URL, and one URL takes at most the checker's budget (linkruns.JOB_CHECKER).
STALE_AFTER = timedelta(minutes=10)


class RunState(models.TextChoices):
    QUEUED = "queued", "Queued"
    RUNNING = "running", "Running"
    DONE = "done", "Done"
    FAILED = "failed", "Failed"
    INTERRUPTED = "interrupted", "Interrupted"


ACTIVE_STATES = (RunState.QUEUED, RunState.RUNNING)


class LinkCheckRun(models.Model):
    """One link check: which resources (fixed when it starts), how far it is, how it ended."""

    scope = models.CharField(
        max_length=80,
        help_text='"catalog" for the whole catalog, else "selection:" and a digest of the resource ids.',
    )
    resource_ids = models.JSONField(
        default=list, help_text="The resources to check (those with a URL when it started)."
    )
    total = models.PositiveIntegerField(default=0)
    titles = models.CharField(max_length=10, default="poor")
    only_stale_days = models.PositiveIntegerField(null=True, blank=True)
    state = models.CharField(max_length=12, choices=RunState, default=RunState.QUEUED)
    error = models.TextField(blank=True)
    started_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    task_id = models.CharField(max_length=64, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    started_at = models.DateTimeField(null=True, blank=True)
    heartbeat_at = models.DateTimeField(default=timezone.now)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = "link check"
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["scope"],
                condition=Q(state__in=ACTIVE_STATES),
                name="linkcheckrun_one_active_per_scope",
                violation_error_message="A link check of these resources is already running.",
            )
        ]

    def __str__(self):
        return f"Link check #{self.pk} ({self.scope_label})"

    @property
    def scope_label(self) -> str:
        if self.scope == CATALOG_SCOPE:
            return "whole catalog"
        return f"{self.total} selected resource{'' if self.total == 1 else 's'}"

    @property
    def is_active(self) -> bool:
        return self.state in ACTIVE_STATES

    @property
    def is_stale(self) -> bool:
        """Queued or running, but nothing written for ``STALE_AFTER``: its worker is gone."""
        return self.is_active and self.heartbeat_at < timezone.now() - STALE_AFTER

    @property
    def state_label(self) -> str:
        if self.is_stale:
            return "Stale" if self.state == RunState.RUNNING else "Waiting for a worker"
        return self.get_state_display()


class LinkCheckResult(models.Model):
    """What a run found at one resource's URL (the resource's link fields hold the latest)."""

    run = models.ForeignKey(LinkCheckRun, on_delete=models.CASCADE, related_name="results")
    resource = models.ForeignKey(Resource, on_delete=models.CASCADE, related_name="+")
    url = models.URLField(max_length=2000)
    status = models.CharField(max_length=10, choices=LinkStatus)
    status_code = models.PositiveSmallIntegerField(null=True, blank=True)
    final_url = models.URLField(max_length=2000, blank=True)
    error = models.CharField(max_length=300, blank=True)
    title_found = models.BooleanField(
        default=False, help_text="The page's title was asked for and read (see suggested_title)."
    )
    suggested_title = models.CharField(
        max_length=300, blank=True, help_text='"" when the page says what the title says.'
    )
    checked_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["run", "resource"], name="linkcheckresult_once_per_run")
        ]
        indexes = [models.Index(fields=["run", "status"], name="linkcheckresult_run_status")]

    def __str__(self):
        return f"{self.url}: {self.get_status_display()}"
