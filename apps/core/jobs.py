"""Failed jobs: recorded, and retried with backoff when the task says it may be.

Django's task framework has no retries, so this is the smallest generic one. A task opts in by
wearing ``@retried(...)`` above ``@task``::

    @retried(attempts=5, backoff=timedelta(minutes=1))
    @task
    def mail_send(message): ...

Whatever the backend, a run that fails sends ``task_finished``; ``task_failed`` then records it
(``JobFailure``: which run of the job it was, the error) and, when the task is retryable, the
attempts are not used up and the exception is one its policy retries, enqueues the same call
again to run after ``backoff × factor^(run − 1)`` (capped at ``max_delay``). A backend that cannot
run a job later (the ImmediateBackend, which runs it in the process that enqueued it) gets no
retry: the failure is recorded as given up. No failure is silent: each is a ``JobFailure`` row in
the admin and one log line; a task without a policy is recorded too.

A task is retried as a whole, so it must be idempotent (the jobs contract says so).
"""

import logging
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta

from django.db import transaction
from django.tasks import Task, TaskResult, TaskResultStatus
from django.tasks.signals import task_finished
from django.utils import timezone

logger = logging.getLogger(__name__)

_ADDRESS = re.compile(r"\b([\w.+-])[\w.+-]*@")


@dataclass(frozen=True)
class RetryPolicy:
    attempts: int = 5  # runs in all, the first included
    backoff: timedelta = timedelta(minutes=1)  # the wait after the first failure
    factor: float = 3  # each wait this many times the one before
    max_delay: timedelta = timedelta(hours=6)
    retry_on: tuple[type[BaseException], ...] = (Exception,)

    def delay(self, failed_run: int) -> timedelta:
        """The wait before the run after run number ``failed_run`` (1: the first) failed."""
        return min(self.backoff * self.factor ** (failed_run - 1), self.max_delay)


_policies: dict[str, RetryPolicy] = {}


def retried(**policy) -> Callable[[Task], Task]:
    """Make a task retryable: ``@retried(attempts=…, backoff=…, factor=…, max_delay=…,
    retry_on=(SomeError,))`` above its ``@task``."""
    rules = RetryPolicy(**policy)
    if rules.attempts < 1:
        raise ValueError("attempts must be at least 1")

    def register(task: Task) -> Task:
        _policies[task.module_path] = rules
        return task

    return register


def retry_policy(task_path: str) -> RetryPolicy | None:
    """The retry policy of the task at ``task_path``; None: it is not retried."""
    return _policies.get(task_path)


def task_failed(sender, task_result: TaskResult, **kwargs) -> None:
    """``task_finished`` receiver. It must never raise: the worker (and the ImmediateBackend, in
    a request) sends the signal unguarded."""
    if task_result.status != TaskResultStatus.FAILED:
        return
    try:
        _failure_handle(task_result)
    except Exception as exc:
        logger.error(
            "Could not record or retry the failed job %s: %s",
            task_result.id,
            exc.__class__.__name__,
        )


def _failure_handle(task_result: TaskResult) -> None:
    from apps.core.models import JobFailure

    result_id = str(task_result.id)
    if JobFailure.objects.filter(result_id=result_id).exists():
        return  # told twice: recorded once
    task = task_result.task
    path = task.module_path
    previous = JobFailure.objects.filter(retry_id=result_id).only("attempt").first()
    run = previous.attempt + 1 if previous else 1
    exception_path, error = _error(task_result)
    failure = JobFailure(
        result_id=result_id, task_path=path, attempt=run, error=error, failed_at=timezone.now()
    )
    policy = retry_policy(path)
    if policy is None:
        failure.gave_up = "The task is not retryable."
    elif run >= policy.attempts:
        failure.gave_up = f"Gave up after {run} runs."
    elif not _is_retried(exception_path, policy):
        failure.gave_up = f"{exception_path.rpartition('.')[2]} is not retried."
    elif not task.get_backend().supports_defer:
        failure.gave_up = "The task backend cannot run a job later, so it is not retried."
    if failure.gave_up:
        failure.save()
        logger.error(
            "Job %s (%s) failed, run %d: %s %s",
            result_id,
            path,
            run,
            _redact(error),
            failure.gave_up,
        )
        return
    assert policy is not None
    retry_at = failure.failed_at + policy.delay(run)
    with transaction.atomic():
        retry = task.using(run_after=retry_at).enqueue(*task_result.args, **task_result.kwargs)
        failure.retry_id = str(retry.id)
        failure.retry_at = retry_at
        failure.save()
    logger.warning(
        "Job %s (%s) failed, run %d of %d: %s Retried at %s.",
        result_id,
        path,
        run,
        policy.attempts,
        _redact(error),
        retry_at.isoformat(timespec="seconds"),
    )


def _error(task_result: TaskResult) -> tuple[str, str]:
    """The failed run's exception: its class path, and its last traceback line (``Error: …``)."""
    if not task_result.errors:
        return "", "(no error recorded)"
    last = task_result.errors[-1]
    lines = last.traceback.strip().splitlines()
    return last.exception_class_path, (lines[-1] if lines else last.exception_class_path)[:2000]


def _redact(text: str) -> str:
    """The log keeps which mail failed, not whose: ``ada@example.com`` → ``a***@example.com``."""
    return _ADDRESS.sub(r"\1***@", text)


def _is_retried(exception_path: str, policy: RetryPolicy) -> bool:
    from django.utils.module_loading import import_string

    try:
        exception_class = import_string(exception_path)
    except ImportError:
        return False
    return isinstance(exception_class, type) and issubclass(exception_class, policy.retry_on)


def connect() -> None:
    """Called once, from the core app's ready()."""
    task_finished.connect(task_failed, dispatch_uid="core.jobs.task_failed")
