"""What each learner has done: one Progress row per (user, resource), plus an Activity log.

Absence of a Progress row means "not started". Progress of a section, guide, path or
topic is always computed from these rows (see selectors.py), never stored twice; so are the
heatmap and the streaks (the days of the rows' start and completion dates).
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from apps.catalog.models import Kind, Resource


class Status(models.TextChoices):
    NOT_STARTED = "not_started", _("Not started")
    IN_PROGRESS = "in_progress", _("In progress")
    DONE = "done", _("Done")
    SKIPPED = "skipped", _("Skipped")

    @classmethod
    def shown(cls, status) -> str:
        """``status`` as pages, ticks and a learner's {resource_id: status} spell it: "" for not
        started (no row, None, or a NOT_STARTED row kept only for its note), the Status otherwise.
        The one place the database's NOT_STARTED and the pages' "" meet."""
        return "" if status is None or status == cls.NOT_STARTED else status


# Finished: done or skipped. What "next up" and "continue" pass over; the one definition.
FINISHED = frozenset({Status.DONE, Status.SKIPPED})


class Progress(models.Model):
    # Indexed by the unique constraint, which leads with it.
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="progress", db_index=False
    )
    resource = models.ForeignKey(Resource, on_delete=models.CASCADE, related_name="progress")
    # NOT_STARTED rows exist only to hold a private note on something not begun yet.
    status = models.CharField(max_length=12, choices=Status, default=Status.NOT_STARTED)
    note = models.TextField(blank=True, max_length=10_000)
    started_at = models.DateTimeField(null=True, blank=True)
    completed_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name_plural = "progress"
        constraints = [
            models.UniqueConstraint(
                fields=["user", "resource"],
                name="progress_one_row_per_user_resource",
                violation_error_message=_("This learner already has progress on this resource."),
                violation_error_code="progress_exists",
            ),
            models.CheckConstraint(
                condition=Q(status__in=Status.values),
                name="progress_status_valid",
                violation_error_message=_(
                    "Status must be not started, in progress, done or skipped."
                ),
                violation_error_code="status_invalid",
            ),
            models.CheckConstraint(
                condition=Q(completed_at__isnull=True) | Q(status=Status.DONE),
                name="progress_completed_only_when_done",
                violation_error_message=_("Only a resource marked done has a completion date."),
                violation_error_code="completed_not_done",
            ),
        ]
        # Every write to a row maintains its indexes, so there are only those a query reads:
        # - the heatmap's days of finishing (selectors._days_finished) read from the done rows
        #   alone (a "latest started" twin of it was used by no query and was dropped);
        # - a learner's statuses and noted resources (selectors.statuses_for) read from two
        #   covering indexes alone: index-only scans, a few pages however scattered the rows are.
        indexes = [
            models.Index(
                fields=["user", "-completed_at"],
                condition=Q(status=Status.DONE),
                name="progress_latest_done",
            ),
            models.Index(
                fields=["user"],
                include=["resource", "status"],
                condition=~Q(status=Status.NOT_STARTED),
                name="progress_user_statuses",
            ),
            models.Index(
                fields=["user"],
                include=["resource", "status"],
                condition=~Q(note=""),
                name="progress_user_noted",
            ),
        ]

    def __str__(self):
        return f"{self.user} · {self.resource} · {self.get_status_display()}"


class Activity(models.Model):
    """One status change, for history (the admin's list, "Download all my data")."""

    # Indexed by the (user, -occurred_at) index, which leads with it.
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="activities",
        db_index=False,
    )
    resource = models.ForeignKey(Resource, on_delete=models.CASCADE, related_name="activities")
    status = models.CharField(max_length=12, choices=Status)
    occurred_at = models.DateTimeField(db_index=True)  # the admin's list, newest first

    class Meta:
        verbose_name_plural = "activities"
        ordering = ["-occurred_at"]
        indexes = [models.Index(fields=["user", "-occurred_at"])]

    def __str__(self):
        return f"{self.user} → {self.get_status_display()} {self.resource} at {self.occurred_at:%Y-%m-%d %H:%M}"


class Suggestion(models.TextChoices):
    """Where a learner's offer of their own resource to the catalog stands (set by the inbox)."""

    NONE = "", _("Not suggested")
    PENDING = "pending", _("Suggested to the curators")
    ACCEPTED = "accepted", _("Accepted into the catalog")
    DISMISSED = "dismissed", _("Not taken into the catalog")


class OwnResource(models.Model):
    """A link a learner saved for themselves: their title, kind and author for it, private.

    The link itself is the catalog's ``Resource`` row for its URL (one row per link, found by
    ``url_key``; made unpublished, titled from the URL, when the catalog has none), so the
    learner's status, dates and note are their ``Progress`` on that row, written by the one
    write path (services.py), and they join the catalog resource when that row is published,
    imported into a guide or merged. Nobody but ``user`` reads these rows.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="own_resources",
        db_index=False,  # the unique constraint leads with it
    )
    resource = models.ForeignKey(Resource, on_delete=models.CASCADE, related_name="saved_by")
    title = models.CharField(max_length=300)
    kind = models.CharField(max_length=10, choices=Kind, default=Kind.ARTICLE)
    author = models.CharField(max_length=300, blank=True)
    suggestion = models.CharField(max_length=10, choices=Suggestion, default="", blank=True)
    suggestion_outcome = models.CharField(
        max_length=400, blank=True, help_text="What the curators did, as the learner reads it."
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["user", "resource"],
                name="ownresource_one_per_user_link",
                violation_error_message=_("This link is already in your resources."),
                violation_error_code="own_exists",
            ),
            models.CheckConstraint(
                condition=~Q(title=""),
                name="ownresource_title_not_empty",
                violation_error_message="A resource needs a title.",
                violation_error_code="title_empty",
            ),
        ]
        indexes = [models.Index(fields=["user", "-created_at"], name="ownresource_user_newest")]

    def __str__(self):
        return self.title
