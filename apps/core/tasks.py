"""The core's jobs: sending a mail, the scheduled heartbeat, pruning finished jobs."""

from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.tasks import task
from django.utils import timezone

from apps.core import mail
from apps.core.jobs import retried


# A mail server that is down or refuses for a while: runs after 1, 3, 9, 27 and 81 minutes, about
# two hours in all. An error that is not a network or SMTP one (a bad message) is not retried.
@retried(attempts=6, backoff=timedelta(minutes=1), retry_on=(OSError,))
@task
def mail_send(message: dict) -> int:
    """Send one mail the site wrote (apps.core.mail serialised it into the job)."""
    return mail.deliver(message)


@task
def heartbeat() -> str:
    """Scheduled every minute (config/schedule.py): records that the schedule runs and a worker
    runs what it enqueues (``manage.py worker --health`` reads it)."""
    from apps.core.models import Heartbeat

    now = timezone.now()
    Heartbeat.objects.update_or_create(pk=1, defaults={"ran_at": now})
    return now.isoformat()


@task
def prune_jobs() -> dict:
    """Deletes the rows of finished jobs: successful ones after JOBS_KEEP_DAYS (a mail job holds
    its message, links included), failed ones and their failure records after
    JOBS_KEEP_FAILED_DAYS, and the scheduler's claims after two days."""
    from apps.core.models import JobFailure, ScheduledRun

    now = timezone.now()
    done = now - timedelta(days=settings.JOBS_KEEP_DAYS)
    failed = now - timedelta(days=settings.JOBS_KEEP_FAILED_DAYS)
    deleted = {}
    with transaction.atomic():
        if "django_tasks_db" in settings.INSTALLED_APPS:
            from django_tasks_db.models import DBTaskResult

            deleted["successful"] = (
                DBTaskResult.objects.successful().filter(finished_at__lt=done).delete()[0]
            )
            deleted["failed"] = (
                DBTaskResult.objects.failed().filter(finished_at__lt=failed).delete()[0]
            )
        deleted["failures"] = JobFailure.objects.filter(failed_at__lt=failed).delete()[0]
        deleted["scheduled"] = ScheduledRun.objects.filter(
            due_at__lt=now - timedelta(days=2)
        ).delete()[0]
    return deleted
