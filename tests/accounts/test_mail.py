"""The mail a learner asks for (sign-up confirmation, password reset) is a job: the request never
talks to the mail server, the page says the mail is on its way, and a mail server that refuses or
never answers costs the learner a delay, not the mail: the job is retried with backoff, each
failure is listed in the admin, and the mail leaves once the server is back (apps/core/mail.py,
apps/core/jobs.py)."""

import logging
import re
import time
from datetime import timedelta

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.core import mail
from django.urls import reverse
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from apps.core.models import JobFailure
from tests.smtp_servers import closed_port, hung_server, recording, scripted_server

PASSWORD = "a brand new passphrase 77"
ON_ITS_WAY = "We’re sending you a mail with a link to confirm your address"


@pytest.fixture
def smtp_at(settings, database_queue):
    """Mail goes through jobs on the database queue, delivered over plain SMTP to
    127.0.0.1:PORT with a 1-second timeout."""
    settings.EMAIL_BACKEND = "apps.core.mail.JobBackend"

    def point(port):
        settings.EMAIL_DELIVERY_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
        settings.EMAIL_HOST = "127.0.0.1"
        settings.EMAIL_PORT = port
        settings.EMAIL_HOST_USER = ""
        settings.EMAIL_HOST_PASSWORD = ""
        settings.EMAIL_USE_TLS = False
        settings.EMAIL_USE_SSL = False
        settings.EMAIL_TIMEOUT = 1

    return point


@pytest.fixture
def sign_up(client, django_capture_on_commit_callbacks):
    def post(email="new@example.com"):
        with django_capture_on_commit_callbacks(execute=True):
            return client.post(
                reverse("account_signup"),
                {"email": email, "password1": PASSWORD, "password2": PASSWORD},
            )

    return post


def _make_due(job_id):
    DBTaskResult.objects.filter(id=job_id).update(run_after=timezone.now() - timedelta(seconds=1))


@pytest.mark.django_db
def test_sign_up_never_talks_to_the_mail_server_and_says_the_mail_is_on_its_way(
    client, smtp_at, sign_up, run_jobs
):
    connections = []
    with scripted_server(lambda conn: connections.append(conn.recv(1))) as port:
        smtp_at(port)
        response = sign_up()

        assert response.status_code == 302
        page = client.get(response["Location"]).content.decode()
        assert ON_ITS_WAY in page
        assert "We have sent" not in page
        assert not EmailAddress.objects.get(email="new@example.com").verified
        assert connections == []  # the request wrote the mail into a job, and sent nothing

        run_jobs()

    assert len(connections) == 1  # the worker did


@pytest.mark.django_db
def test_a_mail_server_that_never_answers_fails_the_run_within_the_timeout(
    smtp_at, sign_up, run_jobs
):
    with hung_server() as port:
        smtp_at(port)
        sign_up()
        started = time.monotonic()
        run_jobs()
        elapsed = time.monotonic() - started

    assert elapsed < 1 + 1.5, f"the run took {elapsed:.1f} s with EMAIL_TIMEOUT=1"
    failure = JobFailure.objects.get()
    assert failure.task_path == "apps.core.tasks.mail_send"
    assert failure.error.startswith(("TimeoutError", "smtplib.SMTPServerDisconnected"))
    assert failure.retry_id and not failure.gave_up


@pytest.mark.django_db
def test_a_refused_mail_is_retried_with_backoff_and_leaves_once_the_server_is_back(
    client, smtp_at, sign_up, run_jobs, caplog
):
    caplog.set_level(logging.INFO)
    smtp_at(closed_port())
    sign_up()
    run_jobs()

    failure = JobFailure.objects.get()
    assert (failure.attempt, failure.gave_up) == (1, "")
    assert failure.error.startswith("ConnectionRefusedError")
    retry = DBTaskResult.objects.get(id=failure.retry_id)
    assert retry.status == "READY"
    assert timedelta(seconds=50) < retry.run_after - failure.failed_at <= timedelta(minutes=1)
    run_jobs()  # not due yet: nothing runs
    assert DBTaskResult.objects.get(id=failure.retry_id).status == "READY"

    delivered = []
    with scripted_server(recording(delivered)) as port:
        smtp_at(port)
        _make_due(failure.retry_id)
        run_jobs()

    assert DBTaskResult.objects.get(id=failure.retry_id).status == "SUCCESSFUL"
    assert len(delivered) == 1
    assert b"To: new@example.com" in delivered[0]
    assert b"/accounts/confirm-email/" in delivered[0]
    assert JobFailure.objects.count() == 1
    # The log says which job failed and when it runs again, never whose mail it was.
    assert "failed, run 1 of 6" in caplog.text
    assert "new@example.com" not in caplog.text


@pytest.mark.django_db
def test_password_reset_with_a_refusing_mail_server_is_a_failed_job_the_admin_sees(
    client, smtp_at, run_jobs, learner, superuser, django_capture_on_commit_callbacks
):
    smtp_at(closed_port())

    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("account_reset_password"), {"email": learner.email})

    assert response.status_code == 302
    page = client.get(response["Location"]).content.decode()
    assert "We’re sending a mail to the address you gave" in page
    assert "ask for the reset again" in page
    run_jobs()

    client.force_login(superuser)
    listed = client.get(reverse("admin:core_jobfailure_changelist")).content.decode()
    assert "apps.core.tasks.mail_send" in listed
    assert "ConnectionRefusedError" in listed


@pytest.mark.django_db
def test_with_the_mail_server_up_the_mail_leaves_on_the_first_run(
    client, smtp_at, sign_up, run_jobs
):
    delivered = []
    with scripted_server(recording(delivered)) as port:
        smtp_at(port)
        sign_up()
        assert delivered == []  # not in the request
        run_jobs()

    assert len(delivered) == 1
    assert not JobFailure.objects.exists()
    assert mail.outbox == []


@pytest.mark.django_db
def test_the_confirmation_link_of_a_sign_up_is_one_line_of_the_console(settings, sign_up, capsys):
    settings.EMAIL_BACKEND = "apps.core.mail.JobBackend"
    settings.EMAIL_DELIVERY_BACKEND = "apps.core.mail.ConsoleBackend"

    sign_up()  # the ImmediateBackend: the job runs as soon as it is enqueued

    printed = capsys.readouterr().out
    links = [line for line in printed.splitlines() if "/accounts/confirm-email/" in line]
    assert len(links) == 1
    assert re.fullmatch(r"https?://testserver/accounts/confirm-email/[^\s=]+/", links[0].strip())


@pytest.mark.django_db
def test_a_createsuperuser_admin_reaches_the_admin_without_a_confirmation_mail(client, monkeypatch):
    from django.core.management import call_command

    monkeypatch.setenv("DJANGO_SUPERUSER_PASSWORD", PASSWORD)
    call_command(
        "createsuperuser", interactive=False, username="root", email="root@example.com", verbosity=0
    )

    response = client.post(
        reverse("account_login"), {"login": "root@example.com", "password": PASSWORD}
    )

    assert response.status_code == 302
    assert response["Location"] != reverse("account_email_verification_sent")
    assert client.get("/admin/").status_code == 200
    assert not mail.outbox
    address = EmailAddress.objects.get(user__username="root")
    assert (address.email, address.verified, address.primary) == ("root@example.com", True, True)


@pytest.mark.django_db
def test_a_learner_without_a_confirmed_address_must_still_confirm_it(client):
    user = get_user_model().objects.create_user("lee", "lee@example.com", PASSWORD)

    response = client.post(
        reverse("account_login"), {"login": "lee@example.com", "password": PASSWORD}
    )

    assert response["Location"] == reverse("account_email_verification_sent")
    assert not EmailAddress.objects.get(user=user).verified


@pytest.mark.django_db
def test_a_superuser_never_takes_over_an_address_someone_else_has(client, learner, monkeypatch):
    monkeypatch.setenv("DJANGO_SUPERUSER_PASSWORD", PASSWORD)
    from django.core.management import call_command

    call_command(
        "createsuperuser", interactive=False, username="root", email=learner.email, verbosity=0
    )

    response = client.post(reverse("account_login"), {"login": "root", "password": PASSWORD})

    assert EmailAddress.objects.filter(email__iexact=learner.email).count() == 1
    assert not EmailAddress.objects.filter(user__username="root").exists()
    assert response.status_code in (200, 302)
