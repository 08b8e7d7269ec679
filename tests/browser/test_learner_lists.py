"""In a real browser: a row's status menu by keyboard, the status filter with and without
JavaScript, the note marker, the notes page's live search and the public profile."""

import re

import pytest
from playwright.sync_api import expect

from apps.progress.models import Progress, Status
from apps.progress.services import progress_set_note, progress_set_status
from tests.conftest import sign_in
from tests.factories import EntryFactory, GuideFactory, ResourceFactory, SectionFactory, UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TITLES = ("Paged attention", "Speculative decoding", "Continuous batching", "Prefix caching")


@pytest.fixture
def guide():
    guide = GuideFactory(slug="inference", title="Inference Engineering")
    section = SectionFactory(guide=guide, title="Serving")
    for title in TITLES:
        EntryFactory(section=section, resource=ResourceFactory(title=title))
    return guide


def resource(title):
    from apps.catalog.models import Resource

    return Resource.objects.get(title=title)


def chip(page, label):
    return page.locator("#guide-entries .status-filter").get_by_role("link", name=label)


def test_status_menu_by_keyboard_then_the_filter_swaps_the_list(page, live_server, guide, learner):
    errors = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(f"{live_server.url}/guides/inference/")
    # Keyboard only: the checkbox, then Tab to its menu, Enter opens it, Tab to "In progress".
    page.get_by_role("checkbox", name="Done: Speculative decoding").focus()
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.textContent") == "In progress"
    page.keyboard.press("Enter")
    row = page.locator("li.row", has_text="Speculative decoding")
    expect(row.locator(".tick-status")).to_have_text("In progress")
    # The menu is back open with focus on it; it now offers skipped and not started.
    # (htmx moves focus to the autofocus element once the swap has settled: wait for it.)
    summary = row.locator(".tick-menu > summary")
    expect(summary).to_be_focused()
    assert summary.text_content() == "Status of Speculative decoding"
    expect(row.locator(".tick-menu button")).to_have_text(["Skipped", "Not started"])
    # Skip another by mouse.
    page.locator("summary", has_text="Status of Prefix caching").click()
    prefix = page.locator("li.row", has_text="Prefix caching")
    prefix.get_by_role("button", name="Skipped").click()
    expect(prefix.locator(".tick-status")).to_have_text("Skipped")
    page.get_by_role("checkbox", name="Done: Paged attention").click()
    expect(page.get_by_role("checkbox", name="Done: Paged attention")).to_have_attribute(
        "aria-checked", "true"
    )
    statuses = dict(Progress.objects.filter(user=learner).values_list("resource__title", "status"))
    assert statuses == {
        "Speculative decoding": "in_progress",
        "Prefix caching": "skipped",
        "Paged attention": "done",
    }

    # The filter (a reload shows the counts after the ticks), swapped by htmx, in the URL.
    page.reload()
    expect(chip(page, "Hide done 3")).to_be_visible()
    chip(page, "Hide done 3").click()
    expect(page).to_have_url(f"{live_server.url}/guides/inference/?status=not_done")
    expect(page.get_by_role("checkbox", name="Done: Paged attention")).to_have_count(0)
    expect(page.locator("#guide-entries li.row")).to_have_count(3)
    chip(page, "In progress 1").click()
    expect(page.locator("#guide-entries li.row")).to_have_count(1)
    expect(page.get_by_role("checkbox", name="Done: Speculative decoding")).to_be_visible()
    page.go_back()
    expect(page.locator("#guide-entries li.row")).to_have_count(3)
    assert errors == []


def test_one_status_menu_serves_every_row(page, live_server, guide, learner):
    errors = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(f"{live_server.url}/guides/inference/")
    # The page holds one status menu; each row has only its toggle.
    expect(page.locator("#status-menu")).to_have_count(1)
    expect(page.locator("details.tick-menu")).to_have_count(4)
    expect(chip(page, "In progress 0")).to_be_visible()
    for title, status, label in (
        ("Prefix caching", Status.SKIPPED, "Skipped"),
        ("Continuous batching", Status.IN_PROGRESS, "In progress"),
    ):
        row = page.locator("li.row", has_text=title)
        row.locator(".tick-menu > summary").click()
        expect(row.locator("#status-menu")).to_be_visible()
        row.get_by_role("button", name=label).click()
        expect(row.locator(".tick-status")).to_have_text(label)
        assert Progress.objects.get(user=learner, resource=resource(title)).status == status
    statuses = dict(Progress.objects.filter(user=learner).values_list("resource__title", "status"))
    assert statuses == {"Prefix caching": "skipped", "Continuous batching": "in_progress"}
    # Still one menu, now in the last row used; the counts moved with each status.
    expect(page.locator("#status-menu")).to_have_count(1)
    expect(chip(page, "In progress 1")).to_be_visible()
    expect(chip(page, "Skipped 1")).to_be_visible()
    assert errors == []


def test_status_filter_and_menu_without_javascript(browser, live_server, guide):
    user = UserFactory(email="nojs@example.com")
    progress_set_status(user=user, resource=resource("Paged attention"), status=Status.DONE)
    context = browser.new_context(java_script_enabled=False, viewport={"width": 390, "height": 844})
    page = context.new_page()
    sign_in(page, live_server, user)
    page.goto(f"{live_server.url}/guides/inference/")
    chip(page, "Hide done 3").click()
    expect(page).to_have_url(f"{live_server.url}/guides/inference/?status=not_done")
    expect(page.locator("#guide-entries li.row")).to_have_count(3)
    # The menu is a <details>: without JavaScript it opens on a link to the resource page, whose
    # status buttons set it.
    page.locator("summary", has_text="Status of Continuous batching").click()
    page.locator("li.row", has_text="Continuous batching").get_by_role(
        "link", name="Set status"
    ).click()
    expect(page).to_have_url(re.compile(r"/resources/.+#my-progress$"))
    page.locator("#my-progress").get_by_role("button", name="In progress").click()
    expect(
        page.locator("#my-progress").get_by_role("button", name="In progress")
    ).to_have_attribute("aria-pressed", "true")
    page.goto(f"{live_server.url}/guides/inference/?status=not_done")
    assert (
        Progress.objects.get(user=user, resource=resource("Continuous batching")).status
        == Status.IN_PROGRESS
    )
    expect(chip(page, "In progress 1")).to_be_visible()
    context.close()


def test_note_marker_notes_page_and_public_profile(page, live_server, guide, learner):
    progress_set_note(
        user=learner, resource=resource("Prefix caching"), note="Compare with RadixAttention"
    )
    progress_set_status(
        user=learner, resource=resource("Paged attention"), status=Status.IN_PROGRESS
    )
    page.goto(f"{live_server.url}/guides/inference/")
    marker = page.get_by_role("link", name="Your note on Prefix caching")
    expect(marker).to_be_visible()
    expect(page.locator(".note-mark")).to_have_count(1)

    page.goto(f"{live_server.url}/dashboard/")
    page.get_by_role("link", name="Your notes and everything in progress").click()
    expect(page.locator("#notebook-results li.row")).to_have_count(2)
    page.get_by_label("Search your notes and in-progress resources").fill("radix")
    expect(page.locator("#notebook-results li.row")).to_have_count(1)
    expect(page.locator("#notebook-results")).to_contain_text("Compare with RadixAttention")
    expect(page).to_have_url(f"{live_server.url}/dashboard/notes/?q=radix")

    page.goto(f"{live_server.url}/account/public-page/")
    page.get_by_label("Address").fill("ada-learns")
    page.get_by_label("Publish my page", exact=False).check()
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_role("link", name="/u/ada-learns/", exact=False).first).to_be_visible()

    visitor = page.context.browser.new_context()
    other = visitor.new_page()
    other.goto(f"{live_server.url}/u/ada-learns/")
    expect(other.get_by_role("heading", name="ada-learns")).to_be_visible()
    expect(other.locator("body")).not_to_contain_text("RadixAttention")
    expect(other.locator(f"#bar-guide-{guide.uuid}")).to_contain_text("0/4")

    page.get_by_label("Publish my page", exact=False).uncheck()
    page.get_by_role("button", name="Save").click()
    response = other.goto(f"{live_server.url}/u/ada-learns/")
    assert response.status == 404
    visitor.close()
