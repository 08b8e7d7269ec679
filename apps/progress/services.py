"""The one write path of a learner's progress: ticks, status changes, notes, imports and merges.

The status rules live here once, in Python (`_apply_status`). Every write names the state the
learner wants (never "toggle"), so double clicks and retries converge. A write locks the learner's
row for the resource (select_for_update), changes it, and logs its Activity in the same
transaction; the database's constraints (one row per learner and resource, completed only when
done) guard what the rules promise.
"""

from dataclasses import dataclass
from datetime import datetime
from functools import partial

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from apps.catalog.importer.kinds import guess_kind
from apps.catalog.importer.urls import normalize_url, title_from_url, title_looks_poor
from apps.catalog.models import Kind, Resource, url_key
from apps.catalog.selectors import visible_resources
from apps.progress.models import Activity, OwnResource, Progress, Status, Suggestion

# What the tick asks when it clears a done resource: "not done", which is not one status. A resource
# that was in progress before it was done goes back to in progress, keeping its start; one ticked
# done straight away goes back to not started. Anything not done stays as it is.
UNDONE = "undone"


class ProgressError(Exception):
    """A progress write that cannot be made; the message is shown to the learner."""


@dataclass(frozen=True)
class ProgressChange:
    """One resource's wanted state, as an import carries it (its own dates, if any)."""

    resource_id: int
    status: str
    note: str | None = None
    started_at: datetime | None = None
    completed_at: datetime | None = None
    at: datetime | None = None  # when it happened (an import's own date); None: not known


def progress_set_status(
    *, user, resource, status, note=None, started_at=None, completed_at=None, at=None, dated=False
):
    """Put `resource` in `status` for `user`; returns the Progress row, or None when none is kept.

    Idempotent: the same status (and note) again changes nothing and logs no activity.
    `started_at`/`completed_at` carry an import's own dates (the earliest wins), and the activity
    is logged at `at`, else at the date the change carries (`completed_at`, then `started_at`),
    else now: imported history lands on its own days. `dated` (imports): a change that carries
    no date of its own is not logged at all, rather than logged now, when it did not happen.
    """
    if status not in Status.values and status != UNDONE:
        raise ProgressError(f"Unknown status {status!r}.")
    change = {
        "status": status,
        "note": note,
        "started_at": _aware(started_at),
        "completed_at": _aware(completed_at),
        "at": _aware(at),
        "dated": dated,
    }
    return _once_more_on_conflict(_write, user=user, resource=resource, **change)


def _once_more_on_conflict(write, **kwargs):
    """`write(**kwargs)` in a transaction; again if a concurrent first write made the row between
    our read and our insert: it exists now, so the second time it is locked and written over."""
    try:
        with transaction.atomic():
            return write(**kwargs)
    except IntegrityError:
        with transaction.atomic():
            return write(**kwargs)


def _write(*, user, resource, status, note, started_at, completed_at, at, dated):
    now = at or timezone.now()
    progress = _locked_row(user=user, resource=resource)
    previous = progress.status if progress else Status.NOT_STARTED
    if status == UNDONE:
        status = _undone(progress, previous)
    if progress is None:
        progress = Progress(user=user, resource=resource)
    before = (progress.status, progress.note, progress.started_at, progress.completed_at)
    _apply_status(
        progress,
        status=status,
        previous=previous,
        now=now,
        started_at=started_at,
        completed_at=completed_at,
    )
    if note is not None:
        progress.note = note
    after = (progress.status, progress.note, progress.started_at, progress.completed_at)
    if after == before and progress.pk:
        return progress
    progress = _save_or_drop(progress)
    if previous != status:
        carried = {Status.DONE: completed_at, Status.IN_PROGRESS: started_at}.get(status)
        if at or carried or not dated:
            _log(user=user, resource=resource, status=status, at=at or carried or now)
    return progress


def _undone(progress, previous) -> str:
    """The status "not done" means for this row (see UNDONE)."""
    if previous != Status.DONE:
        return previous
    started_before = (
        progress.started_at
        and progress.completed_at
        and progress.started_at < progress.completed_at
    )
    return Status.IN_PROGRESS if started_before else Status.NOT_STARTED


def _apply_status(progress, *, status, previous, now, started_at=None, completed_at=None) -> None:
    """The status rules: starting (in progress or done) keeps the first start; done keeps the first
    completion while it stays done; not started clears both dates; skipped keeps its start."""
    progress.status = status
    if status == Status.NOT_STARTED:
        progress.started_at = None
    elif status in (Status.IN_PROGRESS, Status.DONE):
        progress.started_at = _earliest(progress.started_at, started_at) or now
    elif started_at is not None:  # skipped after starting, as an import carries it
        progress.started_at = _earliest(progress.started_at, started_at)
    if status == Status.DONE:
        kept = progress.completed_at if previous == Status.DONE else None
        progress.completed_at = _earliest(kept, completed_at) or now
    else:
        progress.completed_at = None


def _locked_row(*, user, resource) -> Progress | None:
    return Progress.objects.select_for_update().filter(user=user, resource=resource).first()


def _log(*, user, resource, status, at) -> None:
    """The Activity row of a status change, in the caller's transaction."""
    Activity.objects.create(user=user, resource=resource, status=status, occurred_at=at)


def progress_set_note(*, user, resource, note):
    """Save the learner's private note; an empty note on an unstarted resource removes the row."""
    return _once_more_on_conflict(_write_note, user=user, resource=resource, note=note.strip())


def _write_note(*, user, resource, note):
    progress = _locked_row(user=user, resource=resource)
    if progress is None:
        if not note:
            return None
        progress = Progress(user=user, resource=resource)
    progress.note = note
    return _save_or_drop(progress)


def _save_or_drop(progress) -> Progress | None:
    """Save ``progress``, unless it holds nothing: a not-started row exists only for its note, so
    one with no note is deleted (absence is "not started"). Returns the row kept, or None."""
    if progress.status == Status.NOT_STARTED and not progress.note:
        if progress.pk:
            progress.delete()
        return None
    progress.save()
    return progress


def progress_apply_many(*, user, changes):
    """Apply several ProgressChange at once, all or nothing (imports)."""
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
                dated=True,
            )


# How far along a learner is; merging two rows keeps the furthest. Done beats everything; having
# started something beats having skipped it (the learner came back to it); skipping beats not
# having started (a deliberate choice).
STATUS_RANK = {Status.NOT_STARTED: 0, Status.SKIPPED: 1, Status.IN_PROGRESS: 2, Status.DONE: 3}
NOTE_SEPARATOR = "\n\n---\n\n"


def progress_merge(*, survivor, duplicates) -> tuple[int, int]:
    """Every learner's progress on `duplicates` carried over to `survivor` (a curator merging
    resources), in the caller's transaction: a row only on a duplicate moves; rows on both combine
    (the furthest status, the earliest dates, both notes); activity follows. Nothing a learner
    recorded is lost. Returns (rows moved, rows combined)."""
    moved = combined = 0
    with transaction.atomic():
        rows = {
            row.user_id: row
            for row in Progress.objects.select_for_update().filter(resource=survivor)
        }
        for row in (
            Progress.objects.select_for_update()
            .filter(resource__in=duplicates)
            .order_by("created_at", "pk")
        ):
            kept = rows.get(row.user_id)
            if kept is None:
                row.resource = survivor
                row.save(update_fields=["resource", "updated_at"])
                rows[row.user_id] = row
                moved += 1
                continue
            if STATUS_RANK[Status(row.status)] > STATUS_RANK[Status(kept.status)]:
                kept.status = row.status
            kept.started_at = _earliest(kept.started_at, row.started_at)
            kept.completed_at = (
                _earliest(kept.completed_at, row.completed_at)
                if kept.status == Status.DONE
                else None
            )
            if kept.status == Status.DONE and kept.completed_at is None:
                kept.completed_at = timezone.now()
            kept.note = join_notes(kept.note, row.note)
            row.delete()
            kept.save()
            combined += 1
        Activity.objects.filter(resource__in=duplicates).update(resource=survivor)
    return moved, combined


def join_notes(first: str, second: str) -> str:
    """Two notes as one, each kept once (merges of learners' rows and of curators' entries)."""
    first, second = (first or "").strip(), (second or "").strip()
    if not second or second == first or second in first.split(NOTE_SEPARATOR):
        return first
    if not first:
        return second
    return f"{first}{NOTE_SEPARATOR}{second}"


def _aware(moment):
    """A date an import carries without a zone is read in the server's TIME_ZONE."""
    return (
        timezone.make_aware(moment) if moment is not None and timezone.is_naive(moment) else moment
    )


def _earliest(*values):
    present = [value for value in values if value is not None]
    return min(present) if present else None


# --- A learner's own resources ------------------------------------------------------------------
class OwnResourceError(Exception):
    """An own resource that cannot be saved; the message is shown to the learner."""


@dataclass(frozen=True)
class OwnSaved:
    """What saving a link did: ``own`` is the learner's row, or None when the link is a catalog
    resource (``catalog``), which the learner ticks and notes as it is, never twice."""

    own: OwnResource | None
    catalog: Resource | None
    created: bool = False


def own_suggestions(url: str) -> dict:
    """The title and kind a URL suggests before anything is fetched (the form's first guess)."""
    url = normalize_url(url)
    return {"title": title_from_url(url), "kind": guess_kind(url)}


def link_resource(url: str) -> Resource:
    """The one Resource row of ``url`` (compared by ``url_key``, the project's URL identity),
    made when there is none: in no guide, titled from its URL (never a learner's words, which
    stay on their own row). A resource in no guide is hidden (``visible_resources``), so no
    learner page shows it until a guide lists it: an import or a sync that matches its URL, or
    curators accepting a suggestion, and then every learner's progress on it is there."""
    url = normalize_url(url)
    key = url_key(url)
    resource = Resource.objects.filter(url_key=key).first()
    if resource is None:
        try:
            with transaction.atomic():
                resource = Resource(
                    url=url,
                    title=title_from_url(url)[:300] or url[:300],
                    kind=guess_kind(url),
                )
                resource.save()
        except IntegrityError:  # made meanwhile by another save of the same link
            resource = Resource.objects.get(url_key=key)
    return resource


def own_resource_save(
    *,
    user,
    url,
    title="",
    kind="",
    author="",
    note=None,
    status=None,
    dates=None,
    dated=False,
    saved_at=None,
) -> OwnSaved:
    """Save ``url`` as ``user``'s own resource (or update the one they have for it). A link the
    catalog shows learners is not saved twice: its note and status go to the catalog resource and
    ``OwnSaved.catalog`` says which. ``status``/``dates`` (started_at, completed_at) are an
    import's; both go through progress_set_status, the one write path; so is ``saved_at``, the
    date of a new row."""
    if not url or not url.strip():
        raise OwnResourceError(_("Give the link's address."))
    with transaction.atomic():
        resource = link_resource(url)
        catalog = visible_resources().filter(pk=resource.pk).first()
        own, created = None, False
        if catalog is None:
            guessed = own_suggestions(resource.url or url)
            defaults = {
                "title": (title or "").strip()[:300] or guessed["title"][:300] or resource.url,
                "kind": kind if kind in Kind.values else guessed["kind"],
                "author": (author or "").strip()[:300],
            }
            own = OwnResource.objects.filter(user=user, resource=resource).first()
            if own is None:
                own = OwnResource.objects.create(user=user, resource=resource, **defaults)
                created = True
                if saved_at is not None:  # auto_now_add stamped it now
                    OwnResource.objects.filter(pk=own.pk).update(created_at=saved_at)
                    own.created_at = saved_at
                if title_looks_poor(own.title, resource.url):
                    _title_fetch_after_commit(own.pk)
            else:
                for name, value in defaults.items():
                    if name != "title" or title:
                        setattr(own, name, value)
                own.save()
        target = catalog or resource
        if status is not None:
            progress_set_status(
                user=user,
                resource=target,
                status=status,
                note=note,
                dated=dated,
                **(dates or {}),
            )
        elif note is not None:
            progress_set_note(user=user, resource=target, note=note)
    return OwnSaved(own=own, catalog=catalog, created=created)


def _title_fetch_after_commit(own_id: int) -> None:
    from apps.progress.tasks import own_title_fetch  # the job calls back into this module

    transaction.on_commit(partial(own_title_fetch.enqueue, own_id))


def own_resource_update(*, own: OwnResource, title, kind, author, note=None) -> OwnResource:
    """Change a learner's own resource (its link stays: another link is another resource)."""
    title = (title or "").strip()
    if not title:
        raise OwnResourceError(_("A resource needs a title."))
    if kind not in Kind.values:
        raise OwnResourceError(f"Unknown kind {kind!r}.")
    with transaction.atomic():
        own.title, own.kind, own.author = title[:300], kind, (author or "").strip()[:300]
        own.save()
        if note is not None:
            progress_set_note(user=own.user, resource=own.resource, note=note)
    return own


def own_resource_delete(*, own: OwnResource) -> None:
    """Remove a learner's own resource with their progress on it; the shared link row stays for
    whoever else saved it, and is removed with the last one unless curators listed it."""
    from apps.progress.signals import own_resource_removed  # the signals module imports this one

    with transaction.atomic():
        resource = own.resource
        Progress.objects.filter(user=own.user, resource=resource).delete()
        Activity.objects.filter(user=own.user, resource=resource).delete()
        own.delete()
        own_resource_removed.send(sender=OwnResource, user=own.user, resource=resource)
        orphan = (
            not resource.entries.exists()
            and not resource.saved_by.exists()
            and not resource.progress.exists()
        )
        if orphan and not _referenced_elsewhere(resource):
            resource.delete()


def _referenced_elsewhere(resource) -> bool:
    """Whether any other row (a path step, a curator's tool) points at ``resource``."""
    for relation in Resource._meta.related_objects:
        if relation.related_model in (OwnResource, Progress, Activity) or relation.many_to_many:
            continue
        if (
            relation.one_to_many
            and relation.related_model._default_manager.filter(
                **{relation.field.name: resource}
            ).exists()
        ):
            return True
    return False


def own_title_improve(*, own_id: int, page_title: str) -> bool:
    """Put the page's own title on a learner's own resource whose title is still a poor one (the
    guess from its URL); a title the learner typed is kept. True when it changed."""
    page_title = " ".join((page_title or "").split())[:300]
    with transaction.atomic():
        own = OwnResource.objects.select_for_update().filter(pk=own_id).first()
        if own is None or not page_title or page_title == own.title:
            return False
        if not title_looks_poor(own.title, own.resource.url):
            return False
        own.title = page_title
        own.save(update_fields=["title", "updated_at"])
    return True


def own_resource_suggest(*, own: OwnResource) -> OwnResource:
    """Offer a learner's own resource to the curators (the inbox lists it); once is enough."""
    listed = visible_resources().filter(pk=own.resource_id).exists()
    if own.suggestion in (Suggestion.NONE, Suggestion.DISMISSED) and not listed:
        own.suggestion, own.suggestion_outcome = Suggestion.PENDING, ""
        own.save(update_fields=["suggestion", "suggestion_outcome", "updated_at"])
    return own


def own_suggestion_set(*, resource, state: str, outcome: str = "", only_pending=False) -> int:
    """Record the curators' answer on every learner's own row for ``resource`` (the inbox calls
    this when it accepts or dismisses a suggestion; ``only_pending``: on the rows that offered
    it). Returns how many rows it updated."""
    if state not in Suggestion.values:
        raise OwnResourceError(f"Unknown suggestion state {state!r}.")
    rows = OwnResource.objects.filter(resource=resource)
    if only_pending:
        rows = rows.filter(suggestion=Suggestion.PENDING)
    return rows.update(
        suggestion=state, suggestion_outcome=outcome[:400], updated_at=timezone.now()
    )


# --- Quick actions: many resources at once ---------------------------------------------------
# Each goes through _write (the status rules, the Activity of each change) for every resource, all
# in one transaction: a section marked done is as if each of its rows had been ticked, and a
# failure changes nothing.


def progress_set_many(*, user, resources, status) -> int:
    """Put every one of `resources` in `status` (done or skipped: a whole section); returns how
    many changed. Rows already finished keep their status and dates: marking a section skipped
    does not undo what was done in it."""
    if status not in (Status.DONE, Status.SKIPPED):
        raise ProgressError(_("A section can be marked done or skipped."))
    changed = 0
    with transaction.atomic():
        current = dict(
            Progress.objects.select_for_update()
            .filter(user=user, resource__in=resources)
            .values_list("resource_id", "status")
        )
        for resource in resources:
            if current.get(resource.id) in (Status.DONE, Status.SKIPPED):
                continue
            _write(
                user=user,
                resource=resource,
                status=status,
                note=None,
                started_at=None,
                completed_at=None,
                at=None,
                dated=False,
            )
            changed += 1
    return changed


def progress_reset(*, user, resource_ids) -> list[list]:
    """Every one of `resource_ids` back to not started, notes kept; returns what was there
    (`[resource_id, status, started_at, completed_at]` per row changed, dates as ISO text) for
    progress_restore to undo exactly."""
    snapshot = []
    with transaction.atomic():
        rows = list(
            Progress.objects.select_for_update()
            .filter(user=user, resource_id__in=resource_ids)
            .exclude(status=Status.NOT_STARTED)
            .select_related("resource")
            .order_by("pk")
        )
        for row in rows:
            snapshot.append(
                [
                    row.resource_id,
                    row.status,
                    row.started_at.isoformat() if row.started_at else None,
                    row.completed_at.isoformat() if row.completed_at else None,
                ]
            )
            _write(
                user=user,
                resource=row.resource,
                status=Status.NOT_STARTED,
                note=None,
                started_at=None,
                completed_at=None,
                at=None,
                dated=False,
            )
    return snapshot


def progress_restore(*, user, snapshot) -> int:
    """Undo a progress_reset: each row back to its status and its own dates (so streaks and the
    heatmap, read from them, are as they were); notes were never touched. Returns rows restored."""
    resources = Resource.objects.in_bulk([resource_id for resource_id, *_ in snapshot])
    with transaction.atomic():
        for resource_id, status, started, completed in snapshot:
            if resource_id not in resources or status not in Status.values:
                continue
            started_at = datetime.fromisoformat(started) if started else None
            completed_at = datetime.fromisoformat(completed) if completed else None
            row = _locked_row(user=user, resource=resources[resource_id])
            if row is None:
                row = Progress(user=user, resource=resources[resource_id])
            previous = row.status
            row.status, row.started_at, row.completed_at = status, started_at, completed_at
            _save_or_drop(row)
            if previous != status:
                _log(
                    user=user,
                    resource=resources[resource_id],
                    status=status,
                    at=completed_at or started_at or timezone.now(),
                )
    return len(snapshot)
