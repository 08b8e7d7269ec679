"""Sign-up does not tell who has an account: a known address and a new one get the same page,
the same work done, and their mail after the response (apps/accounts/forms.py, mail.py)."""

import re

import pytest
from django.core import mail
from django.core.mail import EmailMessage
from django.core.signals import request_finished, request_started
from django.test import Client
from django.urls import reverse

from apps.accounts import mail as mail_module
from apps.accounts.mail import send_after_response
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


def test_sign_up_mail_is_sent_after_the_response(known, monkeypatch):
    sent_while_answering = []
    send = EmailMessage.send

    def recording_send(self, *args, **kwargs):
        # during the request the thread's queue is a list; the flush at its end empties it first
        sent_while_answering.append(mail_module._queue.messages is not None)
        return send(self, *args, **kwargs)

    monkeypatch.setattr(EmailMessage, "send", recording_send)
    sign_up(KNOWN)
    sign_up(NEW)
    assert sent_while_answering == [False, False]


def test_mail_asked_for_in_a_request_is_sent_after_it():
    assert request_started.has_listeners() and request_finished.has_listeners()
    mail_module._request_started()
    send_after_response(EmailMessage("Hello", "Body", to=["a@example.com"]))
    assert mail.outbox == []  # not while the request is being answered
    mail_module._request_finished()
    assert [m.subject for m in mail.outbox] == ["Hello"]


def test_mail_outside_a_request_is_sent_at_once():
    send_after_response(EmailMessage("Now", "Body", to=["a@example.com"]))
    assert [m.subject for m in mail.outbox] == ["Now"]


@pytest.mark.django_db
def test_a_failed_send_after_the_response_is_logged_in_one_line_and_recorded(caplog, monkeypatch):
    from apps.accounts.models import UndeliveredMail

    def fail(self, *args, **kwargs):
        raise OSError("mail server down")

    monkeypatch.setattr(EmailMessage, "send", fail)
    mail_module._request_started()
    send_after_response(EmailMessage("Lost", "Body", to=["a@example.com"]))
    mail_module._request_finished()
    assert "Mail not sent to a***@example.com ('Lost'): OSError: mail server down" in caplog.text
    assert "Traceback" not in caplog.text
    assert UndeliveredMail.objects.get().recipient == "a@example.com"
