"""The curators' background jobs (Django's task framework: docs/ARCHITECTURE.md)."""

import logging

from django.tasks import task

from apps.curation import linkruns

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
