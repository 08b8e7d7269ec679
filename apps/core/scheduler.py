"""The scheduler: enqueues each job of the schedule (config/schedule.py) at its due times.

Every worker runs one (``manage.py worker`` starts it in a thread), so N worker replicas run N
schedulers, and each due time is still enqueued once: a scheduler claims it by inserting
``(task, due time)`` into ``ScheduledRun``, unique, in the transaction that enqueues the job. The
first to get there enqueues it; the others find it taken and move on. There is no lock to hold,
renew or lose when a replica dies: another replica's scheduler simply claims the next due time.

Due times come from the cron lines in the site's TIME_ZONE (cronsim: daylight-saving changes
included). A scheduler that was down does not catch up: it runs the next due time, not every
one it missed (jobs are written to do whatever is due when they run).
"""

import logging
import threading
from dataclasses import dataclass
from datetime import datetime

from cronsim import CronSim, CronSimError
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.db import IntegrityError, close_old_connections, transaction
from django.tasks import Task
from django.utils import timezone
from django.utils.module_loading import import_string

logger = logging.getLogger(__name__)

# The longest a scheduler sleeps between looks at the clock (seconds).
MAX_SLEEP = 30.0


@dataclass(frozen=True)
class Entry:
    cron: str
    task_path: str

    @property
    def task(self) -> Task:
        return import_string(self.task_path)


def schedule(setting: str | None = None) -> list[Entry]:
    """The schedule the setting TASKS_SCHEDULE names, each line checked: a clear error names a
    line that is not a cron line or a task taking no arguments."""
    path = setting or settings.TASKS_SCHEDULE
    entries = []
    for line in import_string(path):
        try:
            cron, task_path = line
        except (TypeError, ValueError):
            raise ImproperlyConfigured(
                f"{path}: {line!r} is not a (cron line, task path) pair"
            ) from None
        try:
            CronSim(cron, timezone.now())
        except CronSimError as exc:
            raise ImproperlyConfigured(f"{path}: {cron!r} is not a cron line ({exc})") from None
        try:
            task = import_string(task_path)
        except ImportError as exc:
            raise ImproperlyConfigured(f"{path}: cannot import {task_path!r} ({exc})") from None
        if not isinstance(task, Task):
            raise ImproperlyConfigured(f"{path}: {task_path!r} is not a @task")
        entries.append(Entry(cron, task_path))
    return entries


def next_due(cron: str, after: datetime) -> datetime:
    """The first due time of ``cron`` after ``after``, in the site's time zone."""
    local = timezone.localtime(after, timezone.get_default_timezone())
    return next(CronSim(cron, local))


def claim(entry: Entry, due_at: datetime) -> bool:
    """Enqueue ``entry``'s job for ``due_at`` unless another scheduler has: True if this one did."""
    from apps.core.models import ScheduledRun

    with transaction.atomic():
        try:
            with transaction.atomic():
                run = ScheduledRun.objects.create(task_path=entry.task_path, due_at=due_at)
        except IntegrityError:
            return False
        result = entry.task.enqueue()
        run.result_id = str(result.id)
        run.save(update_fields=["result_id"])
    return True


class Scheduler:
    def __init__(self, entries: list[Entry], *, now: datetime | None = None):
        start = now or timezone.now()
        self.due = {entry: next_due(entry.cron, start) for entry in entries}

    def tick(self, now: datetime | None = None) -> list[str]:
        """Enqueue what is due at ``now``; returns the task paths this scheduler enqueued."""
        now = now or timezone.now()
        enqueued = []
        for entry, due_at in self.due.items():
            if due_at > now:
                continue
            try:
                if claim(entry, due_at):
                    enqueued.append(entry.task_path)
                    logger.info("Scheduled %s (due %s)", entry.task_path, due_at.isoformat())
            except Exception as exc:  # the database is down: one line, and the next due time
                logger.error(
                    "Could not enqueue %s due %s: %s",
                    entry.task_path,
                    due_at,
                    exc.__class__.__name__,
                )
            self.due[entry] = next_due(entry.cron, max(now, due_at))
        return enqueued

    def seconds_to_next(self, now: datetime | None = None) -> float:
        now = now or timezone.now()
        if not self.due:
            return MAX_SLEEP
        soonest = min(self.due.values())
        return max(0.0, min(MAX_SLEEP, (soonest - now).total_seconds()))

    def run(self, stop: threading.Event) -> None:
        """Tick until ``stop`` is set (the worker's thread)."""
        logger.info("Scheduler started: %d scheduled jobs", len(self.due))
        while not stop.is_set():
            close_old_connections()
            self.tick()
            close_old_connections()
            stop.wait(self.seconds_to_next())
