"""Signing up in a real browser: the form, the confirmation email, the confirm page, signed in."""

import re
import time

import pytest
from django.core import mail
from django.core.cache import cache

PASSWORD = "a long and unusual passphrase 31"


@pytest.fixture(autouse=True)
def _fresh_rate_limits():
    cache.clear()
    yield
    cache.clear()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_sign_up_confirm_and_land_signed_in(page, live_server):
    console_errors = []
    page.on(
        "console",
        lambda message: console_errors.append(message.text) if message.type == "error" else None,
    )

    page.goto(f"{live_server.url}/accounts/signup/")
    page.get_by_label("Email").fill("reader@example.com")
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password (again)").fill(PASSWORD)
    page.get_by_role("button", name="Sign Up").click()

    page.wait_for_url("**/accounts/confirm-email/")
    assert page.get_by_role("heading", level=1).inner_text().strip() == "Verify your email address"

    # the mail is a job (apps/core/mail.py; the tests' ImmediateBackend runs it on commit, and
    # the tests send through locmem): give it a moment
    deadline = time.monotonic() + 5
    while not mail.outbox and time.monotonic() < deadline:
        time.sleep(0.02)
    assert len(mail.outbox) == 1
    assert mail.outbox[0].to == ["reader@example.com"]
    link = re.search(r"https?://\S+/accounts/confirm-email/\S+", mail.outbox[0].body).group(0)

    page.goto(link)
    assert "reader@example.com" in page.locator("main").inner_text()
    page.get_by_role("button", name="Confirm").click()

    page.wait_for_url(f"{live_server.url}/")
    page.goto(f"{live_server.url}/account/")
    assert page.get_by_role("heading", level=1).inner_text().strip() == "Your account"
    assert "reader@example.com" in page.locator("main").inner_text()
    assert console_errors == [], "no CSP violations or script errors along the way"
