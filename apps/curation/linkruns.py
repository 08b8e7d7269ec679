"""Link-check runs: start one, execute it (the body of the job ``tasks.check_links``), read it.

No request handler checks a link: the admin and ``manage.py check_links --enqueue`` start a run
(``linkcheck_start``), which enqueues the job once the run's row is committed; a worker executes
it (``linkcheck_run_execute``). ``manage.py check_links`` without ``--enqueue`` executes the
same run in its own process.

One run at a time per scope (the whole catalog, or one selection of resources): a database
constraint holds it, and ``linkcheck_start`` raises ``LinkCheckRunning`` naming the run in the
way. A run whose worker died stops writing; after ``models.STALE_AFTER`` it is shown as stale
and a new run of its scope replaces it (the stale one is marked interrupted).

The job is idempotent: each URL's outcome is written in one transaction with its result row
(unique per run and resource), so a retry, or a second worker given the same run, checks only
the resources that have no result yet and never counts one twice; a finished run is left alone.
"""

import contextlib
import hashlib
import logging
from functools import partial
from typing import Any

from django.db import DatabaseError, IntegrityError, transaction
from django.db.models import Count, Q
from django.utils import timezone

from apps.catalog.importer.titles import same_title
from apps.catalog.importer.urls import title_looks_poor
from apps.catalog.models import LinkStatus, Resource
from apps.curation.linkcheck import (
    DEFAULT_RETRIES,
    DEFAULT_TIMEOUT,
    DEFAULT_WORKERS,
    TITLES_ALL,
    TITLES_POOR,
    LinkCheck,
    LinkChecker,
    stale_resources,
)
from apps.curation.models import (
    ACTIVE_STATES,
    CATALOG_SCOPE,
    STALE_AFTER,
    LinkCheckResult,
    LinkCheckRun,
    RunState,
)

logger = logging.getLogger(__name__)

# The job's checker: a URL gets at most `budget` seconds, retries and redirects included, so a
# running job writes at least that often (STALE_AFTER is far longer).
JOB_BUDGET = 60.0
JOB_CHECKER: dict[str, Any] = {
    "timeout": DEFAULT_TIMEOUT,
    "retries": DEFAULT_RETRIES,
    "budget": JOB_BUDGET,
}
# Results are copied onto the resources this many at a time: the admin's resource list follows
# a run without a catalog write (and a rebuild of learner pages' shared parts) per URL.
APPLY_EVERY = 50
IDS_PER_QUERY = 500  # under SQLite's limit on a query's parameters, whatever the catalog's size
NOT_CHECKED = "Nothing to check: none of these resources has a URL."
SUGGESTED_TITLE_MAX = Resource._meta.get_field("suggested_title").max_length
ATTENTION = (LinkStatus.BROKEN, LinkStatus.ERROR)


class LinkCheckRunning(Exception):
    """A run of the same scope is queued or running (``run``)."""

    def __init__(self, run: LinkCheckRun):
        self.run = run
        super().__init__(
            f"A link check of the {run.scope_label} is already {run.get_state_display().lower()} "
            f"(#{run.pk}, started {timezone.localtime(run.created_at):%Y-%m-%d %H:%M}): "
            "follow it, or wait for it to finish."
        )


class NothingToCheck(Exception):
    pass


def selection_scope(resource_ids) -> str:
    digest = hashlib.sha256(",".join(str(pk) for pk in sorted(resource_ids)).encode()).hexdigest()
    return f"selection:{digest[:40]}"


# --- Start -------------------------------------------------------------------------------------
def linkcheck_start(
    *,
    resources=None,
    titles: str = TITLES_POOR,
    only_stale_days: int | None = None,
    user=None,
    enqueue: bool = True,
) -> LinkCheckRun:
    """A new run over ``resources`` (a queryset; those with a URL), or the whole catalog when
    None; with ``enqueue``, its job is enqueued once the run is committed. Raises
    ``LinkCheckRunning`` when a live run of the same scope is in the way and ``NothingToCheck``
    when there is no URL to check."""
    candidates = stale_resources(days=only_stale_days)
    if resources is not None:
        candidates = candidates.filter(pk__in=resources.values("pk"))
    ids = list(candidates.order_by("pk").values_list("pk", flat=True))
    if not ids:
        raise NothingToCheck(NOT_CHECKED)
    scope = CATALOG_SCOPE if resources is None else selection_scope(ids)
    try:
        with transaction.atomic():
            _retire_stale(scope)
            run = LinkCheckRun.objects.create(
                scope=scope,
                resource_ids=ids,
                total=len(ids),
                titles=titles,
                only_stale_days=only_stale_days,
                started_by=user,
            )
            if enqueue:
                transaction.on_commit(partial(_enqueue, run.pk))
    except IntegrityError:
        raise LinkCheckRunning(_active_run(scope)) from None
    return run


def _retire_stale(scope):
    """Mark the scope's stale runs interrupted; raise LinkCheckRunning for a live one."""
    for run in LinkCheckRun.objects.select_for_update().filter(
        scope=scope, state__in=ACTIVE_STATES
    ):
        if not run.is_stale:
            raise LinkCheckRunning(run)
        _finish(run, RunState.INTERRUPTED, "No progress for a while: its worker stopped.")


def _active_run(scope):
    return LinkCheckRun.objects.filter(scope=scope, state__in=ACTIVE_STATES).first() or (
        LinkCheckRun(scope=scope, state=RunState.RUNNING, created_at=timezone.now())
    )


def _enqueue(run_id):
    from apps.curation.tasks import check_links

    result = check_links.enqueue(run_id)
    LinkCheckRun.objects.filter(pk=run_id).update(task_id=result.id[:64])


def _finish(run, state, error=""):
    run.state, run.error, run.finished_at = state, error, timezone.now()
    run.save(update_fields=["state", "error", "finished_at"])


# --- Execute (the job) -------------------------------------------------------------------------
def linkcheck_run_execute(
    *, run_id: int, checker: LinkChecker | None = None, workers=DEFAULT_WORKERS, progress=None
) -> LinkCheckRun | None:
    """Check the run's resources that have no result yet, recording each outcome as it comes
    (a result row, one transaction per URL) and copying the outcomes onto the resources (link
    fields, title suggestion) ``APPLY_EVERY`` at a time. ``progress(done, total, url, result)``
    is called after each record. A failure marks the run failed with its message and is raised
    again; a retry resumes where it stopped. A run that is finished, interrupted, replaced, or
    running in another live job is left alone. Returns the run (None when it was deleted)."""
    run = _claim(run_id)
    if run is None:
        return LinkCheckRun.objects.filter(pk=run_id).first()
    unapplied: list[int] = []
    try:
        checked = set(run.results.values_list("resource_id", flat=True))
        todo = [pk for pk in run.resource_ids if pk not in checked]
        pending = [
            resource
            for start in range(0, len(todo), IDS_PER_QUERY)
            for resource in Resource.objects.filter(
                pk__in=todo[start : start + IDS_PER_QUERY]
            ).exclude(url__isnull=True)
        ]
        by_url = {resource.url: resource for resource in pending}
        wanted = {
            resource.url
            for resource in pending
            if run.titles == TITLES_ALL
            or (run.titles == TITLES_POOR and title_looks_poor(resource.title, resource.url))
        }
        already = len(checked)
        _apply(run)  # a retry first finishes what the last attempt recorded

        def record(done, total, url, result):
            _record(run, by_url[url], result, wants_title=url in wanted)
            unapplied.append(by_url[url].pk)
            if len(unapplied) >= APPLY_EVERY:
                _apply(run, unapplied)
                unapplied.clear()
            if progress is not None:
                progress(already + done, run.total, url, result)

        checker = checker or LinkChecker(**JOB_CHECKER)
        checker.check_many(list(by_url), workers=workers, progress=record, titles_for=wanted)
        _apply(run, unapplied)
    except Exception as error:
        with contextlib.suppress(DatabaseError):  # else the retry applies them first
            _apply(run, unapplied)
        message = f"The link check stopped: {error.__class__.__name__}: {error}"
        LinkCheckRun.objects.filter(pk=run.pk, state=RunState.RUNNING).update(
            state=RunState.FAILED, error=message[:2000], finished_at=timezone.now()
        )
        raise RuntimeError(message) from error
    LinkCheckRun.objects.filter(pk=run.pk, state=RunState.RUNNING).update(
        state=RunState.DONE, finished_at=timezone.now(), heartbeat_at=timezone.now(), error=""
    )
    return LinkCheckRun.objects.get(pk=run.pk)


def _claim(run_id):
    """The run, now running in this job; None when it is gone, finished or interrupted, when a
    live job already runs it, or when a newer run of its scope has taken over (a failed run's
    retry then leaves it failed, or, if a live run of its scope is in the way, interrupted)."""
    with transaction.atomic():
        run = LinkCheckRun.objects.select_for_update().filter(pk=run_id).first()
        if run is None or run.state in (RunState.DONE, RunState.INTERRUPTED):
            return None
        if run.state == RunState.RUNNING and not run.is_stale:
            return None  # another worker is on it (it wrote within STALE_AFTER)
        now = timezone.now()
        newer = LinkCheckRun.objects.filter(scope=run.scope, pk__gt=run.pk)
        if run.state == RunState.FAILED and newer.exists():
            return None
        run.state, run.error, run.finished_at = RunState.RUNNING, "", None
        run.started_at = run.started_at or now
        run.heartbeat_at = now
        try:
            with transaction.atomic():
                run.save(
                    update_fields=["state", "error", "finished_at", "started_at", "heartbeat_at"]
                )
        except IntegrityError:  # another run of the scope is live: this one gives way
            LinkCheckRun.objects.filter(pk=run_id).update(
                state=RunState.INTERRUPTED, error="Another link check of these resources took over."
            )
            return None
    return run


def _record(run: LinkCheckRun, resource: Resource, result: LinkCheck, *, wants_title: bool):
    """The run's result row for ``resource`` (none written when a retry finds it there) and the
    run's heartbeat, in one transaction: curation's tables only, so learner pages' shared parts
    (built from the catalog's tables, apps.core.content) are not rebuilt after every URL."""
    title_found = bool(result.page_title) and wants_title
    suggestion = result.page_title[:SUGGESTED_TITLE_MAX] if title_found else ""
    if suggestion and same_title(suggestion, resource.title):
        suggestion = ""
    now = timezone.now()
    with transaction.atomic():
        LinkCheckResult.objects.bulk_create(
            [
                LinkCheckResult(
                    run=run,
                    resource=resource,
                    url=resource.url or "",
                    status=result.status,
                    status_code=result.status_code,
                    final_url=result.final_url[:2000],
                    error=result.error[:300],
                    title_found=title_found,
                    suggested_title=suggestion,
                    checked_at=now,
                )
            ],
            ignore_conflicts=True,
        )
        LinkCheckRun.objects.filter(pk=run.pk).update(heartbeat_at=now)


def _apply(run: LinkCheckRun, resource_ids=None):
    """Copy the run's results (those of ``resource_ids``, or all) onto their resources' link
    fields and title suggestions, in one transaction, unless a later check already wrote them.
    A result with no title found leaves the earlier suggestion; one equal to the title clears it.
    ``updated_at`` is not touched: a check is not an edit."""
    results = run.results.select_related("resource")
    if resource_ids is not None:
        results = results.filter(resource_id__in=list(resource_ids))
    plain, titled = [], []
    for result in results:
        resource = result.resource
        if resource.link_checked_at and resource.link_checked_at > result.checked_at:
            continue
        resource.link_status = result.status
        resource.link_status_code = result.status_code
        resource.link_final_url = result.final_url
        resource.link_error = result.error
        resource.link_checked_at = result.checked_at
        if result.title_found:
            resource.suggested_title = result.suggested_title
            titled.append(resource)
        else:
            plain.append(resource)
    fields = ["link_status", "link_status_code", "link_final_url", "link_error", "link_checked_at"]
    with transaction.atomic():
        Resource.objects.bulk_update(plain, fields, batch_size=500)
        Resource.objects.bulk_update(titled, [*fields, "suggested_title"], batch_size=500)


# --- Read --------------------------------------------------------------------------------------
def runs_with_counts(queryset=None):
    """Runs annotated with ``checked``, ``broken`` (broken or unreachable), ``moved`` and
    ``suggested`` counts of their results: one query for a list of runs."""
    queryset = LinkCheckRun.objects.all() if queryset is None else queryset
    return queryset.annotate(
        checked=Count("results"),
        broken=Count("results", filter=Q(results__status__in=ATTENTION)),
        moved=Count("results", filter=Q(results__status=LinkStatus.REDIRECTED)),
        suggested=Count("results", filter=~Q(results__suggested_title="")),
    )


def run_results(run: LinkCheckRun) -> dict:
    """The run's broken and moved links and its title suggestions a curator has not yet accepted
    or dismissed, each result with its resource (one query)."""
    results = list(
        run.results.filter(
            Q(status__in=[*ATTENTION, LinkStatus.REDIRECTED]) | ~Q(suggested_title="")
        )
        .select_related("resource")
        .order_by("resource__title", "pk")
    )
    return {
        "broken": [r for r in results if r.status in ATTENTION],
        "moved": [r for r in results if r.status == LinkStatus.REDIRECTED],
        "suggestions": [
            r
            for r in results
            if r.suggested_title and r.resource.suggested_title == r.suggested_title
        ],
    }


def stale_after_minutes() -> int:
    return int(STALE_AFTER.total_seconds() // 60)
