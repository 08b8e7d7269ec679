"""The catalog in a real browser under the real CSP: browse to a guide, filter it with htmx, search live."""

import re

import pytest

from apps.catalog.models import Kind
from tests.factories import EntryFactory, GuideFactory, ResourceFactory, SectionFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def guide():
    guide = GuideFactory(
        slug="inference", title="Inference Engineering", description="Serving LLMs fast."
    )
    chapter = SectionFactory(guide=guide, title="Serving")
    tier1 = SectionFactory(parent=chapter, title="Tier 1", tier=1)
    tier2 = SectionFactory(parent=chapter, title="Tier 2", tier=2)
    EntryFactory(
        section=tier1,
        resource=ResourceFactory(title="Transformer inference arithmetic", kind=Kind.ARTICLE),
    )
    EntryFactory(
        section=tier2, resource=ResourceFactory(title="FlashAttention-3 internals", kind=Kind.PAPER)
    )
    return guide


@pytest.fixture
def console_problems(page):
    """Console errors (a CSP violation shows up here) collected while the test runs."""
    problems = []
    page.on(
        "console",
        lambda message: problems.append(message.text) if message.type == "error" else None,
    )
    page.on("pageerror", lambda error: problems.append(str(error)))
    return problems


def test_browse_to_a_guide_and_filter_it_in_place(page, live_server, guide, console_problems):
    page.goto(live_server.url + "/")
    page.get_by_role("link", name="Inference Engineering").click()
    page.wait_for_url(re.compile(r"/guides/inference/$"))
    entries = page.locator("#guide-entries")
    assert entries.locator(".row__link", has_text="FlashAttention-3 internals").is_visible()

    # A swap, not a page load: this mark on the window must survive the click.
    page.evaluate("window.stillTheSamePage = true")
    entries.get_by_role("link", name=re.compile(r"^Tier 1")).click()
    page.wait_for_url(re.compile(r"\?tier=1$"))
    page.locator("#guide-entries a[aria-current='true']", has_text="Tier 1").wait_for()

    entries = page.locator("#guide-entries")
    assert entries.locator(".row__link", has_text="Transformer inference arithmetic").is_visible()
    assert entries.locator(".row__link", has_text="FlashAttention-3 internals").count() == 0
    assert page.evaluate("window.stillTheSamePage") is True

    page.go_back()
    page.wait_for_url(re.compile(r"/guides/inference/$"))
    page.locator(".row__link", has_text="FlashAttention-3 internals").wait_for()
    assert console_problems == []


def test_live_search(page, live_server, guide, console_problems):
    page.goto(live_server.url + "/search/")
    assert page.get_by_text("Type a word or two").is_visible()

    page.get_by_label("Titles, authors and descriptions").press_sequentially("flash", delay=30)
    page.locator("#search-results .row__link", has_text="FlashAttention-3 internals").wait_for()
    assert page.locator("#search-results").get_by_text("1 result for “flash”").is_visible()
    page.wait_for_url(re.compile(r"/search/\?q=flash$"))
    assert page.locator(".row__link", has_text="Transformer inference arithmetic").count() == 0
    assert console_problems == []


def test_search_from_the_header_without_javascript(browser, live_server, guide):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(live_server.url + "/")
    page.get_by_label("Search the catalog").fill("arithmetic")
    page.get_by_label("Search the catalog").press("Enter")
    page.wait_for_url(re.compile(r"/search/\?q=arithmetic$"))
    assert page.locator(".row__link", has_text="Transformer inference arithmetic").is_visible()
    context.close()
