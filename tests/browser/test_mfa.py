"""Passkeys and second factors in Chromium under the site's strict CSP (no console errors, so
no CSP violation): a virtual authenticator (Chrome DevTools' WebAuthn domain) stands in for a
phone or security key; the authenticator app's codes are computed from the secret on the page."""

import importlib
import re
import time

import pytest
from allauth.mfa.models import Authenticator
from allauth.mfa.recovery_codes.internal.auth import RecoveryCodes
from django.core import mail
from django.core.cache import cache
from django.urls import clear_url_caches
from playwright.sync_api import expect

from tests.accounts.test_mfa import totp_code
from tests.factories import PASSWORD, UserFactory
from tests.oidc_server import fake_oidc_server

SHOTS = "/tmp/shots-auth"


@pytest.fixture(autouse=True)
def _fresh_rate_limits():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def console_errors(page):
    errors = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return errors


@pytest.fixture
def authenticator(page):
    """A platform authenticator with user verification (a phone's or laptop's passkeys)."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("WebAuthn.enable")
    added = cdp.send(
        "WebAuthn.addVirtualAuthenticator",
        {
            "options": {
                "protocol": "ctap2",
                "transport": "internal",
                "hasResidentKey": True,
                "hasUserVerification": True,
                "isUserVerified": True,
                "automaticPresenceSimulation": True,
            }
        },
    )
    return cdp, added["authenticatorId"]


def sign_in_with_password(page, live_server, email):
    page.goto(f"{live_server.url}/accounts/login/")
    page.get_by_label("Email").fill(email)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in", exact=True).click()


def log_out(page, live_server):
    page.get_by_role("button", name="Log out").click()
    page.wait_for_url(f"{live_server.url}/")
    expect(page.get_by_role("link", name="Sign in")).to_be_visible()


def confirm_password_if_asked(page):
    if "/accounts/reauthenticate/" in page.url:
        page.get_by_label("Password").fill(PASSWORD)
        page.get_by_role("button", name="Confirm").click()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_add_a_passkey_sign_out_and_sign_in_with_it(
    page, live_server, authenticator, console_errors
):
    user = UserFactory(username="ada", email="ada@example.com")
    sign_in_with_password(page, live_server, user.email)
    page.wait_for_url(f"{live_server.url}/")

    page.goto(f"{live_server.url}/account/")
    page.get_by_role("link", name="Manage passkeys and 2FA").click()
    page.wait_for_url("**/accounts/2fa/")
    page.goto(f"{live_server.url}/accounts/2fa/webauthn/add/")
    confirm_password_if_asked(page)
    page.wait_for_url("**/accounts/2fa/webauthn/add/")
    page.get_by_label("Name").fill("Laptop")
    page.get_by_label("Passwordless").check()
    page.get_by_role("button", name="Add", exact=True).click()
    page.wait_for_url(lambda url: "/webauthn/add/" not in url)

    key = Authenticator.objects.get(user=user, type=Authenticator.Type.WEBAUTHN)
    assert key.wrap().is_passwordless is True
    cdp, authenticator_id = authenticator
    assert (
        len(
            cdp.send("WebAuthn.getCredentials", {"authenticatorId": authenticator_id})[
                "credentials"
            ]
        )
        == 1
    )

    page.goto(f"{live_server.url}/account/")
    log_out(page, live_server)

    page.goto(f"{live_server.url}/accounts/login/")
    page.get_by_role("button", name="Sign in with a passkey").click()
    page.wait_for_url(f"{live_server.url}/")
    page.goto(f"{live_server.url}/account/")
    assert page.get_by_role("heading", level=1).inner_text().strip() == "Your account"
    assert "ada@example.com" in page.locator("main").inner_text()
    assert console_errors == [], "no CSP violations or script errors"


@pytest.fixture
def passkey_signup(settings):
    """MFA_PASSKEY_SIGNUP_ENABLED=true, as the environment sets it: allauth decides its URLs at
    import, so they are built again (and once more afterwards, without)."""

    def rebuild_urls():
        for name in (
            "allauth.account.urls",
            "allauth.mfa.webauthn.urls",
            "allauth.mfa.urls",
            "allauth.urls",
            "config.urls",
        ):
            importlib.reload(importlib.import_module(name))
        clear_url_caches()

    settings.MFA_PASSKEY_SIGNUP_ENABLED = True
    settings.ACCOUNT_EMAIL_VERIFICATION_BY_CODE_ENABLED = True
    rebuild_urls()
    yield
    settings.MFA_PASSKEY_SIGNUP_ENABLED = False
    settings.ACCOUNT_EMAIL_VERIFICATION_BY_CODE_ENABLED = False
    rebuild_urls()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_sign_up_with_a_passkey_alone(
    page, live_server, authenticator, console_errors, passkey_signup
):
    page.goto(f"{live_server.url}/accounts/signup/")
    page.get_by_role("link", name="Sign up using a passkey").click()
    page.wait_for_url("**/accounts/signup/passkey/")
    page.get_by_label("Email").fill("grace@example.com")
    page.get_by_role("button", name="Sign up").click()

    deadline = time.monotonic() + 5
    while not mail.outbox and time.monotonic() < deadline:
        time.sleep(0.02)
    code = re.search(r"^([A-Z0-9]{4}-[A-Z0-9]{4})$", mail.outbox[-1].body, re.M).group(1)
    page.get_by_label("Code").fill(code)
    page.get_by_role("button", name="Confirm").click()

    page.wait_for_url("**/2fa/webauthn/signup/")
    page.get_by_role("button", name="Create passkey").click()
    page.wait_for_url(lambda url: "/webauthn/signup/" not in url)
    page.goto(f"{live_server.url}/account/")
    assert "grace@example.com" in page.locator("main").inner_text()
    user = Authenticator.objects.get(type=Authenticator.Type.WEBAUTHN).user
    assert user.email == "grace@example.com" and not user.has_usable_password()

    log_out(page, live_server)
    page.goto(f"{live_server.url}/accounts/login/")
    page.get_by_role("button", name="Sign in with a passkey").click()
    page.wait_for_url(f"{live_server.url}/")
    page.goto(f"{live_server.url}/account/")
    assert "grace@example.com" in page.locator("main").inner_text()
    assert console_errors == [], "no CSP violations or script errors"


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_authenticator_app_then_a_recovery_code_once(page, live_server, console_errors):
    user = UserFactory(username="ada", email="ada@example.com")
    sign_in_with_password(page, live_server, user.email)
    page.wait_for_url(f"{live_server.url}/")
    page.goto(f"{live_server.url}/accounts/2fa/totp/activate/")
    confirm_password_if_asked(page)
    page.wait_for_url("**/totp/activate/")
    qr = page.locator("img.img--qr")
    expect(qr).to_be_visible()
    assert qr.evaluate("img => img.complete && img.naturalWidth > 0"), (
        "the QR code loads under the CSP"
    )
    secret = page.get_by_label("Authenticator secret").input_value()
    page.get_by_label("Authenticator code").fill(totp_code(secret))
    page.get_by_role("button", name="Activate").click()
    page.wait_for_url(lambda url: "/totp/activate/" not in url)
    codes = RecoveryCodes(
        Authenticator.objects.get(user=user, type=Authenticator.Type.RECOVERY_CODES)
    ).get_unused_codes()

    page.goto(f"{live_server.url}/account/")
    log_out(page, live_server)
    sign_in_with_password(page, live_server, user.email)
    page.wait_for_url("**/accounts/2fa/authenticate/")
    page.get_by_label("Code").fill(totp_code(secret))
    page.get_by_role("button", name="Sign in", exact=True).click()
    page.wait_for_url(f"{live_server.url}/")

    log_out(page, live_server)
    sign_in_with_password(page, live_server, user.email)
    page.get_by_label("Code").fill(codes[0])
    page.get_by_role("button", name="Sign in", exact=True).click()
    page.wait_for_url(f"{live_server.url}/")

    log_out(page, live_server)
    sign_in_with_password(page, live_server, user.email)
    page.get_by_label("Code").fill(codes[0])
    page.get_by_role("button", name="Sign in", exact=True).click()
    expect(page.locator(".field-errors, .notice--error").first).to_be_visible()
    assert "/accounts/2fa/authenticate/" in page.url
    assert console_errors == [], "no CSP violations or script errors"


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_sign_in_with_the_oidc_server_in_the_browser(page, live_server, settings, console_errors):
    """The sign-in form posts to us and is redirected to the provider: the CSP's form-action
    must allow its origin (config/oidc.py), or Chromium blocks the redirect."""
    from tests.accounts.test_oidc import PERSON, configure

    with fake_oidc_server(person=PERSON) as server:
        form_action = configure(settings, server.url, name="Keycloak")
        settings.SECURE_CSP = {
            **settings.SECURE_CSP,
            "form-action": [*settings.SECURE_CSP["form-action"], *form_action],
        }
        page.goto(f"{live_server.url}/accounts/login/")
        page.get_by_role("button", name="Continue with Keycloak").click()
        page.wait_for_url(f"{live_server.url}/")
        page.goto(f"{live_server.url}/account/")
        assert "grace@example.com" in page.locator("main").inner_text()
    assert console_errors == [], "no CSP violations or script errors"
