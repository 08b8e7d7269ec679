"""apps/core/admin.py: superusers see every job with its state, run number and error, and every
failure with what was done about it; curators and learners see none (a mail job holds its
message)."""

from datetime import timedelta

import pytest
from django.tasks import task
from django.urls import reverse
from django_tasks_db.models import DBTaskResult

from apps.core.jobs import retried
from apps.core.models import JobFailure

JOBS = "admin:django_tasks_database_dbtaskresult_changelist"
FAILURES = "admin:core_jobfailure_changelist"


@retried(attempts=2, backoff=timedelta(minutes=5))
@task
def always_fails(n: int) -> None:
    raise ConnectionError(f"source {n} unreachable")


@pytest.mark.django_db
@pytest.mark.parametrize("name", [JOBS, FAILURES])
def test_curators_and_learners_are_refused_the_jobs(curator_client, learner, client, name):
    assert curator_client.get(reverse(name)).status_code == 403
    client.force_login(learner)
    assert client.get(reverse(name)).status_code == 302  # to the sign-in: not staff


@pytest.mark.django_db
def test_the_job_list_shows_state_run_and_error_in_fixed_queries(
    client, superuser, run_jobs, django_assert_num_queries
):
    client.force_login(superuser)
    always_fails.enqueue(1)
    run_jobs()
    url = reverse(JOBS)
    client.get(url)  # warm: the session and the admin's first-request work

    # session, user, the two counts, the page of jobs, their run numbers, the queue filter
    with django_assert_num_queries(7) as few:
        page = client.get(url).content.decode()
    for n in range(2, 12):
        always_fails.enqueue(n)
    run_jobs()
    with django_assert_num_queries(len(few.captured_queries)):
        page = client.get(url).content.decode()

    assert "always_fails" in page
    assert "ConnectionError: source 1 unreachable" in page
    assert page.count("FAILED") >= 11 or page.count("Failed") >= 11
    assert '<td class="field-run">2</td>' in page  # a retry is listed as the job's second run
    assert DBTaskResult.objects.filter(status="READY").count() == 11


@pytest.mark.django_db
def test_the_failure_list_says_when_it_is_retried_or_why_not(client, superuser, run_jobs):
    always_fails.enqueue(7)
    run_jobs()
    DBTaskResult.objects.filter(status="READY").update(run_after="2000-01-01T00:00:00Z")
    run_jobs()
    client.force_login(superuser)

    page = client.get(reverse(FAILURES)).content.decode()

    assert page.count("ConnectionError: source 7 unreachable") == 2
    assert "Gave up after 2 runs." in page
    assert JobFailure.objects.filter(gave_up="").count() == 1
