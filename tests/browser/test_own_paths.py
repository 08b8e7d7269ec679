"""Composing an own path in a real browser: from a guide row's menu, then the editor's search,
steps and moves (htmx), then following it; and the same pages without JavaScript."""

import os

import pytest
from playwright.sync_api import expect

from apps.paths.models import OwnPath, OwnStepItem
from tests.conftest import sign_in
from tests.factories import EntryFactory, GuideFactory, ResourceFactory, SectionFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TITLES = [f"Paper {number:02}" for number in range(6)]


@pytest.fixture
def guide():
    guide = GuideFactory(slug="inference", title="Inference Engineering")
    section = SectionFactory(guide=guide, title="Serving")
    for title in TITLES:
        EntryFactory(section=section, resource=ResourceFactory(title=title))
    return guide


def _order(path):
    return [
        (item.step.title, item.resource.title)
        for item in OwnStepItem.objects.filter(step__path=path)
        .select_related("step", "resource")
        .order_by("step__position", "position")
    ]


def test_compose_a_path_from_a_row_menu_and_the_editor(page, live_server, guide, learner):
    page.goto(f"{live_server.url}/guides/inference/")
    row = page.locator("li.row", has=page.get_by_role("checkbox", name="Done: Paper 01"))
    row.locator(".tick-menu > summary").click()
    row.get_by_role("link", name="Add to my path…").click()
    page.get_by_label("A new path:").check()
    page.get_by_label("Title of the new path").fill("Serving, my way")
    page.get_by_role("button", name="Add").click()
    expect(page.get_by_role("heading", name="Edit “Serving, my way”")).to_be_visible()
    path = OwnPath.objects.get(owner=learner)
    assert _order(path) == [("Step 1", "Paper 01")]

    # The editor's search and its Add swap the editor in place (htmx: no page load). The editor
    # came from a form's redirect: wait for its load (htmx set up) before marking the page.
    page.wait_for_load_state()
    page.evaluate("window.__same_page = true")
    page.locator("#own-search").fill("Paper 03")
    page.locator("#own-editor").get_by_role("button", name="Search").click()
    page.get_by_role("button", name="Add Paper 03").click()
    expect(page.locator("#own-summary")).to_have_text("1 step · 2 resources · about 2 hours")
    page.get_by_label("New step").fill("Later")
    page.get_by_label("Estimate (hours)").last.fill("5")
    page.get_by_role("button", name="Add step").click()
    expect(page.locator("#own-summary")).to_contain_text("2 steps · 2 resources")
    page.get_by_role("button", name="Move Paper 03 up").click()
    expect(page.locator(".own-item a").first).to_have_text("Paper 03")
    page.locator("li.own-item", has_text="Paper 01").get_by_role(
        "button", name="Move", exact=True
    ).click()
    # The step's estimate (5 h) now stands for Paper 01's own hour.
    expect(page.locator("li.own-step").nth(1).locator(".own-item a")).to_have_text("Paper 01")
    expect(page.locator("#own-summary")).to_have_text("2 steps · 2 resources · about 6 hours")
    assert page.evaluate("window.__same_page") is True
    assert _order(path) == [("Step 1", "Paper 03"), ("Later", "Paper 01")]
    # What the swap shows is what a reload shows.
    swapped = page.locator("#own-summary").text_content()
    page.reload()
    assert page.locator("#own-summary").text_content() == swapped

    page.get_by_role("link", name="Follow it: next up and pace").click()
    expect(page.locator(".next-up-link")).to_have_text("Paper 03")
    _screens(page, "own-path-detail")
    page.goto(f"{live_server.url}/my/paths/{path.uuid}/edit/")
    _screens(page, "own-path-editor")


def test_the_editor_works_without_javascript(browser, live_server, guide, learner):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    sign_in(page, live_server, learner)
    page.goto(f"{live_server.url}/my/paths/")
    page.get_by_label("New path").fill("Plain")
    page.get_by_role("button", name="Create").click()
    page.locator("#own-search").fill("Paper 02")
    page.locator("#own-editor").get_by_role("button", name="Search").click()
    page.get_by_role("button", name="Add Paper 02").click()
    expect(page.locator("#own-summary")).to_contain_text("1 step · 1 resource")
    assert _order(OwnPath.objects.get(title="Plain")) == [("Step 1", "Paper 02")]
    context.close()


def _screens(page, name):
    """Desktop and phone, light and dark, when SCREENSHOT_DIR asks for them (to look at)."""
    folder = os.environ.get("SCREENSHOT_DIR")
    if not folder:
        return
    for width, height, device in [(1280, 900, "desktop"), (390, 800, "phone")]:
        for scheme in ("light", "dark"):
            page.set_viewport_size({"width": width, "height": height})
            page.emulate_media(color_scheme=scheme)
            page.screenshot(path=f"{folder}/{name}-{device}-{scheme}.png", full_page=True)
    page.set_viewport_size({"width": 1280, "height": 900})
    page.emulate_media(color_scheme="light")


def test_mark_a_section_done_from_its_menu_and_undo_a_reset(page, live_server, guide, learner):
    from apps.progress.models import Progress, Status

    page.goto(f"{live_server.url}/guides/inference/")
    page.locator("summary", has_text="Actions for Serving").click()
    page.get_by_role("button", name="Mark the section done").click()
    expect(page.get_by_text("“Serving”: 6 resources marked done.")).to_be_visible()
    expect(page.get_by_role("checkbox", name="Done: Paper 00")).to_have_attribute(
        "aria-checked", "true"
    )
    assert Progress.objects.filter(user=learner, status=Status.DONE).count() == 6
    bar = page.locator("#bar-guide-" + str(guide.uuid)).text_content()
    page.reload()
    assert page.locator("#bar-guide-" + str(guide.uuid)).text_content() == bar

    page.get_by_role("button", name="Reset my progress here").click()
    expect(page.get_by_role("heading", name="Progress reset")).to_be_visible()
    assert not Progress.objects.filter(user=learner).exists()
    page.get_by_role("button", name="Undo").click()
    expect(page.get_by_role("checkbox", name="Done: Paper 05")).to_have_attribute(
        "aria-checked", "true"
    )
    assert Progress.objects.filter(user=learner, status=Status.DONE).count() == 6
    _screens(page, "guide-after-undo")
