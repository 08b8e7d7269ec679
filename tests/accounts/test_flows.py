"""allauth's flows end to end through our settings and templates: sign up, confirm, log in/out, passwords."""

import re

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.core import mail
from django.urls import reverse

NEW_PASSWORD = "a brand new passphrase 77"


def _link_in(message, path_fragment):
    match = re.search(rf"https?://[^\s]*{re.escape(path_fragment)}[^\s]*", message.body)
    assert match, f"no link containing {path_fragment!r} in:\n{message.body}"
    return match.group(0).removeprefix("http://testserver")


def _is_logged_in(client):
    return client.get(reverse("accounts:account")).status_code == 200


@pytest.mark.django_db
def test_sign_up_confirm_log_out_and_log_in_again(client):
    response = client.post(
        reverse("account_signup"),
        {"email": "new@example.com", "password1": NEW_PASSWORD, "password2": NEW_PASSWORD},
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("account_email_verification_sent")
    assert not _is_logged_in(client), (
        "verification is mandatory: no session before the email is confirmed"
    )

    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["new@example.com"]
    assert message.subject.startswith("[Syllabus] ")
    confirm_path = _link_in(message, "/accounts/confirm-email/")

    page = client.get(confirm_path)
    assert page.status_code == 200
    assert b"Confirm email address" in page.content
    assert not EmailAddress.objects.get(email="new@example.com").verified, "GET must not confirm"

    confirmed = client.post(confirm_path)
    assert confirmed.status_code == 302
    assert EmailAddress.objects.get(email="new@example.com").verified
    assert _is_logged_in(client), "ACCOUNT_LOGIN_ON_EMAIL_CONFIRMATION logs the new learner in"

    logged_out = client.post(reverse("account_logout"))
    assert logged_out.status_code == 302
    assert not _is_logged_in(client)

    logged_in = client.post(
        reverse("account_login"), {"login": "new@example.com", "password": NEW_PASSWORD}
    )
    assert logged_in.status_code == 302
    assert logged_in["Location"] == "/"
    assert _is_logged_in(client)


def test_logout_on_get_only_asks(learner_client):
    response = learner_client.get(reverse("account_logout"))
    assert response.status_code == 200
    assert b'<form class="form"' in response.content
    assert _is_logged_in(learner_client)


@pytest.mark.django_db
def test_unverified_email_cannot_log_in(client, learner, password):
    EmailAddress.objects.filter(user=learner).update(verified=False)
    response = client.post(reverse("account_login"), {"login": learner.email, "password": password})
    assert response.status_code == 302
    assert response["Location"] == reverse("account_email_verification_sent")
    assert not _is_logged_in(client)
    assert len(mail.outbox) == 1, "a fresh verification email is sent"


@pytest.mark.django_db
def test_wrong_password_shows_an_error_in_the_form(client, learner):
    response = client.post(reverse("account_login"), {"login": learner.email, "password": "not it"})
    assert response.status_code == 200
    assert b'class="notice notice--error"' in response.content
    assert b"not correct" in response.content
    assert not _is_logged_in(client)


@pytest.mark.django_db
def test_mail_greets_the_address_and_signs_with_the_site_name(client, learner, settings):
    """Not "Hello from 127.0.0.1:8860!" (the host the request reached) nor a username nobody chose."""
    settings.SITE_NAME, settings.SITE_URL = "Team reading", "https://learn.example.org"
    client.post(
        reverse("account_signup"),
        {"email": "new@example.com", "password1": NEW_PASSWORD, "password2": NEW_PASSWORD},
        HTTP_HOST="127.0.0.1",
    )
    client.post(reverse("account_reset_password"), {"email": learner.email}, HTTP_HOST="127.0.0.1")
    signup, reset = mail.outbox
    username = get_user_model().objects.get(email="new@example.com").get_username()
    assert signup.subject == "[Syllabus] Confirm your email address"
    assert reset.subject == "[Syllabus] Reset your password"
    for message, address in ((signup, "new@example.com"), (reset, learner.email)):
        assert message.body.startswith(f"Hello {address},\n")
        assert message.body.rstrip().endswith("Team reading\nhttps://learn.example.org")
        assert "127.0.0.1" not in message.body.replace("http://127.0.0.1/", "")
    for message, address, name in (
        (signup, "new@example.com", username),
        (reset, learner.email, learner.get_username()),
    ):
        assert not re.search(rf"\b{re.escape(name)}\b", message.body.replace(address, "")), name
    assert "gave this address to Team reading" in signup.body


@pytest.mark.django_db
def test_password_reset_by_email(client, learner):
    response = client.post(reverse("account_reset_password"), {"email": learner.email})
    assert response.status_code == 302
    assert response["Location"] == reverse("account_reset_password_done")
    assert len(mail.outbox) == 1
    reset_path = _link_in(mail.outbox[0], "/accounts/password/reset/key/")

    # allauth moves the key out of the URL into the session, then shows the form.
    form_page = client.get(reset_path, follow=True)
    assert form_page.status_code == 200
    assert b'name="password1"' in form_page.content
    action = form_page.redirect_chain[-1][0] if form_page.redirect_chain else reset_path

    done = client.post(action, {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD})
    assert done.status_code == 302
    assert done["Location"] == reverse("account_reset_password_from_key_done")
    learner.refresh_from_db()
    assert learner.check_password(NEW_PASSWORD)

    assert (
        client.post(
            reverse("account_login"), {"login": learner.email, "password": NEW_PASSWORD}
        ).status_code
        == 302
    )
    assert _is_logged_in(client)


@pytest.mark.django_db
def test_password_reset_link_works_once(client, learner):
    client.post(reverse("account_reset_password"), {"email": learner.email})
    reset_path = _link_in(mail.outbox[0], "/accounts/password/reset/key/")
    form_page = client.get(reset_path, follow=True)
    client.post(
        form_page.redirect_chain[-1][0], {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD}
    )
    client.logout()

    again = client.get(reset_path, follow=True)
    assert b"Bad token" in again.content


@pytest.mark.django_db
def test_password_reset_for_an_unknown_address_reveals_nothing(client):
    response = client.post(reverse("account_reset_password"), {"email": "nobody@example.com"})
    assert response.status_code == 302
    assert response["Location"] == reverse("account_reset_password_done")


def test_password_change(learner_client, learner, password):
    response = learner_client.post(
        reverse("account_change_password"),
        {"oldpassword": password, "password1": NEW_PASSWORD, "password2": NEW_PASSWORD},
    )
    assert response.status_code == 302
    learner.refresh_from_db()
    assert learner.check_password(NEW_PASSWORD)
    assert _is_logged_in(learner_client), "changing the password keeps this session"


def test_password_change_needs_the_current_password(learner_client, learner, password):
    response = learner_client.post(
        reverse("account_change_password"),
        {"oldpassword": "wrong", "password1": NEW_PASSWORD, "password2": NEW_PASSWORD},
    )
    assert response.status_code == 200
    assert b"field--invalid" in response.content
    learner.refresh_from_db()
    assert learner.check_password(password)


def test_add_an_email_address_sends_a_verification(learner_client, learner):
    response = learner_client.post(
        reverse("account_email"), {"action_add": "", "email": "second@example.com"}
    )
    assert response.status_code == 302
    added = EmailAddress.objects.get(user=learner, email="second@example.com")
    assert not added.verified and not added.primary
    assert mail.outbox[-1].to == ["second@example.com"]


def test_resend_verification_and_make_primary(learner_client, learner):
    EmailAddress.objects.create(
        user=learner, email="second@example.com", verified=True, primary=False
    )
    EmailAddress.objects.create(
        user=learner, email="third@example.com", verified=False, primary=False
    )

    learner_client.post(reverse("account_email"), {"action_send": "", "email": "third@example.com"})
    assert mail.outbox[-1].to == ["third@example.com"]

    learner_client.post(
        reverse("account_email"), {"action_primary": "", "email": "second@example.com"}
    )
    assert EmailAddress.objects.get_primary(learner).email == "second@example.com"
    assert get_user_model().objects.get(pk=learner.pk).email == "second@example.com"


# Headings, page titles, buttons and labels of every allauth page we expose, in sentence case.
_TITLE_CASE = re.compile(r"\b[A-Za-z][a-z]* [A-Z][a-z]+\b")  # "Sign In", "Reset My Password"


def _title_cased(html: str) -> list[str]:
    main = html.split('id="main"', 1)[1]
    found = re.findall(r"<title>([^<]*)</title>", html)
    for tag in ("h1", "h2", "button", "label", "a", "span"):
        found += re.findall(rf"<{tag}\b[^>]*>([^<]*)</{tag}>", main)
    return [" ".join(text.split()) for text in found if _TITLE_CASE.search(text)]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("signed_in", "url"),
    [
        (False, "/accounts/login/"),
        (False, "/accounts/signup/"),
        (True, "/accounts/logout/"),
        (False, "/accounts/password/reset/"),
        (False, "/accounts/password/reset/done/"),
        (False, "/accounts/password/reset/key/1-x/"),
        (True, "/accounts/email/"),
        (True, "/accounts/password/change/"),
        (False, "/accounts/confirm-email/"),
        (False, "/accounts/confirm-email/no-such-key/"),
    ],
)
def test_allauth_pages_speak_in_sentence_case(client, learner, signed_in, url):
    if signed_in:
        client.force_login(learner)
    response = client.get(url, follow=True)
    assert response.status_code == 200
    assert _title_cased(response.content.decode()) == []


def test_sentence_case_keeps_the_first_word_names_and_markup():
    from apps.accounts.templatetags.sentence_case import sentence_case

    assert sentence_case("\n  Reset My Password\n") == "\n  Reset my password\n"
    assert sentence_case("Sign In With GitHub") == "Sign in with GitHub"
    assert sentence_case('<span class="Big">New</span> Password (Again)') == (
        '<span class="Big">New</span> password (again)'
    )
    assert sentence_case("Welcome To Syllabus") == "Welcome to Syllabus"
