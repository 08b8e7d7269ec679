"""Guides that keep up with their sources: fetching in the background, pending syncs, the schedule.

A fetch never runs in a request. "Sync with source…" in the admin creates a ``PendingSync``
in state *fetching* and enqueues ``tasks.fetch_pending_sync``; the schedule
(``tasks.refetch_due_guides``, every few minutes) enqueues ``tasks.refetch_guide`` for each
guide whose ``sync_schedule`` says it is due. Both fetch through the guarded fetcher
(``apps.catalog.importer.sync.fetch_source``), plan the text for the guide and diff it
(``diff_guide``), and store what they found:

* a fetch that fails (no answer in time, an error status, a redirect loop, binary or non-UTF-8
  junk, no reading list in it) stores its message (on the pending sync, and on the guide's
  ``SourceStatus``) and raises it, so the job fails visibly; nothing else is written;
* a scheduled fetch of the same text as the last fetch, or of a text with nothing to apply,
  only notes the time: no pending sync, no mail;
* a change becomes the guide's one pending sync (an older one is superseded), and a scheduled
  one mails the curators (``mail_curators``).

A curator applies a pending sync (``pending_sync_apply``: the text planned and diffed again
against the guide as it is then, refused unless that is the diff the curator was shown, then
``apply_sync`` in the same transaction) or dismisses it (``pending_sync_dismiss``).
"""

import dataclasses
import hashlib
from datetime import timedelta
from functools import partial

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.mail import send_mail
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from apps.catalog.importer import CatalogImportError, plan_import
from apps.catalog.importer.builder import ImportResult
from apps.catalog.importer.planner import ImportPlan
from apps.catalog.importer.sync import GuideDiff, apply_sync, diff_guide, fetch_source
from apps.catalog.models import Guide, SyncSchedule
from apps.curation.forms import source_text
from apps.curation.models import FetchOutcome, PendingSync, SourceStatus, SyncState

# What a curator needs to sync a guide: the import's permissions plus changing guides.
SYNC_PERMISSIONS = [
    *(f"catalog.add_{name}" for name in ("guide", "section", "entry", "resource", "resourcelink")),
    "catalog.change_guide",
]
SCHEDULE_INTERVALS = {SyncSchedule.DAILY: timedelta(days=1), SyncSchedule.WEEKLY: timedelta(days=7)}
# A guide is due a little before its interval has passed, so a job running every few minutes
# does not push each day's fetch a few minutes later than the last.
SCHEDULE_SLACK = timedelta(hours=1)
PERMISSIONS_BACKEND = "django.contrib.auth.backends.ModelBackend"  # the one that holds permissions
ERROR_LENGTH = 500  # PendingSync.error, SourceStatus.error


class SourceFetchError(Exception):
    """A fetch of a guide's source that gave nothing to review; the message says why."""


def can_sync(user) -> bool:
    return user.is_active and user.is_staff and user.has_perms(SYNC_PERMISSIONS)


def text_hash(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def diff_digest(diff: GuideDiff) -> str:
    """What a curator was shown: an apply is refused unless the diff is still this one."""
    return hashlib.sha256(diff.summary().encode()).hexdigest()[:32]


def source_plan(
    guide: Guide, text: str, *, source_name: str = "", source_url: str = ""
) -> ImportPlan:
    """The plan of ``text`` for ``guide``; a new upload becomes its source, else the URL does.
    Raises CatalogImportError when the text is no reading list."""
    if "\x00" in text:
        raise CatalogImportError("This looks like binary data, not a markdown reading list.")
    plan = plan_import(
        text,
        guide_slug=guide.slug,
        title=guide.title,
        source_name=source_name or guide.source_name,
        source_url=source_url or guide.source_url,
    )
    if not plan.entries:
        raise CatalogImportError(
            "Nothing in this source looks like a reading list item (no links, no checklist lines): "
            "nothing was changed."
        )
    return plan


def _fetch_text(url: str) -> str:
    """The text at ``url``, or SourceFetchError saying why there is none to use."""
    try:
        return source_text(fetch_source(url), what=f"The source at {url}")
    except CatalogImportError as error:
        raise SourceFetchError(str(error)) from None
    except ValidationError as error:
        raise SourceFetchError(" ".join(error.messages)) from None


def _plan_and_diff(guide: Guide, text: str, url: str) -> GuideDiff:
    try:
        return diff_guide(guide, source_plan(guide, text, source_url=url))
    except CatalogImportError as error:
        raise SourceFetchError(str(error)) from None


def _record_status(guide: Guide, *, outcome: str, text_hash: str = "", error: str = "") -> None:
    values = {"fetched_at": timezone.now(), "outcome": outcome, "error": error[:ERROR_LENGTH]}
    if text_hash:
        values["text_hash"] = text_hash
    SourceStatus.objects.update_or_create(guide=guide, defaults=values)


def _store_change(pending: PendingSync, text: str, diff: GuideDiff) -> None:
    """``pending`` becomes the guide's one pending sync, with what was fetched."""
    PendingSync.objects.filter(guide=pending.guide, state=SyncState.PENDING).exclude(
        pk=pending.pk
    ).update(state=SyncState.SUPERSEDED)
    pending.text, pending.text_hash = text, text_hash(text)
    pending.diff = diff_as_data(diff)
    pending.summary = diff.summary()
    pending.state, pending.error, pending.fetched_at = SyncState.PENDING, "", timezone.now()
    pending.save()


def diff_as_data(diff: GuideDiff) -> dict:
    return dataclasses.asdict(diff)


# --- A curator's "Sync with source…" ------------------------------------------------------------
def pending_sync_request(*, guide: Guide, user, source_url: str) -> PendingSync:
    """A fetch of ``source_url`` for ``guide``, run as a job once this transaction commits."""
    from apps.curation.tasks import fetch_pending_sync

    pending = PendingSync.objects.create(guide=guide, source_url=source_url, requested_by=user)
    transaction.on_commit(partial(fetch_pending_sync.enqueue, pending.pk))
    return pending


def pending_sync_fetch(*, pending_id: int) -> str:
    """The job behind a curator's request: fetch, diff, store (see the module). Returns the state.

    A sync fetched already is left alone (a retried job writes nothing twice); a failed one is
    fetched again."""
    pending = PendingSync.objects.select_related("guide").filter(pk=pending_id).first()
    if pending is None or pending.state not in (SyncState.FETCHING, SyncState.FAILED):
        return pending.state if pending else "gone"
    guide = pending.guide
    try:
        text = _fetch_text(pending.source_url)
        diff = _plan_and_diff(guide, text, pending.source_url)
    except SourceFetchError as error:
        with transaction.atomic():
            PendingSync.objects.filter(pk=pending.pk).update(
                state=SyncState.FAILED, error=str(error)[:ERROR_LENGTH], fetched_at=timezone.now()
            )
            _record_status(guide, outcome=FetchOutcome.FAILED, error=str(error))
        raise
    with transaction.atomic():
        Guide.objects.select_for_update().filter(pk=guide.pk).first()  # one writer per guide
        pending = PendingSync.objects.select_for_update().get(pk=pending.pk)
        if pending.state not in (SyncState.FETCHING, SyncState.FAILED):
            return pending.state
        if diff.is_empty:
            pending.text, pending.text_hash = text, text_hash(text)
            pending.summary, pending.diff = diff.summary(), diff_as_data(diff)
            pending.state, pending.error, pending.fetched_at = (
                SyncState.UNCHANGED,
                "",
                timezone.now(),
            )
            pending.save()
        else:
            _store_change(pending, text, diff)
        _record_status(
            guide,
            outcome=FetchOutcome.UNCHANGED if diff.is_empty else FetchOutcome.CHANGED,
            text_hash=pending.text_hash,
        )
    return pending.state


# --- The schedule -------------------------------------------------------------------------------
def due_guides(now=None):
    """Guides whose schedule says their source is due a fetch (never fetched by the schedule, or
    their interval has passed since it last asked)."""
    now = now or timezone.now()
    guides = Guide.objects.exclude(sync_schedule=SyncSchedule.OFF).exclude(source_url="")
    due = [
        guide
        for guide in guides.select_related("source_status").order_by("pk")
        if _is_due(guide, now)
    ]
    return due


def _is_due(guide: Guide, now) -> bool:
    try:
        queued_at = guide.source_status.queued_at
    except SourceStatus.DoesNotExist:
        return True
    interval = SCHEDULE_INTERVALS[SyncSchedule(guide.sync_schedule)]
    return queued_at is None or queued_at <= now - interval + SCHEDULE_SLACK


def refetch_due(now=None) -> int:
    """Enqueue a fetch of every due guide (after this transaction commits); how many."""
    from apps.curation.tasks import refetch_guide

    now = now or timezone.now()
    guides = due_guides(now)
    with transaction.atomic():
        for guide in guides:
            SourceStatus.objects.update_or_create(guide=guide, defaults={"queued_at": now})
            transaction.on_commit(partial(refetch_guide.enqueue, guide.pk))
    return len(guides)


def guide_refetch(*, guide_id: int) -> str:
    """The scheduled fetch of one guide's source (see the module); what came of it."""
    guide = Guide.objects.filter(pk=guide_id).exclude(source_url="").first()
    if guide is None:
        return "gone"
    status = SourceStatus.objects.filter(guide=guide).first()
    url = guide.source_url
    try:
        text = _fetch_text(url)
        digest = text_hash(text)
        if status is not None and status.text_hash == digest:
            _record_status(guide, outcome=FetchOutcome.UNCHANGED, text_hash=digest)
            return FetchOutcome.UNCHANGED
        diff = _plan_and_diff(guide, text, url)
    except SourceFetchError as error:
        _record_status(guide, outcome=FetchOutcome.FAILED, error=str(error))
        raise
    with transaction.atomic():
        Guide.objects.select_for_update().filter(pk=guide.pk).first()  # one writer per guide
        if diff.is_empty:
            _record_status(guide, outcome=FetchOutcome.UNCHANGED, text_hash=digest)
            return FetchOutcome.UNCHANGED
        if PendingSync.objects.filter(
            guide=guide, state=SyncState.PENDING, text_hash=digest
        ).exists():  # a retried job: this change is already waiting
            return FetchOutcome.CHANGED
        pending = PendingSync(guide=guide, source_url=url, scheduled=True)
        pending.save()
        _store_change(pending, text, diff)
        _record_status(guide, outcome=FetchOutcome.CHANGED, text_hash=digest)
        transaction.on_commit(partial(mail_curators, pending.pk))
    return FetchOutcome.CHANGED


# --- Mail ---------------------------------------------------------------------------------------
def sync_recipients() -> list[str]:
    """The addresses of the active staff who may sync guides (superusers included)."""
    User = get_user_model()
    ids = None
    for permission in SYNC_PERMISSIONS:
        found = set(
            User.objects.with_perm(permission, backend=PERMISSIONS_BACKEND).values_list(
                "pk", flat=True
            )
        )
        ids = found if ids is None else ids & found
    return list(
        User.objects.filter(pk__in=ids or (), is_active=True, is_staff=True)
        .exclude(email="")
        .order_by("pk")
        .values_list("email", flat=True)
    )


def mail_curators(pending_id: int) -> int:
    """Tell the curators a guide's source changed, with a link to review it; how many were told."""
    pending = PendingSync.objects.select_related("guide").get(pk=pending_id)
    recipients = sync_recipients()
    if not recipients:
        return 0
    review = settings.SITE_URL + reverse("admin:curation_pendingsync_change", args=[pending.pk])
    every = settings.SITE_URL + reverse("admin:curation_pendingsync_changelist")
    send_mail(
        f"[{settings.SITE_NAME}] “{pending.guide.title}” changed at its source",
        f"The source of the guide “{pending.guide.title}” ({pending.source_url}) has changed:\n\n"
        f"{pending.summary}\n\n"
        f"Nothing has been applied. Review it and apply or dismiss it:\n{review}\n\n"
        f"Every sync waiting for review: {every}\n",
        None,
        recipients,
    )
    return len(recipients)


# --- A curator's decision -----------------------------------------------------------------------
class SyncDecisionError(Exception):
    """A pending sync that cannot be applied or dismissed as asked; the message says why."""


def pending_sync_review(pending: PendingSync) -> tuple[ImportPlan, GuideDiff]:
    """The stored text planned and diffed against the guide as it is now (what Apply would do)."""
    plan = source_plan(pending.guide, pending.text, source_url=pending.source_url)
    return plan, diff_guide(pending.guide, plan)


def pending_sync_apply(
    *, pending: PendingSync, user, seen: str
) -> tuple[ImportResult, GuideDiff, ImportPlan]:
    """Apply ``pending`` if it is still waiting and ``seen`` is the diff it makes now, in one
    transaction (call it inside the caller's, to log with it). SyncDecisionError otherwise."""
    with transaction.atomic():
        pending = PendingSync.objects.select_for_update().select_related("guide").get(pk=pending.pk)
        if pending.state != SyncState.PENDING:
            raise SyncDecisionError(
                f"This sync is no longer waiting for review ({pending.get_state_display().lower()})."
            )
        try:
            plan, diff = pending_sync_review(pending)
        except CatalogImportError as error:
            raise SyncDecisionError(str(error)) from None
        if diff_digest(diff) != seen:
            raise SyncDecisionError(
                "The guide changed since you reviewed this sync: review what it would change now."
            )
        if diff.is_empty:
            raise SyncDecisionError("The guide already matches this source: nothing to apply.")
        result = apply_sync(plan)
        pending.state, pending.decided_by, pending.decided_at = (
            SyncState.APPLIED,
            user,
            timezone.now(),
        )
        pending.save(update_fields=["state", "decided_by", "decided_at"])
    return result, diff, plan


def pending_sync_dismiss(*, pending: PendingSync, user) -> None:
    with transaction.atomic():
        pending = PendingSync.objects.select_for_update().get(pk=pending.pk)
        if pending.state not in (SyncState.PENDING, SyncState.UNCHANGED, SyncState.FAILED):
            raise SyncDecisionError(
                f"This sync cannot be dismissed ({pending.get_state_display().lower()})."
            )
        pending.state, pending.decided_by, pending.decided_at = (
            SyncState.DISMISSED,
            user,
            timezone.now(),
        )
        pending.save(update_fields=["state", "decided_by", "decided_at"])
