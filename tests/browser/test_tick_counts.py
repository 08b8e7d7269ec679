"""After an htmx tick every number on the page is the one a reload shows: the status filter's
chips and "showing N of M", the bars, the dashboard's "N of M resources done" and its streaks;
with "Hide done" on, the ticked row leaves the list."""

import pytest
from playwright.sync_api import expect

from apps.progress.models import Status
from apps.progress.services import progress_set_status
from tests.conftest import tick
from tests.factories import EntryFactory, GuideFactory, ResourceFactory, SectionFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def guide():
    """Two sections; "Prefix caching" sits in both, so a tick of it shows in two rows."""
    guide = GuideFactory(slug="inference", title="Inference Engineering")
    serving, caching = (
        SectionFactory(guide=guide, title=title) for title in ("Serving", "Caching")
    )
    for title in ("Paged attention", "Speculative decoding", "Continuous batching"):
        EntryFactory(section=serving, resource=ResourceFactory(title=title))
    shared = ResourceFactory(title="Prefix caching")
    EntryFactory(section=serving, resource=shared)
    EntryFactory(section=caching, resource=shared)
    EntryFactory(section=caching, resource=ResourceFactory(title="KV cache quantization"))
    return guide


NUMBERS = """() => ({
  status: document.querySelector("[id$='-status']")?.innerText ?? null,
  bars: Object.fromEntries([...document.querySelectorAll(".bar[id]")].map(b => [b.id, b.innerText])),
  rows: [...document.querySelectorAll("li.row[id]")].map(r => r.id).sort(),
  lede: document.querySelector("#dashboard-overall")?.innerText ?? null,
  activity: document.querySelector("#dashboard-activity")?.innerText ?? null,
})"""


def numbers(page) -> dict:
    return page.evaluate(NUMBERS)


def test_a_tick_with_hide_done_on_agrees_with_a_reload(page, live_server, guide, learner):
    errors = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    progress_set_status(
        user=learner, resource=guide.sections.first().entries.first().resource, status=Status.DONE
    )
    url = f"{live_server.url}/guides/inference/?status=not_done"
    page.goto(url)
    status = page.locator("#guide-entries-status")
    expect(status).to_contain_text("Hide done: showing 5 of 6 entries.")
    expect(page.locator("#guide-entries li.row")).to_have_count(5)

    # Both rows of "Prefix caching" leave with one tick; every count follows, as on a reload.
    tick(page, "Prefix caching").first.click()
    expect(page.locator("#guide-entries li.row")).to_have_count(3)
    expect(status).to_contain_text("Hide done: showing 3 of 6 entries.")
    expect(page.get_by_role("link", name="Hide done 3")).to_be_visible()
    after_tick = numbers(page)
    page.reload()
    assert numbers(page) == after_tick
    assert "2/5" in after_tick["bars"][f"bar-guide-{guide.uuid}"]

    # By keyboard: the row leaves, and focus goes on to the next row's checkbox.
    tick(page, "Speculative decoding").focus()
    page.keyboard.press("Space")
    expect(page.locator("#guide-entries li.row")).to_have_count(2)
    expect(tick(page, "Continuous batching")).to_be_focused()
    page.keyboard.press("Space")  # the last one of its section: on to the next section's
    expect(tick(page, "KV cache quantization")).to_be_focused()
    page.goto(url)
    expect(page.locator("#guide-entries li.row")).to_have_count(1)

    # Marked in progress from its menu, a row stays under "Hide done"; the counts move again.
    row = page.locator("li.row", has_text="KV cache quantization")
    row.locator("summary").click()
    row.get_by_role("button", name="In progress").click()
    expect(row.locator(".tick-status")).to_have_text("In progress")
    expect(page.get_by_role("link", name="In progress 1")).to_be_visible()
    after_tick = numbers(page)
    page.reload()
    assert numbers(page) == after_tick
    assert errors == []


def test_a_tick_on_the_dashboard_agrees_with_a_reload(page, live_server, guide, learner):
    progress_set_status(
        user=learner, resource=guide.sections.first().entries.first().resource, status=Status.DONE
    )
    page.goto(f"{live_server.url}/dashboard/")
    lede = page.locator("#dashboard-overall")
    expect(lede).to_have_text("1 of 5 resources done across all guides.")
    tick(page, "Speculative decoding").click()
    expect(lede).to_have_text("2 of 5 resources done across all guides.")
    after_tick = numbers(page)
    page.reload()
    assert numbers(page) == after_tick
    assert "1 day current streak" in after_tick["activity"]
