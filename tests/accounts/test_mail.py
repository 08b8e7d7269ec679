"""apps/accounts/mail.py: a mail server that refuses or never answers costs the learner nothing
but the mail — never a 500, never a hung request — and the admin sees what failed."""

import logging
import re
import time

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.mail import EmailMessage
from django.urls import reverse

from apps.accounts.mail import ConsoleBackend, redact
from apps.accounts.models import UndeliveredMail
from tests.smtp_servers import closed_port, hung_server, refuse_service, scripted_server

PASSWORD = "a brand new passphrase 77"
NOTICE = "We could not send you the mail just now"


@pytest.fixture
def smtp_at(settings):
    """Point the site's mail at 127.0.0.1:PORT over plain SMTP, with a 1-second timeout."""

    def point(port):
        settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
        settings.EMAIL_HOST = "127.0.0.1"
        settings.EMAIL_PORT = port
        settings.EMAIL_HOST_USER = ""
        settings.EMAIL_HOST_PASSWORD = ""
        settings.EMAIL_USE_TLS = False
        settings.EMAIL_USE_SSL = False
        settings.EMAIL_TIMEOUT = 1

    return point


def _sign_up(client, email="new@example.com"):
    return client.post(
        reverse("account_signup"), {"email": email, "password1": PASSWORD, "password2": PASSWORD}
    )


def _failure_records(caplog):
    return [r for r in caplog.records if r.name == "apps.accounts.mail"]


@pytest.mark.django_db
@pytest.mark.parametrize("server", ["refused", "554"])
def test_sign_up_with_a_refusing_mail_server_completes_and_says_the_mail_did_not_leave(
    client, smtp_at, caplog, server
):
    caplog.set_level(logging.INFO, logger="apps.accounts.mail")
    if server == "refused":
        smtp_at(closed_port())
        response = _sign_up(client)
    else:
        with scripted_server(refuse_service) as port:
            smtp_at(port)
            response = _sign_up(client)

    assert response.status_code == 302
    assert response["Location"] == reverse("account_email_verification_sent")
    page = client.get(response["Location"])
    assert page.status_code == 200
    assert NOTICE in page.content.decode()
    assert "sign in with your address and password and a new confirmation mail is sent" in (
        page.content.decode()
    )
    # The account is there, waiting for its confirmation.
    assert not EmailAddress.objects.get(email="new@example.com").verified
    # The admin sees which mail failed and why; the log has one line, address redacted.
    record = UndeliveredMail.objects.get()
    assert record.recipient == "new@example.com"
    assert record.subject.startswith("[Syllabus] ")
    assert record.reason
    lines = _failure_records(caplog)
    assert len(lines) == 1
    assert lines[0].levelname == "ERROR"
    assert lines[0].exc_info is None
    assert "n***@example.com" in lines[0].getMessage()
    assert "new@example.com" not in lines[0].getMessage()


@pytest.mark.django_db
def test_sign_up_with_a_mail_server_that_never_answers_returns_within_the_timeout(
    client, smtp_at, caplog
):
    with hung_server() as port:
        smtp_at(port)
        started = time.monotonic()
        response = _sign_up(client)
        elapsed = time.monotonic() - started

    # The test client sends the mail as a WSGI server does, after the response (on close());
    # a real learner has their page before that. Either way nothing waits past EMAIL_TIMEOUT.
    assert response.status_code == 302
    assert elapsed < 1 + 1.5, f"sign-up took {elapsed:.1f} s with EMAIL_TIMEOUT=1"
    assert NOTICE in client.get(response["Location"]).content.decode()
    assert UndeliveredMail.objects.get().reason.startswith(
        ("TimeoutError", "SMTPServerDisconnected")
    )
    assert len(_failure_records(caplog)) == 1


@pytest.mark.django_db
def test_password_reset_with_a_refusing_mail_server_says_to_ask_again(client, smtp_at, learner):
    smtp_at(closed_port())

    response = client.post(reverse("account_reset_password"), {"email": learner.email})

    assert response.status_code == 302
    page = client.get(response["Location"]).content.decode()
    assert NOTICE in page
    assert "Ask for the reset again in a few minutes." in page
    assert UndeliveredMail.objects.get().recipient == learner.email


@pytest.mark.django_db
def test_no_notice_when_the_mail_left(client):
    response = _sign_up(client)

    assert len(mail.outbox) == 1
    assert NOTICE not in client.get(response["Location"]).content.decode()
    assert not UndeliveredMail.objects.exists()


@pytest.mark.django_db
def test_another_visitor_is_not_told_of_someone_elses_failed_mail(client, smtp_at):
    smtp_at(closed_port())
    _sign_up(client)

    from django.test import Client

    stranger = Client()
    _sign_up(stranger, email="second@example.com")  # the same failure, their own notice
    fresh = Client().get(reverse("account_email_verification_sent"))
    assert NOTICE not in fresh.content.decode()


def test_redact_keeps_the_domain_and_the_first_letter():
    assert redact("ada@example.com") == "a***@example.com"
    assert redact("not-an-address") == "***"


def test_the_console_prints_a_long_link_on_one_line():
    import io

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


@pytest.mark.django_db
def test_the_confirmation_link_of_a_sign_up_is_one_line_of_the_console(client, settings, capsys):
    settings.EMAIL_BACKEND = "apps.accounts.mail.ConsoleBackend"

    _sign_up(client)

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
