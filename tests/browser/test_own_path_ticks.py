"""Ticking on an own path in a real browser, at desktop and phone widths, with and without
JavaScript: a catalog resource and the owner's own resource, the path's bar, step bars, next up
and pace moving with each tick as a reload shows them."""

import pytest
from playwright.sync_api import expect

from apps.paths import services
from apps.paths.models import OwnStepItem
from apps.progress import services as progress_services
from apps.progress.models import Progress, Status
from tests.browser.test_own_paths import _screens
from tests.conftest import sign_in, tick
from tests.factories import EntryFactory, GuideFactory, ResourceFactory, SectionFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

MINE = "Warp scheduling, my notes"


@pytest.fixture
def own_path(learner):
    """Ada's path at 5 h/week: "Basics" holds Paper 00 and her own video, "Later" Paper 01."""
    guide = GuideFactory(slug="inference", title="Inference Engineering")
    section = SectionFactory(guide=guide, title="Serving")
    papers = [ResourceFactory(title=f"Paper {n:02}", kind="article") for n in range(2)]
    for paper in papers:
        EntryFactory(section=section, resource=paper)
    own = progress_services.own_resource_save(
        user=learner, url="https://example.org/warps", title=MINE, kind="video", author="Me"
    ).own
    path = services.own_path_create(user=learner, title="Serving, my way")
    services.own_path_update(path=path, hours_per_week=5)
    basics = services.own_step_add(path=path, title="Basics")
    later = services.own_step_add(path=path, title="Later")
    services.own_item_add(path=path, resource=papers[0], step=basics)
    services.own_item_add(path=path, resource=own.resource, step=basics)
    services.own_item_add(path=path, resource=papers[1], step=later)
    return path


NUMBERS = """() => ({
  bars: Object.fromEntries([...document.querySelectorAll(".bar[id]")].map(b => [b.id, b.innerText])),
  nextUp: document.querySelector(".next-up").innerText,
  pace: document.querySelector(".pace")?.innerText ?? null,
  ticks: [...document.querySelectorAll(".tick-box")].map(b => b.getAttribute("aria-checked")),
})"""


def _path_bar(page, path):
    return page.locator(f"#bar-path-{path.uuid} .bar-text")


@pytest.mark.parametrize("width", [1280, 390], ids=["desktop", "phone"])
def test_ticks_on_an_own_path_move_its_bar_and_next_up(page, live_server, learner, own_path, width):
    errors = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(f"{live_server.url}/my/paths/{own_path.uuid}/")
    page.evaluate("window.__same_page = true")
    expect(_path_bar(page, own_path)).to_have_text("0/3 · 0%")
    expect(page.locator(".next-up-link")).to_have_text("Paper 00")
    for title in ("Paper 00", MINE):  # every tick, and its row, fits the screen
        box = page.locator("li.resource-row", has=tick(page, title)).bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= width

    tick(page, "Paper 00").click()
    expect(tick(page, "Paper 00")).to_have_attribute("aria-checked", "true")
    expect(_path_bar(page, own_path)).to_have_text("1/3 · 33%")
    expect(page.locator(".next-up-link")).to_have_text(MINE)
    expect(page.locator(".pace")).to_contain_text("ahead by")

    tick(page, MINE).click()  # her own resource: the same tick, the same numbers moving
    expect(tick(page, MINE)).to_have_attribute("aria-checked", "true")
    expect(_path_bar(page, own_path)).to_have_text("2/3 · 67%")
    expect(page.locator(".next-up-link")).to_have_text("Paper 01")
    assert page.evaluate("window.__same_page") is True  # swapped in place, no page load
    after_tick = page.evaluate(NUMBERS)
    page.reload()
    assert page.evaluate(NUMBERS) == after_tick
    resource = OwnStepItem.objects.get(step__path=own_path, step__title="Basics", position=2)
    assert Progress.objects.get(user=learner, resource=resource.resource_id).status == Status.DONE

    # Its row menu marks it in progress; without a page of its own, "Set status" is its row in
    # My resources.
    row = page.locator("li.resource-row", has=tick(page, MINE))
    row.locator("summary").click()
    row.get_by_role("button", name="In progress").click()
    expect(row.locator(".tick-status")).to_have_text("In progress")
    expect(_path_bar(page, own_path)).to_have_text("1/3 · 33%")
    expect(page.locator(".next-up-link")).to_have_text(MINE)
    page.keyboard.press("Escape")
    assert errors == []
    if width == 1280:
        _screens(page, "own-path-ticks")


def test_ticks_on_an_own_path_without_javascript(browser, live_server, learner, own_path):
    context = browser.new_context(java_script_enabled=False, viewport={"width": 390, "height": 800})
    page = context.new_page()
    sign_in(page, live_server, learner)
    page.goto(f"{live_server.url}/my/paths/{own_path.uuid}/")
    expect(_path_bar(page, own_path)).to_have_text("0/3 · 0%")
    item = OwnStepItem.objects.get(step__path=own_path, step__title="Basics", position=2)

    tick(page, "Paper 00").click()  # the form posts; the page comes back at the row
    expect(tick(page, "Paper 00")).to_have_attribute("aria-checked", "true")
    expect(_path_bar(page, own_path)).to_have_text("1/3 · 33%")
    expect(page.locator(".next-up-link")).to_have_text(MINE)

    tick(page, MINE).click()
    assert page.url.endswith(f"/my/paths/{own_path.uuid}/#step-item-{item.uuid}")
    expect(tick(page, MINE)).to_have_attribute("aria-checked", "true")
    expect(_path_bar(page, own_path)).to_have_text("2/3 · 67%")
    expect(page.locator(".next-up-link")).to_have_text("Paper 01")
    _screens(page, "own-path-ticks-nojs")

    # The row menu opens on a link to its row in My resources, whose buttons set any status.
    row = page.locator("li.resource-row", has=tick(page, MINE))
    row.locator("summary").click()
    row.get_by_role("link", name="Set status").click()
    assert page.url.endswith(f"/my/resources/#own-{item.resource.saved_by.get().pk}")
    context.close()


def test_another_learner_ticks_a_published_own_path_with_their_own_progress(
    browser, live_server, learner, other_learner, own_path
):
    """Eve sees the catalog's two papers (never Ada's own video), each with her tick; her tick
    moves her bar and next up, and leaves Ada's numbers alone."""
    services.own_path_update(path=own_path, slug="serving", published=True)
    context = browser.new_context(viewport={"width": 390, "height": 800})
    page = context.new_page()
    sign_in(page, live_server, other_learner)
    page.goto(f"{live_server.url}/p/serving/")
    expect(page.locator(".own-items li")).to_have_count(2)
    assert MINE not in page.content()
    expect(_path_bar(page, own_path)).to_have_text("0/2 · 0%")
    tick(page, "Paper 00").click()
    expect(_path_bar(page, own_path)).to_have_text("1/2 · 50%")
    expect(page.locator(".next-up-link")).to_have_text("Paper 01")
    after_tick = page.evaluate(NUMBERS)
    page.reload()
    assert page.evaluate(NUMBERS) == after_tick
    assert after_tick["pace"] is None  # the pace is the owner's
    _screens(page, "own-path-ticks-published")
    assert not Progress.objects.filter(user=learner, status=Status.DONE).exists()
    context.close()
