"""Writes to a learner's progress. Every write names the state the learner wants (never "toggle"),
so double clicks and retries converge, and concurrent writes never duplicate a row."""

from dataclasses import dataclass

from django.db import connection, transaction
from django.utils import timezone

from apps.progress.models import Activity, ActivityDay, Progress, Status
from apps.progress.selectors import progress_row


class ProgressError(Exception):
    """A progress write that cannot be made; the message is shown to the learner."""


@dataclass(frozen=True)
class ProgressChange:
    resource_id: int
    status: str
    note: str | None = None
    started_at: object = None
    completed_at: object = None


def progress_set_status(*, user, resource, status, at=None, note=None, started_at=None, completed_at=None):
    """Put `resource` in `status` for `user`. Returns the Progress row, or None when no row is needed.

    Idempotent: setting the current status again changes nothing and logs no activity.
    `started_at`/`completed_at` override the automatic dates (imports); the earliest wins.
    """
    if status not in Status.values:
        raise ProgressError(f"Unknown status {status!r}.")
    now = at or timezone.now()
    with transaction.atomic():
        progress = progress_row(user=user, resource=resource, for_update=True)
        previous = progress.status if progress else Status.NOT_STARTED
        progress = progress or Progress(user=user, resource=resource)
        progress.status = status
        if note is not None:
            progress.note = note
        if status == Status.NOT_STARTED:
            progress.started_at = None
        elif status in (Status.IN_PROGRESS, Status.DONE):
            progress.started_at = _earliest(progress.started_at, started_at) or now
        if status == Status.DONE:
            kept = progress.completed_at if previous == Status.DONE else None
            progress.completed_at = _earliest(kept, completed_at) or now
        else:
            progress.completed_at = None
        if status == Status.NOT_STARTED and not progress.note:
            if progress.pk:
                with connection.cursor() as cursor:  # nothing hangs off a row: no collector needed
                    cursor.execute(_DELETE_SQL, [progress.pk])
            progress = None
        elif progress.pk:
            progress.save()
        elif not _inserted(progress):  # another request made the row first: apply on top of it
            return progress_set_status(
                user=user, resource=resource, status=status, at=at, note=note, started_at=started_at, completed_at=completed_at
            )
        if previous != status:
            _activity_log(user=user, resource=resource, status=status, at=now)
    return progress


def progress_set_note(*, user, resource, note):
    """Save the learner's private note; an empty note on an unstarted resource removes the row."""
    note = note.strip()
    with transaction.atomic():
        progress, _ = Progress.objects.select_for_update().get_or_create(user=user, resource=resource)
        progress.note = note
        if progress.status == Status.NOT_STARTED and not note:
            progress.delete()
            return None
        progress.save(update_fields=["note", "updated_at"])
    return progress


def progress_apply_many(*, user, changes):
    """Apply several ProgressChange at once, all or nothing (imports)."""
    from apps.catalog.models import Resource

    resources = Resource.objects.in_bulk([change.resource_id for change in changes])
    with transaction.atomic():
        for change in changes:
            progress_set_status(
                user=user,
                resource=resources[change.resource_id],
                status=change.status,
                note=change.note,
                started_at=change.started_at,
                completed_at=change.completed_at,
            )


# The write path runs on every tick: plain SQL where the ORM takes longer to build a statement
# than the database takes to run it.
def _inserted(progress) -> bool:
    """Insert a new row; False when a concurrent request inserted the same (user, resource) first.
    One statement: the conflict is the database's to detect, so no savepoint is needed around it."""
    progress.created_at = progress.updated_at = timezone.now()
    adapt = connection.ops.adapt_datetimefield_value
    with connection.cursor() as cursor:
        cursor.execute(_INSERT_SQL, [
            progress.user_id, progress.resource_id, progress.status, progress.note, adapt(progress.started_at),
            adapt(progress.completed_at), adapt(progress.created_at), adapt(progress.updated_at),
        ])
        row = cursor.fetchone()
    if row is None:
        return False
    progress.pk = row[0]
    progress._state.adding, progress._state.db = False, connection.alias
    return True


_INSERT_SQL = f"""
INSERT INTO {Progress._meta.db_table} (user_id, resource_id, status, note, started_at, completed_at, created_at, updated_at)
VALUES (%s, %s, %s, %s, %s, %s, %s, %s) ON CONFLICT (user_id, resource_id) DO NOTHING RETURNING id"""


_DELETE_SQL = f"DELETE FROM {Progress._meta.db_table} WHERE id = %s"


def _activity_log(*, user, resource, status, at):
    """Log the change (Activity) and count it on its day (ActivityDay, one upsert: safe against a
    concurrent one). On PostgreSQL both are one statement."""
    logged = [user.pk, resource.pk, status, connection.ops.adapt_datetimefield_value(at)]
    counted = [user.pk, connection.ops.adapt_datefield_value(timezone.localdate(at))]
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(f"WITH logged AS ({_ACTIVITY_INSERT}) {_ACTIVITY_DAY_UPSERT}", logged + counted)
        else:
            cursor.execute(_ACTIVITY_INSERT, logged)
            cursor.execute(_ACTIVITY_DAY_UPSERT, counted)


_ACTIVITY_INSERT = f"INSERT INTO {Activity._meta.db_table} (user_id, resource_id, status, occurred_at) VALUES (%s, %s, %s, %s)"
_ACTIVITY_DAY_UPSERT = f"""
INSERT INTO {ActivityDay._meta.db_table} (user_id, day, count) VALUES (%s, %s, 1)
ON CONFLICT (user_id, day) DO UPDATE SET count = {ActivityDay._meta.db_table}.count + 1"""


def _earliest(*values):
    present = [value for value in values if value is not None]
    return min(present) if present else None
