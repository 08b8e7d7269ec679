from django.db import models


class ContentVersion(models.Model):
    """One row per content table (and per column with a token of its own, `table.column`) whose
    token changes, inside the writing transaction, whenever that table changes. Database triggers
    keep them (see apps.core.content), so bulk updates, raw SQL and imports move them as surely as
    the admin does."""

    name = models.CharField(max_length=100, primary_key=True)
    token = models.CharField(max_length=64)

    def __str__(self):
        return f"{self.name} {self.token}"


class Seeded(models.Model):
    """An object `manage.py seed` has loaded from a bundled fixture (or found already there), by
    model and uuid: the seed never creates it again, so what a curator deletes (or merges away)
    stays deleted however often the seed runs."""

    model = models.CharField(max_length=100)  # app_label.model_name, as the fixture names it
    uuid = models.UUIDField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["model", "uuid"], name="seeded_once_per_object")
        ]

    def __str__(self):
        return f"{self.model} {self.uuid}"


class ScheduledRun(models.Model):
    """A due time of a scheduled job (config/schedule.py), claimed by the scheduler that enqueued
    it: the unique pair is what makes each due time enqueued once however many schedulers run
    (apps.core.scheduler)."""

    task_path = models.CharField(max_length=200)
    due_at = models.DateTimeField()
    enqueued_at = models.DateTimeField(auto_now_add=True)
    result_id = models.CharField(max_length=64, blank=True)

    class Meta:
        ordering = ["-due_at"]
        constraints = [
            models.UniqueConstraint(fields=["task_path", "due_at"], name="scheduled_run_once")
        ]

    def __str__(self):
        return f"{self.task_path} due {self.due_at:%Y-%m-%d %H:%M}"


class Heartbeat(models.Model):
    """When the scheduled `heartbeat` job last ran on a worker (one row): proof that the
    scheduler enqueues and a worker runs what it enqueued (`manage.py worker --health`)."""

    ran_at = models.DateTimeField()

    def __str__(self):
        return f"heartbeat {self.ran_at:%Y-%m-%d %H:%M:%S}"


class JobFailure(models.Model):
    """A job run that failed, and what was done about it (apps.core.jobs): retried as another
    run after a backoff, or given up. Written by any backend's worker, so failures are listed in
    the admin whatever the backend."""

    result_id = models.CharField(max_length=64, unique=True)
    task_path = models.CharField(max_length=200)
    attempt = models.PositiveIntegerField(help_text="Which run of the job this was (1: the first).")
    error = models.TextField(help_text="The exception, as the job raised it.")
    failed_at = models.DateTimeField(db_index=True)
    retry_id = models.CharField(
        max_length=64, blank=True, db_index=True, help_text="The run that retries it; empty: none."
    )
    retry_at = models.DateTimeField(null=True, blank=True)
    gave_up = models.CharField(
        max_length=200, blank=True, help_text="Why it is not retried (empty while it is)."
    )

    class Meta:
        ordering = ["-failed_at"]

    def __str__(self):
        return f"{self.task_path} run {self.attempt} failed"
