"""Sign-up does not tell who has an account: a known address and a new one get the same page,
the same work done, and their mail sent by a job, never in the request (apps/accounts/forms.py,
apps/core/mail.py)."""

import re

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from tests.factories import UserFactory

PASSWORD = "a brand new passphrase 77"
KNOWN, NEW = (
    "known@example.com",
    "newer@example.com",
)  # the same length: pages compare byte for byte


def sign_up(email):
    """The sign-up answer and the page it leads to, as a fresh browser sees them."""
    client = Client()
    answer = client.post(
        reverse("account_signup"), {"email": email, "password1": PASSWORD, "password2": PASSWORD}
    )
    return answer, client.get(answer["Location"])


def comparable(page, email):
    html = page.content.decode().replace(email, "ADDRESS")
    return re.sub(r'(?<=")[A-Za-z0-9]{64}(?=")', "CSRF", html)  # the per-response CSRF token


@pytest.fixture
def known(db):
    return UserFactory(username="known", email=KNOWN)


def test_a_known_and_a_new_address_get_the_same_answer_and_page(known):
    known_answer, known_page = sign_up(KNOWN)
    new_answer, new_page = sign_up(NEW)
    assert known_answer.status_code == new_answer.status_code == 302
    assert known_answer["Location"] == new_answer["Location"]
    assert f"Confirmation email sent to {KNOWN}" in known_page.content.decode()
    assert comparable(known_page, KNOWN) == comparable(new_page, NEW)


def test_a_second_try_within_the_mail_limit_still_gets_the_same_page(known):
    """allauth holds back a second mail to one address for minutes, and used to leave out the
    "Confirmation email sent" message with it: the sign of an address that has an account."""
    sign_up(KNOWN)
    sign_up(NEW)
    _, known_again = sign_up(KNOWN)
    _, new_again = sign_up(NEW)  # now a known (unconfirmed) address, limited the same way
    assert f"Confirmation email sent to {KNOWN}" in known_again.content.decode()
    assert comparable(known_again, KNOWN) == comparable(new_again, NEW)
    assert len(mail.outbox) == 2  # the limit still holds the mail back


def test_each_address_gets_the_right_mail(known):
    sign_up(KNOWN)
    sign_up(NEW)
    to_known, to_new = mail.outbox
    assert (to_known.to, to_new.to) == ([KNOWN], [NEW])
    assert "/accounts/confirm-email/" in to_new.body
    # the owner is told someone tried, and how to get back in; no account is made
    assert "/accounts/confirm-email/" not in to_known.body
    assert "/accounts/password/reset/" in to_known.body
    assert "already" in to_known.subject.lower() + to_known.body.lower()
    assert known.__class__.objects.filter(email=KNOWN).count() == 1


def test_a_known_address_costs_a_password_hash_like_a_new_one(known, monkeypatch):
    from django.contrib.auth.hashers import get_hasher

    hasher = get_hasher()  # the configured one (PBKDF2 in production, a fast one in tests)
    hashed, encode = [], hasher.encode
    monkeypatch.setattr(hasher, "encode", lambda *a, **kw: hashed.append(1) or encode(*a, **kw))
    sign_up(NEW)
    new_hashes = len(hashed)
    hashed.clear()
    sign_up(KNOWN)
    assert len(hashed) == new_hashes >= 1


@pytest.mark.django_db
def test_sign_up_mail_is_a_job_never_sent_in_the_request(
    known, settings, database_queue, django_capture_on_commit_callbacks
):
    from django_tasks_db.models import DBTaskResult

    settings.EMAIL_BACKEND = "apps.core.mail.JobBackend"
    settings.EMAIL_DELIVERY_BACKEND = "django.core.mail.backends.locmem.EmailBackend"

    with django_capture_on_commit_callbacks(execute=True):
        sign_up(KNOWN)
        sign_up(NEW)

    assert mail.outbox == []  # nothing talked to the mail server while answering
    jobs = DBTaskResult.objects.filter(task_path="apps.core.tasks.mail_send", status="READY")
    assert sorted(job.args_kwargs["args"][0]["to"][0] for job in jobs) == [KNOWN, NEW]
