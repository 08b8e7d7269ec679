"""A learner's second day in a real browser: Back after a tick, the resource page agreeing with
itself, the dashboard's lists after a tick, the guides page, search's filters, and a phone."""

import pytest
from playwright.sync_api import expect

from apps.progress.models import Progress, Status
from apps.progress.services import progress_set_status
from tests.conftest import sign_in, tick
from tests.factories import EntryFactory, GuideFactory, ResourceFactory, SectionFactory, UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def guide():
    guide = GuideFactory(
        slug="inference",
        title="Inference Engineering",
        description="Serving **fast**.\n\n- one\n- two",
    )
    section = SectionFactory(guide=guide, title="Serving")
    for title, kind in (
        ("Paged attention", "paper"),
        ("Speculative decoding", "paper"),
        ("Continuous batching", "video"),
    ):
        EntryFactory(
            section=section,
            resource=ResourceFactory(
                title=title, kind=kind, url=f"https://example.com/{title.replace(' ', '-')}"
            ),
        )
    return guide


def test_back_after_a_tick_shows_current_progress(page, live_server, guide, learner):
    page.goto(f"{live_server.url}/guides/inference/")
    tick(page, "Paged attention").click()
    expect(page.locator(f"#bar-guide-{guide.uuid}")).to_contain_text("1/3")
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Topics").click()
    page.wait_for_url("**/topics/")
    # Meanwhile the same learner ticks another resource elsewhere (another tab).
    progress_set_status(
        user=learner,
        resource=guide.sections.get().entries.get(resource__title="Continuous batching").resource,
        status=Status.DONE,
    )
    page.go_back()
    page.wait_for_url("**/guides/inference/")
    expect(tick(page, "Paged attention")).to_have_attribute("aria-checked", "true")
    expect(tick(page, "Continuous batching")).to_have_attribute("aria-checked", "true")
    expect(page.locator(f"#bar-guide-{guide.uuid}")).to_contain_text("2/3")


def test_back_over_an_htmx_filter_shows_current_progress(page, live_server, guide, learner):
    page.goto(f"{live_server.url}/guides/inference/")
    page.get_by_role("link", name="Video").first.click()  # a filter: htmx pushes its URL
    page.wait_for_url("**kind=video**")
    tick(page, "Continuous batching").click()
    expect(tick(page, "Continuous batching")).to_have_attribute("aria-checked", "true")
    page.go_back()
    page.wait_for_url("**/guides/inference/")
    expect(tick(page, "Continuous batching")).to_have_attribute("aria-checked", "true")
    expect(page.locator(f"#bar-guide-{guide.uuid}")).to_contain_text("1/3")


def test_resource_page_tick_and_status_buttons_agree_without_reload(
    page, live_server, guide, learner
):
    resource = guide.sections.get().entries.get(resource__title="Speculative decoding").resource
    progress_set_status(user=learner, resource=resource, status=Status.SKIPPED)
    page.goto(f"{live_server.url}{resource.get_absolute_url()}")
    status = page.get_by_role("group", name="Status")
    expect(status.get_by_role("button", name="Skipped")).to_have_attribute("aria-pressed", "true")
    tick(page, "Speculative decoding").click()
    expect(status.get_by_role("button", name="Done")).to_have_attribute("aria-pressed", "true")
    expect(status.get_by_role("button", name="Skipped")).to_have_attribute("aria-pressed", "false")
    # In progress from its button, then done and undone by the tick: back to in progress.
    status.get_by_role("button", name="In progress").click()
    expect(status.get_by_role("button", name="In progress")).to_have_attribute(
        "aria-pressed", "true"
    )
    # Keyboard focus stays on the button pressed, across the swap.
    expect(status.get_by_role("button", name="In progress")).to_be_focused()
    tick(page, "Speculative decoding").click()
    expect(tick(page, "Speculative decoding")).to_have_attribute("aria-checked", "true")
    tick(page, "Speculative decoding").click()
    expect(status.get_by_role("button", name="In progress")).to_have_attribute(
        "aria-pressed", "true"
    )
    assert Progress.objects.get(user=learner, resource=resource).started_at is not None


def test_a_dashboard_tick_lands_in_recently_completed(page, live_server, guide, learner):
    progress_set_status(
        user=learner,
        resource=guide.sections.get().entries.get(resource__title="Paged attention").resource,
        status=Status.IN_PROGRESS,
    )
    page.goto(f"{live_server.url}/dashboard/")
    recent = page.locator("#dashboard-recent")
    expect(recent).to_contain_text("Nothing completed yet.")
    tick(page, "Speculative decoding").click()
    expect(recent).to_contain_text("Speculative decoding")


def test_guides_page_cards_with_progress(page, live_server, guide, learner):
    page.goto(f"{live_server.url}/dashboard/")
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Guides").click()
    page.wait_for_url("**/guides/")
    card = page.locator(f"#guide-{guide.slug}")
    expect(card).to_contain_text("Inference Engineering")
    expect(card).to_contain_text("Serving fast.")
    expect(card.locator(f"#bar-guide-{guide.uuid}")).to_contain_text("0/3")


def test_search_filters_by_kind_with_and_without_javascript(browser, page, live_server, guide):
    page.goto(f"{live_server.url}/search/?q=attention-paged")
    expect(page.locator("#search-results")).to_contain_text("Paged attention")
    page.goto(f"{live_server.url}/search/?q=decoding+batching")
    page.locator("#search-q").fill("speculative decodng")
    expect(page.locator("#search-results")).to_contain_text("Did you mean")
    page.locator("#search-q").fill("continuous")
    expect(page.locator("#search-results")).to_contain_text("1 result for “continuous”")
    page.get_by_label("Kind").select_option("paper")
    expect(page.locator("#search-results")).to_contain_text("0 results for “continuous”")
    page.wait_for_url("**/search/?q=continuous&kind=paper")
    context = browser.new_context(java_script_enabled=False)
    nojs = context.new_page()
    nojs.goto(f"{live_server.url}/search/")
    nojs.locator("#search-q").fill("continuous")
    nojs.get_by_label("Kind").select_option("video")
    nojs.get_by_role("button", name="Search", exact=True).click()
    nojs.wait_for_url("**kind=video**")
    expect(nojs.locator("#search-results")).to_contain_text("Continuous batching")
    context.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_phone_pages_do_not_scroll_sideways(browser, live_server, guide, scheme):
    user = UserFactory(email="a-rather-long-address-for-a-phone@example.com")
    resource = ResourceFactory(
        title="A resource with a long link",
        url="https://averyveryverylonghostnamethatneverends.example.com/some/long/path/to/the/thing",
    )
    EntryFactory(section=guide.sections.get(), resource=resource)
    progress_set_status(user=user, resource=resource, status=Status.IN_PROGRESS)
    context = browser.new_context(viewport={"width": 390, "height": 844}, color_scheme=scheme)
    page = context.new_page()
    sign_in(page, live_server, user)
    for url in (
        resource.get_absolute_url(),
        "/guides/",
        "/guides/inference/",
        "/dashboard/",
        "/search/?q=attention",
        "/progress/import/",
    ):
        page.goto(f"{live_server.url}{url}")
        overflow = page.evaluate(
            "document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        assert overflow <= 0, f"{url} scrolls sideways by {overflow}px"
    # The note box is a styled field: the width of its form, the site's border.
    page.goto(f"{live_server.url}{resource.get_absolute_url()}")
    note = page.get_by_label("Private note")
    assert note.bounding_box()["width"] >= 300
    assert note.evaluate("el => getComputedStyle(el).borderTopLeftRadius") != "0px"
    # A status word under a checkbox leaves the titles in one column.
    page.goto(f"{live_server.url}/guides/inference/")
    expect(page.locator(".row .tick-status")).to_have_text("In progress")
    lefts = {
        round(box["x"])
        for box in (title.bounding_box() for title in page.locator(".row__title").all())
    }
    assert len(lefts) == 1, lefts
    # The header keeps its account link and search box readable.
    page.goto(f"{live_server.url}/guides/")
    assert page.locator(".account-nav__email").bounding_box()["width"] >= 50
    assert page.locator("#site-search-q").bounding_box()["width"] >= 80
    # The heatmap shows today: scrolled to its newest week.
    page.goto(f"{live_server.url}/dashboard/")
    today = page.locator(".heatmap-svg g[transform] rect").last.bounding_box()
    assert today["x"] >= 0 and today["x"] + today["width"] <= 390
    context.close()
