"""Writes to a learner's progress. Every write names the state the learner wants (never "toggle"),
so double clicks and retries converge, and concurrent writes never duplicate a row."""

from collections.abc import Sequence
from copy import copy
from dataclasses import dataclass

from django.db import connection, transaction
from django.utils import timezone

from apps.core.db import Read, rows_of
from apps.progress.models import Activity, ActivityDay, Progress, Status
from apps.progress.selectors import progress_row

_TABLE = Progress._meta.db_table


class ProgressError(Exception):
    """A progress write that cannot be made; the message is shown to the learner."""


@dataclass(frozen=True)
class ProgressChange:
    resource_id: int
    status: str
    note: str | None = None
    started_at: object = None
    completed_at: object = None
    at: object = None  # when it happened (an import's own date); None: now


def progress_set_status(*, user, resource, status, at=None, note=None, started_at=None, completed_at=None):
    """Put `resource` in `status` for `user`. Returns the Progress row, or None when no row is needed.

    Idempotent: setting the current status again changes nothing and logs no activity.
    `started_at`/`completed_at` override the automatic dates (imports); the earliest wins.

    Optimistic: the row is read, the change worked out, and written only if the row is still as
    read, together with its activity, in one statement (PostgreSQL) or one transaction. If another
    request changed the row in between, the write is worked out again on top of that change.
    """
    if status not in Status.values:
        raise ProgressError(f"Unknown status {status!r}.")
    now = at or timezone.now()
    for _ in range(WRITE_ATTEMPTS):
        seen = progress_row(user=user, resource=resource)
        progress = _changed(seen, user=user, resource=resource, status=status, now=now, note=note,
                            started_at=started_at, completed_at=completed_at)
        if _unchanged(seen, progress):
            return seen  # the status again: no write, no activity
        previous = seen.status if seen else Status.NOT_STARTED
        activity = (user.pk, resource.pk, status, now) if previous != status else None
        if _written(seen, progress, activity):
            return progress
    raise ProgressError("This resource is being changed elsewhere at the same moment; nothing was saved. Try again.")


WRITE_ATTEMPTS = 5  # each lost only to a concurrent write of the same row, so 2 do in practice


def progress_tick(*, user, resource, status, then: Sequence[Read]) -> list:
    """A learner's tick: `resource` put in `status` as `progress_set_status` puts it (no note or
    dates to set), then `then` (what the page refreshes) read right after the write. Their
    results, in order.

    No read first: the database applies `_changed`'s rules to the row as it is when the write
    lands (tests/progress/test_services.py checks the two agree on every change), so there is no
    race to lose. On PostgreSQL the write, its activity and day count, and `then` are one message.
    """
    if status not in Status.values:
        raise ProgressError(f"Unknown status {status!r}.")
    now, adapt = timezone.now(), connection.ops.adapt_datetimefield_value
    if status == Status.NOT_STARTED:  # the row goes, or stays with its note only
        writes = [
            Read(_CLEAR_SQL, [user.pk, resource.pk, Status.NOT_STARTED]),
            Read(_KEEP_NOTE_SQL, [Status.NOT_STARTED, adapt(now), user.pk, resource.pk, Status.NOT_STARTED]),
        ]
    else:
        started = adapt(now) if status in (Status.IN_PROGRESS, Status.DONE) else None
        completed = adapt(now) if status == Status.DONE else None
        writes = [Read(
            _UPSERT_SQL[status], [user.pk, resource.pk, status, started, completed, adapt(now), adapt(now)]
        )]
    return _logged_with(writes, (user.pk, resource.pk, status, now), then)[1]


# The status rules of `_changed`, for a tick. A new row starts (and finishes) now; a row that
# changes status keeps its start if it had one, or skips keeping it as it was, and finishes now
# only when done. The same status again matches no row: nothing is written or logged.
_UPSERT_SQL = {
    status: f"""
INSERT INTO {_TABLE} AS p (user_id, resource_id, status, note, started_at, completed_at, created_at, updated_at)
VALUES (%s, %s, %s, '', %s, %s, %s, %s) ON CONFLICT (user_id, resource_id) DO UPDATE SET status = excluded.status,
started_at = {started}, completed_at = excluded.completed_at, updated_at = excluded.updated_at
WHERE p.status <> excluded.status RETURNING id"""
    for status, started in (
        (Status.IN_PROGRESS, "COALESCE(p.started_at, excluded.started_at)"),
        (Status.DONE, "COALESCE(p.started_at, excluded.started_at)"),
        (Status.SKIPPED, "p.started_at"),
    )
}
_CLEAR_SQL = f"DELETE FROM {_TABLE} WHERE user_id = %s AND resource_id = %s AND note = '' AND status <> %s RETURNING id"
_KEEP_NOTE_SQL = f"""
UPDATE {_TABLE} SET status = %s, started_at = NULL, completed_at = NULL, updated_at = %s
WHERE user_id = %s AND resource_id = %s AND note <> '' AND status <> %s RETURNING id"""


def _logged_with(writes: Sequence[Read], activity: tuple | None, then: Sequence[Read] = ()) -> tuple[list, list]:
    """Run `writes` (each returning the ids it wrote; at most one writes), log `activity` (None:
    nothing to log) if one wrote, then read `then`: one statement and message on PostgreSQL, one
    transaction elsewhere. The rows written, and `then`'s results in order."""
    logged, counted = _activity_params(*activity) if activity else ([], [])
    if connection.vendor == "postgresql":
        statement = _one_statement([write.sql for write in writes], logged=bool(activity))
        params = [param for write in writes for param in write.params] + logged + counted
        written, *after = rows_of(Read(statement, params), *then)
    else:
        with transaction.atomic():
            written = [row for rows in rows_of(*writes) for row in rows]
            if written and activity:
                rows_of(Read(_ACTIVITY_INSERT, logged), Read(_ACTIVITY_DAY_UPSERT, counted))
        after = rows_of(*then) if then else []
    return written, [read.parse(rows) for read, rows in zip(then, after, strict=True)]


def _unchanged(seen, progress) -> bool:
    fields = ("status", "note", "started_at", "completed_at")
    if seen is None or progress is None:
        return seen is progress
    return all(getattr(seen, name) == getattr(progress, name) for name in fields)


def _changed(seen, *, user, resource, status, now, note, started_at, completed_at) -> Progress | None:
    """The row as it is to be after the change (a copy; `seen` stays as read), or None for no row."""
    progress = copy(seen) if seen else Progress(user=user, resource=resource)
    previous = progress.status if seen else Status.NOT_STARTED
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
        return None
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
                at=change.at,
            )


# Plain SQL, and on PostgreSQL one statement where Django would need a transaction (BEGIN, lock,
# write, log, COMMIT: five round trips).
def _written(seen, progress, activity) -> bool:
    """Write `progress` (None: no row) over `seen` (None: there was none) if the row is still as
    read, and log `activity` (None: the status did not change) with it. False, writing nothing,
    when another request got there first."""
    adapt = connection.ops.adapt_datetimefield_value
    if seen is None:
        progress.created_at = progress.updated_at = timezone.now()
        write, params = _INSERT_SQL, [
            progress.user_id, progress.resource_id, progress.status, progress.note, adapt(progress.started_at),
            adapt(progress.completed_at), adapt(progress.created_at), adapt(progress.updated_at),
        ]
    else:
        as_read = [seen.pk, seen.status, seen.note, adapt(seen.started_at), adapt(seen.completed_at)]
        if progress is None:
            write, params = _DELETE_SQL, as_read  # nothing hangs off a row: no collector needed
        else:
            progress.updated_at = timezone.now()
            write, params = _UPDATE_SQL, [
                progress.status, progress.note, adapt(progress.started_at), adapt(progress.completed_at),
                adapt(progress.updated_at), *as_read,
            ]
    written, _ = _logged_with([Read(write, params)], activity)
    if written and progress is not None and seen is None:
        progress.pk = written[0][0]
        progress._state.adding, progress._state.db = False, connection.alias
    return bool(written)


_INSERT_SQL = f"""
INSERT INTO {_TABLE} (user_id, resource_id, status, note, started_at, completed_at, created_at, updated_at)
VALUES (%s, %s, %s, %s, %s, %s, %s, %s) ON CONFLICT (user_id, resource_id) DO NOTHING RETURNING id"""
_AS_READ = "id = %s AND status = %s AND note = %s AND started_at IS NOT DISTINCT FROM %s AND completed_at IS NOT DISTINCT FROM %s"
_UPDATE_SQL = f"""
UPDATE {_TABLE} SET status = %s, note = %s, started_at = %s, completed_at = %s, updated_at = %s
WHERE {_AS_READ} RETURNING id"""
_DELETE_SQL = f"DELETE FROM {_TABLE} WHERE {_AS_READ} RETURNING id"


def _activity_params(user_id, resource_id, status, at) -> tuple[list, list]:
    """The parameters of the Activity row and of its day's count."""
    ops = connection.ops
    return (
        [user_id, resource_id, status, ops.adapt_datetimefield_value(at)],
        [user_id, ops.adapt_datefield_value(timezone.localdate(at))],
    )


def _one_statement(writes: list[str], *, logged: bool) -> str:
    """`writes` as one statement returning the ids written: with `logged`, the Activity row and
    its day's count (ActivityDay, an upsert: safe against a concurrent one) are inserted only if
    one wrote. One statement, so all or nothing."""
    if len(writes) == 1 and not logged:
        return writes[0]
    ctes = [f"write{index} AS ({write})" for index, write in enumerate(writes)]
    ctes.append("written AS (" + " UNION ALL ".join(f"SELECT id FROM write{index}" for index in range(len(writes))) + ")")
    if logged:
        ctes.append(f"logged AS (INSERT INTO {_ACTIVITY} SELECT %s, %s, %s, %s FROM written)")
        ctes.append(f"counted AS (INSERT INTO {_ACTIVITY_DAY} SELECT %s, %s, 1 FROM written {_ACTIVITY_DAY_CONFLICT})")
    return f"WITH {', '.join(ctes)} SELECT id FROM written"


_ACTIVITY = f"{Activity._meta.db_table} (user_id, resource_id, status, occurred_at)"
_ACTIVITY_DAY = f"{ActivityDay._meta.db_table} (user_id, day, count)"
_ACTIVITY_DAY_CONFLICT = f"ON CONFLICT (user_id, day) DO UPDATE SET count = {ActivityDay._meta.db_table}.count + 1"
_ACTIVITY_INSERT = f"INSERT INTO {_ACTIVITY} VALUES (%s, %s, %s, %s)"
_ACTIVITY_DAY_UPSERT = f"INSERT INTO {_ACTIVITY_DAY} VALUES (%s, %s, 1) {_ACTIVITY_DAY_CONFLICT}"


def _earliest(*values):
    present = [value for value in values if value is not None]
    return min(present) if present else None
