"""What a learner sees of a tick on its row, in a real browser: a slow tick is pending on its row
(aria-busy, htmx's request class), a failed one says so beside the row, in view; a row menu closes
on Escape; and a note typed on a resource page survives a status click."""

import pytest
from playwright.sync_api import expect

from apps.progress.models import Progress, Status
from tests.conftest import tick
from tests.factories import EntryFactory, GuideFactory, ResourceFactory, SectionFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TITLES = [f"Paper {number:02}" for number in range(40)]


@pytest.fixture
def guide():
    guide = GuideFactory(slug="inference", title="Inference Engineering")
    section = SectionFactory(guide=guide, title="Serving")
    for title in TITLES:
        EntryFactory(section=section, resource=ResourceFactory(title=title))
    return guide


def test_a_slow_tick_is_pending_on_its_row_and_a_failed_one_says_so_beside_it(
    page, live_server, guide, learner
):
    page.set_viewport_size({"width": 390, "height": 700})
    page.goto(f"{live_server.url}/guides/inference/")
    box = tick(page, "Paper 35")
    box.scroll_into_view_if_needed()
    row = page.locator("li.row", has=box)

    held = []  # the tick's request, held back until we have looked at the row
    page.route("**/progress/**", lambda route: held.append(route))
    box.click()
    expect(row).to_have_attribute("aria-busy", "true")
    expect(box).to_have_class("tick-box htmx-request")
    assert box.evaluate("b => getComputedStyle(b).borderTopStyle") == "dashed"
    expect(box).to_have_attribute("aria-checked", "false")
    held[0].continue_()
    expect(box).to_have_attribute("aria-checked", "true")
    expect(row).not_to_have_attribute("aria-busy", "true")
    page.unroute("**/progress/**")

    # Offline: the message is on the ticked row, in view, not above the page.
    other = tick(page, "Paper 36")
    page.route("**/progress/**", lambda route: route.abort())
    other.click()
    other_row = page.locator("li.row", has=other)
    alert = other_row.get_by_role("alert")
    expect(alert).to_have_text(
        "The server could not be reached, and nothing was changed. Try again."
    )
    expect(alert).to_be_in_viewport()
    expect(other_row).not_to_have_attribute("aria-busy", "true")
    assert page.locator("#htmx-error").count() == 0
    # Back online, the next try clears it.
    page.unroute("**/progress/**")
    other.click()
    expect(other).to_have_attribute("aria-checked", "true")
    expect(other_row.get_by_role("alert")).to_have_count(0)


def test_escape_closes_a_row_menu_and_focus_goes_back_to_its_toggle(
    page, live_server, guide, learner
):
    page.goto(f"{live_server.url}/guides/inference/")
    row = page.locator("li.row", has_text="Paper 02")
    summary = row.locator(".tick-menu > summary")
    summary.click()
    expect(row.locator(".tick-menu")).to_have_attribute("open", "")
    row.get_by_role("button", name="In progress").focus()
    page.keyboard.press("Escape")
    expect(row.locator(".tick-menu")).not_to_have_attribute("open", "")
    expect(summary).to_be_focused()
    # By keyboard only: Enter opens it again, Escape closes it from the toggle itself.
    page.keyboard.press("Enter")
    expect(row.locator(".tick-menu")).to_have_attribute("open", "")
    page.keyboard.press("Escape")
    expect(row.locator(".tick-menu")).not_to_have_attribute("open", "")
    expect(summary).to_be_focused()


@pytest.mark.parametrize("click", ["checkbox", "Done", "In progress"])
def test_a_note_typed_on_a_resource_page_survives_a_status_click(
    page, live_server, guide, learner, click
):
    resource = guide.sections.get().entries.first().resource
    page.goto(f"{live_server.url}{resource.get_absolute_url()}")
    note = page.get_by_label("Private note")
    note.fill("Read section 3 twice.")
    if click == "checkbox":
        page.get_by_role("checkbox", name=f"Done: {resource.title}").click()
        status = Status.DONE
    else:
        page.locator(".status-buttons").get_by_role("button", name=click).click()
        status = {"Done": Status.DONE, "In progress": Status.IN_PROGRESS}[click]
    expect(page.locator(".status-buttons [aria-pressed=true]")).not_to_have_text("Not started")
    expect(note).to_have_value("Read section 3 twice.")
    row = Progress.objects.get(user=learner, resource=resource)
    assert (row.status, row.note) == (status, "Read section 3 twice.")
    page.reload()
    expect(page.get_by_label("Private note")).to_have_value("Read section 3 twice.")


def test_a_note_typed_survives_a_status_click_without_javascript(browser, live_server, guide):
    from tests.conftest import sign_in
    from tests.factories import UserFactory

    user = UserFactory(email="nojs@example.com")
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    sign_in(page, live_server, user)
    resource = guide.sections.get().entries.first().resource
    page.goto(f"{live_server.url}{resource.get_absolute_url()}")
    page.get_by_label("Private note").fill("Typed without JavaScript.")
    page.get_by_role("checkbox", name=f"Done: {resource.title}").click()
    expect(page.get_by_label("Private note")).to_have_value("Typed without JavaScript.")
    expect(page.get_by_role("checkbox", name=f"Done: {resource.title}")).to_have_attribute(
        "aria-checked", "true"
    )
    context.close()
