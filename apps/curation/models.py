"""Link-check runs and pending syncs: the curators' background work and what it found.

Link-check runs: a background check of many resources' URLs and what it found.

A run is started from the admin (selected resources or the whole catalog), by
``manage.py check_links`` or by the schedule, and executed by the job
``apps.curation.tasks.check_links`` (apps/curation/linkruns.py). Its progress and results are
kept here, not in the task backend's tables, so a curator can follow it whatever the backend.

Pending syncs: ``PendingSync`` is one fetch of a guide's source URL (asked for in the admin, or
made by the schedule, ``Guide.sync_schedule``) with what it found: the text, its hash and the
diff against the guide (``apps.catalog.importer.sync.diff_guide``) as it was then. A curator
reviews it and applies it (the sync's own apply path, against the guide as it is then) or
dismisses it; nothing is ever applied unseen. At most one sync per guide is pending: a newer
fetch that finds another change supersedes it. ``SourceStatus`` is the guide's last fetch
(when, the text's hash, how it went): what the schedule reads to know which guides are due and
whether a source changed since it was last read (apps/curation/syncs.py).

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


class SyncState(models.TextChoices):
    FETCHING = "fetching", "Fetching"
    PENDING = "pending", "Waiting for review"
    UNCHANGED = "unchanged", "Nothing to apply"
    APPLIED = "applied", "Applied"
    DISMISSED = "dismissed", "Dismissed"
    SUPERSEDED = "superseded", "Superseded by a newer fetch"
    FAILED = "failed", "Fetch failed"


class PendingSync(models.Model):
    guide = models.ForeignKey(
        "catalog.Guide", on_delete=models.CASCADE, related_name="pending_syncs"
    )
    source_url = models.URLField(max_length=500)
    state = models.CharField(
        max_length=10, choices=SyncState, default=SyncState.FETCHING, db_index=True
    )
    text = models.TextField(blank=True, help_text="The source as fetched.")
    text_hash = models.CharField(max_length=64, blank=True, help_text="SHA-256 of the text.")
    diff = models.JSONField(
        default=dict, blank=True, help_text="What applying would have done when it was fetched."
    )
    summary = models.TextField(blank=True, help_text="The diff in words.")
    error = models.CharField(max_length=500, blank=True)
    scheduled = models.BooleanField(
        default=False, help_text="Fetched by the schedule, not asked for by a curator."
    )
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    fetched_at = models.DateTimeField(null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = "pending sync"
        constraints = [
            models.UniqueConstraint(
                fields=["guide"],
                condition=Q(state="pending"),
                name="pendingsync_one_pending_per_guide",
                violation_error_message="This guide already has a sync waiting for review.",
            ),
        ]

    def __str__(self):
        return f"{self.guide} from {self.source_url} ({self.get_state_display().lower()})"

    @property
    def headline(self) -> str:
        """The diff's first line ("2 added, 1 removed, …"), or why there is none."""
        if self.state == SyncState.FAILED:
            return self.error
        return self.summary.split("\n", 1)[0]


class FetchOutcome(models.TextChoices):
    UNCHANGED = "unchanged", "Unchanged"
    CHANGED = "changed", "Changed"
    FAILED = "failed", "Failed"


class SourceStatus(models.Model):
    guide = models.OneToOneField(
        "catalog.Guide", on_delete=models.CASCADE, related_name="source_status"
    )
    queued_at = models.DateTimeField(
        null=True, blank=True, help_text="When the schedule last asked for a fetch."
    )
    fetched_at = models.DateTimeField(null=True, blank=True)
    text_hash = models.CharField(max_length=64, blank=True)
    outcome = models.CharField(max_length=10, choices=FetchOutcome, blank=True)
    error = models.CharField(max_length=500, blank=True)

    class Meta:
        verbose_name = "source fetch status"
        verbose_name_plural = "source fetch statuses"

    def __str__(self):
        return f"{self.guide}: {self.get_outcome_display() or 'never fetched'}"
