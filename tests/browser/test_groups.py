"""A study group in a real browser: the owner makes one and copies an invite link, a second
learner signs up through it and joins, ticks something on the group's path, and the owner sees
their bar move; hiding one's progress swaps the board in place. Desktop and phone, light and dark
(SCREENSHOT_DIR to keep them)."""

import os
import re
import time

import pytest
from django.core import mail
from django.core.cache import cache
from playwright.sync_api import expect

from apps.groups.models import Membership, StudyGroup
from tests.paths.conftest import learning_path  # noqa: F401 - shared fixture
from tests.progress.conftest import catalog  # noqa: F401 - shared fixture

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "a long and unusual passphrase 31"


@pytest.fixture(autouse=True)
def _fresh_rate_limits():
    cache.clear()
    yield
    cache.clear()


def _fits_phone(page):
    page.set_viewport_size({"width": 390, "height": 844})
    overflow = page.evaluate("document.scrollingElement.scrollWidth > window.innerWidth + 1")
    page.set_viewport_size({"width": 1280, "height": 900})
    return not overflow


def _screens(page, name):
    folder = os.environ.get("SCREENSHOT_DIR")
    if not folder:
        return
    for width, height, device in [(1280, 900, "desktop"), (390, 844, "phone")]:
        for scheme in ("light", "dark"):
            page.set_viewport_size({"width": width, "height": height})
            page.emulate_media(color_scheme=scheme)
            page.screenshot(path=f"{folder}/{name}-{device}-{scheme}.png", full_page=True)
    page.set_viewport_size({"width": 1280, "height": 900})
    page.emulate_media(color_scheme="light")


def test_owner_invites_a_newcomer_who_signs_up_joins_and_moves_their_bar(
    page,
    browser,
    live_server,
    learner,
    learning_path,  # noqa: F811
    catalog,  # noqa: F811
):
    errors = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)

    # The owner makes the group from the nav's "Groups".
    page.goto(f"{live_server.url}/")
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Groups").click()
    page.get_by_role("link", name="New group").click()
    page.get_by_label("Name").fill("Kernel club")
    page.get_by_label("Description").fill("Tuesday evenings, one step a week.")
    page.get_by_label("Kernel development").check()
    page.get_by_role("button", name="Create group").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Kernel club")
    group = StudyGroup.objects.get()

    # ... and copies an invite link.
    page.get_by_role("link", name="Invites").click()
    page.get_by_role("button", name="Make a link").click()
    link = page.get_by_label("Copy this link and send it to the people you invite").input_value()
    assert link.startswith(f"{live_server.url}/groups/join/")
    _screens(page, "group-invites")

    # A newcomer opens it, signs up, confirms the mail and lands on the join page.
    other = browser.new_context(viewport={"width": 390, "height": 844})
    newcomer = other.new_page()
    newcomer.set_default_timeout(10_000)
    newcomer.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    newcomer.goto(link)
    expect(newcomer.get_by_role("heading", level=1)).to_have_text("Join “Kernel club”")
    newcomer.locator("main").get_by_role("link", name="Sign up").click()
    newcomer.get_by_label("Email").fill("reader@example.com")
    newcomer.get_by_label("Password", exact=True).fill(PASSWORD)
    newcomer.get_by_label("Password (again)").fill(PASSWORD)
    newcomer.get_by_role("button", name="Sign Up").click()
    newcomer.wait_for_url("**/accounts/confirm-email/")
    deadline = time.monotonic() + 5
    while not mail.outbox and time.monotonic() < deadline:
        time.sleep(0.02)
    confirm = re.search(r"https?://\S+/accounts/confirm-email/\S+", mail.outbox[0].body).group(0)
    newcomer.goto(confirm)
    newcomer.get_by_role("button", name="Confirm").click()
    newcomer.wait_for_url(link)
    newcomer.get_by_role("button", name="Join the group").click()
    expect(newcomer.get_by_role("heading", level=1)).to_have_text("Kernel club")
    assert Membership.objects.filter(group=group, user__email="reader@example.com").exists()

    # The owner's page: the newcomer at 0.
    member = Membership.objects.get(user__email="reader@example.com")
    bar = page.locator(f"#bar-path-{learning_path.uuid}-m{member.pk} .bar-text")
    page.goto(f"{live_server.url}{group.get_absolute_url()}")
    expect(bar).to_have_text("0/4 · 0%")

    # The newcomer ticks the path's first resource on the path's own page.
    first = catalog["resources"][0].title
    newcomer.goto(f"{live_server.url}/paths/kernels/")
    newcomer.get_by_role("checkbox", name=f"Done: {first}").first.click()
    expect(newcomer.get_by_role("checkbox", name=f"Done: {first}").first).to_have_attribute(
        "aria-checked", "true"
    )
    deadline = time.monotonic() + 5
    while not member.user.progress.exists() and time.monotonic() < deadline:
        time.sleep(0.05)

    page.reload()
    expect(bar).to_have_text("1/4 · 25%")
    expect(page.locator(".group-finishes")).to_contain_text(f"reader finished {first}")
    _screens(page, "group-page")
    assert _fits_phone(page)

    # Hiding swaps the board in place (htmx), and it is what a reload shows.
    newcomer.goto(f"{live_server.url}{group.get_absolute_url()}")
    newcomer.evaluate("window.__same_page = true")
    newcomer.get_by_role("button", name="Hide my progress").click()
    expect(newcomer.get_by_role("button", name="Show my progress")).to_be_visible()
    assert newcomer.evaluate("window.__same_page") is True
    swapped = newcomer.locator("#group-summary").text_content()
    newcomer.reload()
    assert (
        newcomer.locator("#group-summary").text_content()
        == swapped
        == "2 members · 1 showing progress"
    )
    page.reload()
    expect(page.locator(f"#path-{learning_path.uuid} .group-member__hidden")).to_have_text("hidden")
    expect(bar).to_have_count(0)
    _screens(newcomer, "group-page-member")
    page.goto(f"{live_server.url}/groups/{group.uuid}/members/")
    _screens(page, "group-members")
    assert _fits_phone(page)
    other.close()
    assert errors == [], "no CSP violations or script errors"


def test_the_group_page_works_without_javascript(browser, live_server, learner, learning_path):  # noqa: F811
    from apps.groups.services import group_create
    from tests.conftest import sign_in

    group = group_create(user=learner, name="Quiet club", paths=[learning_path])
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    sign_in(page, live_server, learner)
    page.goto(f"{live_server.url}{group.get_absolute_url()}")
    page.get_by_role("button", name="Hide my progress").click()
    expect(page.get_by_text("Your progress is hidden from the group.")).to_be_visible()
    expect(page.get_by_role("button", name="Show my progress")).to_be_visible()
    assert Membership.objects.get(user=learner).progress_hidden
    context.close()
