"""apps/core/mail.py: every mail becomes a job holding the whole message, which the job sends
through EMAIL_DELIVERY_BACKEND as it was written."""

import io

import pytest
from django.core import mail
from django.core.mail import EmailMessage, EmailMultiAlternatives, send_mail
from django.core.mail.message import EmailAttachment
from django_tasks_db.models import DBTaskResult

from apps.core.mail import ConsoleBackend, JobBackend, message_data, message_from_data


@pytest.fixture
def mail_as_jobs(settings):
    settings.EMAIL_BACKEND = "apps.core.mail.JobBackend"
    settings.EMAIL_DELIVERY_BACKEND = "django.core.mail.backends.locmem.EmailBackend"


def test_a_message_survives_the_job_whole():
    message = EmailMultiAlternatives(
        "Subject — ünïcode",
        "Plain body\nhttp://example.com/" + "x" * 120,
        "Syllabus <syllabus@example.com>",
        ["ada@example.com"],
        cc=["cc@example.com"],
        bcc=["bcc@example.com"],
        reply_to=["reply@example.com"],
        headers={"X-Tag": "sign-up"},
    )
    message.attach_alternative("<p>HTML body</p>", "text/html")

    again = message_from_data(message_data(message))

    assert (again.subject, again.body, again.from_email, again.to, again.cc, again.bcc) == (
        message.subject,
        message.body,
        message.from_email,
        message.to,
        message.cc,
        message.bcc,
    )
    assert again.reply_to == ["reply@example.com"]
    assert again.extra_headers == {"X-Tag": "sign-up"}
    assert list(again.alternatives) == [("<p>HTML body</p>", "text/html")]


def test_an_html_only_message_stays_html():
    message = EmailMessage("S", "<p>Hi</p>", "a@example.com", ["b@example.com"])
    message.content_subtype = "html"

    assert message_from_data(message_data(message)).content_subtype == "html"


def test_a_message_with_an_attachment_is_refused_clearly():
    message = EmailMessage("S", "B", "a@example.com", ["b@example.com"])
    message.attachments.append(EmailAttachment("a.txt", "text", "text/plain"))

    with pytest.raises(ValueError, match="cannot carry attachments"):
        message_data(message)


@pytest.mark.django_db
def test_send_mail_anywhere_in_the_site_becomes_a_job_sent_by_the_worker(
    mail_as_jobs, run_jobs, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        assert send_mail("Digest", "Body", None, ["cora@example.com"]) == 1

    assert mail.outbox == []
    job = DBTaskResult.objects.get()
    assert (job.task_path, job.status) == ("apps.core.tasks.mail_send", "READY")
    assert job.args_kwargs["args"][0]["subject"] == "Digest"

    run_jobs()

    assert [(m.subject, m.to) for m in mail.outbox] == [("Digest", ["cora@example.com"])]
    assert DBTaskResult.objects.get().status == "SUCCESSFUL"


@pytest.mark.django_db
def test_a_mail_written_in_a_transaction_that_rolls_back_is_never_sent(
    mail_as_jobs, database_queue, django_capture_on_commit_callbacks
):
    from django.db import transaction

    with (
        django_capture_on_commit_callbacks(execute=True),
        pytest.raises(RuntimeError),
        transaction.atomic(),
    ):
        send_mail("Never", "Body", None, ["a@example.com"])
        raise RuntimeError("the sign-up failed")

    assert not DBTaskResult.objects.exists()


def test_a_message_without_recipients_makes_no_job():
    assert JobBackend().send_messages([EmailMessage("S", "B", "a@example.com", [])]) == 0


def test_the_console_prints_a_long_link_on_one_line():
    link = (
        "http://syllabus.example.lan:8000/accounts/confirm-email/" + "MjY:1vOa3b:" + "x" * 60 + "/"
    )
    stream = io.StringIO()
    backend = ConsoleBackend(stream=stream)
    backend.send_messages(
        [
            EmailMessage(
                "Confirm", f"Hello — confirm here:\n\n{link}\n", "a@example.com", ["b@example.com"]
            )
        ]
    )

    printed = stream.getvalue()
    assert link in printed.splitlines()
    assert "=\n" not in printed
    assert "Hello — confirm here:" in printed  # 8-bit text, not quoted-printable's =E2=80=94
