"""In a real browser: a long topic comes a page at a time, and scrolling to "Load more" appends
the next page's rows (desktop and phone width), ticks on them keeping every count true."""

import re

import pytest
from playwright.sync_api import expect

from apps.catalog import selectors
from tests.conftest import sign_in, tick
from tests.factories import (
    EntryFactory,
    GuideFactory,
    ResourceFactory,
    SectionFactory,
    TopicFactory,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PAGE_SIZE = 20  # the rows of a page here, so that three pages stay quick to build


@pytest.fixture
def topic(monkeypatch):
    monkeypatch.setattr(selectors, "TOPIC_PAGE_SIZE", PAGE_SIZE)
    topic = TopicFactory(slug="kernels", title="GPU kernels")
    section = SectionFactory(guide=GuideFactory(title="Kernels guide"))
    for number in range(45):
        resource = ResourceFactory(title=f"Kernel note {number:02d}", topics=[topic])
        EntryFactory(section=section, resource=resource)
    return topic


def rows(page):
    return page.locator("#topic-rows > li.row")


@pytest.mark.parametrize(
    "viewport",
    [{"width": 1280, "height": 900}, {"width": 390, "height": 844}],
    ids=["desktop", "phone"],
)
def test_scrolling_appends_the_next_page(page, live_server, topic, learner, viewport):
    errors = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.set_viewport_size(viewport)
    name = "desktop" if viewport["width"] > 600 else "phone"
    page.goto(f"{live_server.url}/topics/kernels/")
    expect(rows(page)).to_have_count(PAGE_SIZE)
    pager = page.locator("#topic-pager")
    expect(pager.locator(".pagination__where")).to_have_text("Showing 1–20 of 45 resources")
    page.screenshot(path=f"/tmp/topic-page-1-{name}.png", full_page=False)

    pager.scroll_into_view_if_needed()  # "Load more" revealed: the next page comes by itself
    expect(rows(page)).to_have_count(2 * PAGE_SIZE)
    expect(pager.locator(".pagination__where")).to_have_text("Showing 1–40 of 45 resources")
    assert page.url.endswith("/topics/kernels/")  # the address stays the page loaded
    page.screenshot(path=f"/tmp/topic-appended-{name}.png", full_page=False)

    # A tick on an appended row counts like any other: the filter's chips agree with a reload.
    tick(page, "Kernel note 25").click()
    expect(tick(page, "Kernel note 25")).to_have_attribute("aria-checked", "true")
    expect(page.locator("#topic-resources-status-not_done .chip__count")).to_have_text("44")
    expect(page.locator("#topic-resources-status-all .chip__count")).to_have_text("45")

    pager.scroll_into_view_if_needed()
    expect(rows(page)).to_have_count(45)
    expect(pager.locator(".pagination__where")).to_have_text("Showing 1–45 of 45 resources")
    expect(pager.get_by_role("link", name="Load more")).to_have_count(0)
    titles = rows(page).locator(".row__title").all_text_contents()
    assert [t.split(" ↗")[0].strip() for t in titles] == [f"Kernel note {n:02d}" for n in range(45)]
    page.screenshot(path=f"/tmp/topic-all-{name}.png", full_page=True)

    page.goto(f"{live_server.url}/topics/kernels/")  # a reload would scroll back to Load more
    expect(rows(page)).to_have_count(PAGE_SIZE)
    expect(page.locator("#topic-resources-status-not_done .chip__count")).to_have_text("44")
    assert errors == []


def test_without_javascript_load_more_is_the_next_page(browser, live_server, topic):
    context = browser.new_context(
        java_script_enabled=False, viewport={"width": 1280, "height": 900}
    )
    page = context.new_page()
    page.goto(f"{live_server.url}/topics/kernels/")
    expect(rows(page)).to_have_count(PAGE_SIZE)
    page.get_by_role("link", name="Load more").click()
    expect(page).to_have_url(re.compile(r"/topics/kernels/\?page=2$"))
    expect(rows(page)).to_have_count(PAGE_SIZE)
    expect(page.locator(".pagination__where")).to_have_text("Showing 21–40 of 45 resources")
    page.get_by_role("link", name="← Previous").click()
    expect(page).to_have_url(re.compile(r"/topics/kernels/$"))
    context.close()


def test_load_more_after_a_tick_under_hide_done_skips_no_row(page, live_server, topic, learner):
    """A row ticked done with "hide done" on leaves the list; scrolling on appends the rows after
    the last one on screen, Kernel note 20 included, which moved up into page one's place."""
    errors = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    sign_in(page, live_server, learner)
    page.goto(f"{live_server.url}/topics/kernels/?status=not_done")
    expect(rows(page)).to_have_count(PAGE_SIZE)
    tick(page, "Kernel note 03").click()
    expect(tick(page, "Kernel note 03")).to_have_count(0)  # the row left
    expect(rows(page)).to_have_count(PAGE_SIZE - 1)
    page.locator("#topic-pager").scroll_into_view_if_needed()
    expect(rows(page)).to_have_count(2 * PAGE_SIZE - 1)
    titles = rows(page).locator(".row__title").all_text_contents()
    assert [t.split(" ↗")[0].strip() for t in titles] == [
        f"Kernel note {n:02d}" for n in range(40) if n != 3
    ]
    assert errors == []
