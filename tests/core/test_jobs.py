"""apps/core/jobs.py: a failed job is recorded, and a retryable one is run again after a growing
wait until its attempts are used up; nothing fails silently, whatever the backend."""

import logging
from datetime import timedelta

import pytest
from django.tasks import task
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from apps.core.jobs import RetryPolicy, retried, retry_policy
from apps.core.models import JobFailure

calls: list[str] = []


@retried(attempts=3, backoff=timedelta(minutes=2), factor=5)
@task
def flaky(key: str, failures: int) -> str:
    """Fails its first ``failures`` runs (counted per key), then succeeds."""
    calls.append(key)
    if calls.count(key) <= failures:
        raise ConnectionError(f"upstream down for {key} (ada@example.com)")
    return key


@retried(attempts=5, retry_on=(ConnectionError,))
@task
def refuses(reason: str) -> None:
    raise ValueError(reason)


@task
def not_retryable() -> None:
    raise RuntimeError("broken for good")


@pytest.fixture(autouse=True)
def _calls():
    calls.clear()


def _make_due(job_id):
    DBTaskResult.objects.filter(id=job_id).update(run_after=timezone.now() - timedelta(seconds=1))


def test_the_wait_grows_by_the_factor_and_stops_at_the_cap():
    policy = RetryPolicy(backoff=timedelta(minutes=1), factor=3, max_delay=timedelta(minutes=30))
    assert [policy.delay(run) for run in (1, 2, 3, 4, 5)] == [
        timedelta(minutes=1),
        timedelta(minutes=3),
        timedelta(minutes=9),
        timedelta(minutes=27),
        timedelta(minutes=30),
    ]


def test_which_tasks_are_retryable():
    assert retry_policy(flaky.module_path).attempts == 3
    assert retry_policy("apps.core.tasks.mail_send").attempts == 6
    assert retry_policy(not_retryable.module_path) is None
    with pytest.raises(ValueError, match="at least 1"):
        retried(attempts=0)


@pytest.mark.django_db
def test_a_failed_run_is_retried_after_the_backoff_and_succeeds(run_jobs, caplog):
    caplog.set_level(logging.INFO)
    first = flaky.enqueue("a", 1)

    run_jobs()

    failure = JobFailure.objects.get()
    assert (failure.result_id, failure.attempt, failure.gave_up) == (first.id, 1, "")
    assert failure.error == "ConnectionError: upstream down for a (ada@example.com)"
    retry = DBTaskResult.objects.get(id=failure.retry_id)
    assert retry.args_kwargs == {"args": ["a", 1], "kwargs": {}}
    assert retry.run_after == failure.retry_at == failure.failed_at + timedelta(minutes=2)
    run_jobs()
    assert calls == ["a"]  # not due yet

    _make_due(retry.id)
    run_jobs()

    assert calls == ["a", "a"]
    assert DBTaskResult.objects.get(id=retry.id).status == "SUCCESSFUL"
    assert JobFailure.objects.count() == 1
    # The log: one line from Django's logger, one of ours, no traceback, no address.
    assert "failed, run 1 of 3: ConnectionError: upstream down for a (a***@example.com)" in (
        caplog.text
    )
    assert "ada@example.com" not in caplog.text
    assert "Traceback" not in caplog.text


@pytest.mark.django_db
def test_a_job_that_keeps_failing_is_given_up_after_its_attempts(run_jobs):
    flaky.enqueue("b", 99)

    for _ in range(3):
        run_jobs()
        for job in DBTaskResult.objects.filter(status="READY"):
            _make_due(job.id)

    failures = list(JobFailure.objects.order_by("attempt"))
    assert [f.attempt for f in failures] == [1, 2, 3]
    assert [f.retry_at - f.failed_at for f in failures[:2]] == [
        timedelta(minutes=2),
        timedelta(minutes=10),
    ]
    assert failures[-1].retry_id == ""
    assert failures[-1].gave_up == "Gave up after 3 runs."
    assert DBTaskResult.objects.filter(status="FAILED").count() == 3
    assert not DBTaskResult.objects.filter(status="READY").exists()


@pytest.mark.django_db
def test_an_exception_the_policy_does_not_retry_is_recorded_and_given_up(run_jobs):
    refuses.enqueue("bad input")
    not_retryable.enqueue()

    run_jobs()

    gave_up = dict(JobFailure.objects.values_list("task_path", "gave_up"))
    assert gave_up == {
        refuses.module_path: "ValueError is not retried.",
        not_retryable.module_path: "The task is not retryable.",
    }
    assert not DBTaskResult.objects.filter(status="READY").exists()


@pytest.mark.django_db
def test_on_the_immediate_backend_a_failure_is_recorded_and_never_raised_to_the_caller():
    result = flaky.enqueue("c", 1)  # runs here and now, as in a request

    assert result.status == "FAILED"
    failure = JobFailure.objects.get()
    assert failure.gave_up == "The task backend cannot run a job later, so it is not retried."


@pytest.mark.django_db
def test_recording_a_failure_that_cannot_be_written_is_logged_not_raised(monkeypatch, caplog):
    def broken(*args, **kwargs):
        raise RuntimeError("database gone")

    monkeypatch.setattr(JobFailure, "save", broken)

    result = not_retryable.enqueue()

    assert result.status == "FAILED"
    assert "Could not record or retry the failed job" in caplog.text
