"""The curators' background jobs (Django's task framework: docs/ARCHITECTURE.md).

Link checks (apps/curation/linkruns.py) and guides' sources (apps/curation/syncs.py):
``refetch_due_guides`` is meant to run every few minutes from the schedule; it does nothing when
no guide is due, and enqueues one ``refetch_guide`` per guide that is. Each job takes ids only,
and running one twice writes nothing twice.
"""

import logging

from django.tasks import task

from apps.curation import linkruns, syncs

logger = logging.getLogger(__name__)


@task
def check_links(run_id: int) -> dict:
    """Execute the link-check run ``run_id`` (apps/curation/linkruns.py). Idempotent: a retry
    checks only what the last attempt did not record, and a finished run is left alone."""
    run = linkruns.linkcheck_run_execute(run_id=run_id)
    return {"run": run_id, "state": run.state if run else "deleted"}


@task
def check_all_links() -> dict:
    """The scheduled whole-catalog check: start a run (its own job ``check_links`` does the work)
    unless one is already running; then this does nothing."""
    try:
        run = linkruns.linkcheck_start()
    except linkruns.LinkCheckRunning as running:
        logger.info("check_all_links: %s", running)
        return {"run": running.run.pk, "started": False}
    except linkruns.NothingToCheck:
        return {"run": None, "started": False}
    return {"run": run.pk, "started": True}


@task
def fetch_pending_sync(pending_id: int) -> str:
    """A curator's "Sync with source…": fetch and diff the source into the pending sync."""
    return syncs.pending_sync_fetch(pending_id=pending_id)


@task
def refetch_guide(guide_id: int) -> str:
    """The scheduled fetch of one guide's source: a change becomes a pending sync and mail."""
    return syncs.guide_refetch(guide_id=guide_id)


@task
def refetch_due_guides() -> int:
    """Enqueue a fetch of every guide whose schedule says it is due; how many."""
    return syncs.refetch_due()
