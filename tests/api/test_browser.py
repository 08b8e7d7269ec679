"""The API in a real browser: its docs page under the site's Content-Security-Policy with
nothing fetched from elsewhere, the token page (desktop and phone, light and dark), and a
signed-in page calling the API with its session and CSRF token."""

import os
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.conf import settings

from apps.api.models import ApiToken
from tests.conftest import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

VIEWPORTS = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}


def watch(page, live_server):
    """Console errors (a CSP violation shows up there), page errors, and every request's host
    that is not the live server's."""
    seen = {"problems": [], "elsewhere": []}
    here = urlsplit(live_server.url).netloc
    page.on(
        "console",
        lambda message: seen["problems"].append(message.text) if message.type == "error" else None,
    )
    page.on("pageerror", lambda error: seen["problems"].append(str(error)))
    page.on(
        "request",
        lambda request: (
            seen["elsewhere"].append(request.url)
            if urlsplit(request.url).scheme in ("http", "https")
            and urlsplit(request.url).netloc != here
            else None
        ),
    )
    return seen


def test_the_docs_page_works_under_the_csp_from_our_own_files(page, live_server, catalog):
    seen = watch(page, live_server)
    response = page.goto(live_server.url + "/api/v1/docs")
    assert "script-src 'self'" in response.headers["content-security-policy"]
    page.get_by_text("Syllabus API").first.wait_for()
    page.locator(".opblock-summary-path", has_text="/api/v1/guides").first.wait_for()
    # Reading an operation's detail works (the schema's models are rendered by Swagger UI).
    page.locator(".opblock-summary-path", has_text="/api/v1/me/progress/{uuid}").first.click()
    page.get_by_text("Set your status or note on a resource").first.wait_for()
    assert seen["problems"] == [], "no CSP violations or script errors"
    assert seen["elsewhere"] == [], "nothing fetched from a CDN or any other host"


def test_a_signed_in_page_calls_the_api_with_its_session_and_csrf_token(
    page, live_server, learner, catalog
):
    """What a page script of ours would do: the session cookie goes with the request, and a
    write carries the CSRF token the page holds."""
    sign_in(page, live_server, learner)
    page.goto(live_server.url + "/account/")
    shared = catalog["shared"]
    result = page.evaluate(
        """async (uuid) => {
            const csrf = document.querySelector("input[name=csrfmiddlewaretoken]").value;
            const url = `/api/v1/me/progress/${uuid}`;
            const body = JSON.stringify({status: "done"});
            const headers = {"Content-Type": "application/json"};
            const refused = await fetch(url, {method: "PATCH", body, headers});
            const done = await fetch(url, {
                method: "PATCH", body, headers: {...headers, "X-CSRFToken": csrf},
            });
            return [refused.status, done.status, (await done.json()).status];
        }""",
        str(shared.uuid),
    )
    assert result == [403, 200, "done"]


def test_the_token_page_makes_shows_once_and_revokes(page, live_server, learner):
    seen = watch(page, live_server)
    sign_in(page, live_server, learner)
    page.goto(live_server.url + "/account/")
    page.get_by_role("link", name="Manage API tokens").click()
    page.get_by_role("textbox", name="Name").fill("laptop script")
    page.get_by_role("button", name="Make token").click()
    secret = page.get_by_role("textbox", name="Your new token, shown once").input_value()
    assert secret.startswith("syl_") and len(secret) > 40
    assert page.get_by_text("Copy it now: it is not shown again.").is_visible()
    token = ApiToken.objects.get(user=learner)
    page.goto(live_server.url + "/account/tokens/")
    assert page.get_by_role("textbox", name="Your new token, shown once").count() == 0
    assert page.get_by_text(f"{token.prefix}…").is_visible()
    page.get_by_role("button", name="Revoke laptop script").first.click()
    page.get_by_text("Revoked “laptop script”: it no longer works.").wait_for()
    assert seen["problems"] == []


def test_the_token_page_light_and_dark_on_phone_and_desktop(browser, live_server, learner):
    from apps.api.services import token_create

    token_create(user=learner, name="phone app")
    used, _ = token_create(user=learner, name="a very long token name for the nightly backup job")
    out = Path(
        os.environ.get("SCREENSHOT_DIR") or Path(settings.BASE_DIR) / "artifacts" / "screenshots"
    )
    out.mkdir(parents=True, exist_ok=True)
    overflowing, violations = [], []
    for device, viewport in VIEWPORTS.items():
        for scheme in ("light", "dark"):
            context = browser.new_context(viewport=viewport, color_scheme=scheme)
            page = context.new_page()
            sign_in(page, live_server, learner)
            page.goto(live_server.url + "/account/tokens/")
            page.get_by_role("textbox", name="Name").fill(f"notebook {device} {scheme}")
            page.get_by_role("button", name="Make token").click()
            page.get_by_role("textbox", name="Your new token, shown once").wait_for()
            target = out / f"api-tokens-{device}-{scheme}.png"
            page.screenshot(path=str(target), full_page=True)
            assert target.stat().st_size > 5_000
            if page.evaluate("document.scrollingElement.scrollWidth > window.innerWidth + 1"):
                overflowing.append(f"{device} {scheme}")
            # axe-core (bundled, nothing fetched), as tests/browser/test_accessibility.py runs it.
            violations += [
                f"{device} {scheme}: {v['id']} {[n['target'] for n in v['nodes'][:3]]}"
                for v in Axe().run(page).response["violations"]
                if v["impact"] in ("serious", "critical")
            ]
            context.close()
    assert overflowing == [], f"wider than the screen: {overflowing}"
    assert violations == [], "no serious or critical accessibility violation"
